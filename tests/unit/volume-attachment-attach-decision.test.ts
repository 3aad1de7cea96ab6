/** The attach of a VolumeAttachment, decided from what the cluster shows, `adoptId` and the attach's answer. */
import {
  decideAttach,
  unconfirmedMessage,
  type AttachAnswer,
  type AttachOutcome,
  type AttachSubject,
} from "../../provider/volumeAttachment/attachDecision";
import type { AttachmentView } from "../../provider/volumeAttachment/observe";

const VOLUME = "/projects/p-1/providers/Vendor.Storage/blockStorages/v-1";
const WHAT = 'VolumeAttachment "data"';
const ID = `k-1:${VOLUME}`;
const subject = (adoptId?: string): AttachSubject => ({
  what: WHAT,
  kaasId: "k-1",
  volumeUri: VOLUME,
  nodeId: "n-1",
  ...(adoptId === undefined ? {} : { adoptId }),
});

const onNode = (nodeId: string | null): AttachmentView => ({
  shows: "attachedVolumes",
  attachment: { uri: VOLUME, nodeId, sizeGb: 5 },
});
const notListed: AttachmentView = { shows: "attachedVolumes", attachment: undefined };
const linked: AttachmentView = { shows: "linkedResources", linked: true };
const notLinked: AttachmentView = { shows: "linkedResources", linked: false };
const nothing: AttachmentView = { shows: "nothing" };

const accepted: AttachAnswer = { kind: "accepted" };
const REFUSAL = "POST /kaas/k-1/attach failed (400 Bad Request): volume already attached";
const alreadyAttached: AttachAnswer = { kind: "alreadyAttached", afterLostAnswer: false, text: REFUSAL };
const alreadyAfterLoss: AttachAnswer = { kind: "alreadyAttached", afterLostAnswer: true, text: REFUSAL };
const otherRefusal: AttachAnswer = { kind: "otherRefusal" };

const unknownNode = (why: string): AttachOutcome => ({
  kind: "refuse",
  message:
    `${WHAT}: ${why}, and the service does not show to which node, so it cannot be checked to be node n-1. ` +
    `If this attachment is yours (an interrupted run, a retried request), set adoptId: "${ID}" to take it ` +
    `over; otherwise detach it first.`,
});
const notAttached: AttachOutcome = {
  kind: "refuse",
  message: `${WHAT}: adoptId ${ID}: the volume is not attached`,
};
const attaching: AttachOutcome = { kind: "attached", line: `attaching ${VOLUME} to node n-1` };

it.each<[string, AttachmentView, string | undefined, AttachAnswer | undefined, AttachOutcome]>([
  [
    "attachedVolumes on another node: refused, detach it first",
    onNode("n-2"),
    undefined,
    undefined,
    {
      kind: "refuse",
      message: `${WHAT}: ${VOLUME} is already attached to node n-2 of cluster k-1; detach it first`,
    },
  ],
  [
    "attachedVolumes on another node, with adoptId: refused all the same",
    onNode("n-2"),
    ID,
    undefined,
    {
      kind: "refuse",
      message: `${WHAT}: ${VOLUME} is already attached to node n-2 of cluster k-1; detach it first`,
    },
  ],
  [
    "attachedVolumes on a node that is gone: refused naming it gone",
    onNode(null),
    undefined,
    undefined,
    {
      kind: "refuse",
      message: `${WHAT}: ${VOLUME} is already attached to node (gone) of cluster k-1; detach it first`,
    },
  ],
  [
    "attachedVolumes on the declared node: taken over, nothing sent",
    onNode("n-1"),
    undefined,
    undefined,
    { kind: "takeOver", line: `taking over the existing attachment of ${VOLUME} to node n-1` },
  ],
  [
    "attachedVolumes on the declared node, with adoptId: taken over, nothing sent",
    onNode("n-1"),
    ID,
    undefined,
    { kind: "takeOver", line: `taking over the existing attachment of ${VOLUME} to node n-1` },
  ],
  ["attachedVolumes without the volume, with adoptId: refused", notListed, ID, undefined, notAttached],
  [
    "attachedVolumes without the volume: the attach is sent",
    notListed,
    undefined,
    undefined,
    { kind: "send" },
  ],
  [
    "attachedVolumes without the volume, attach accepted: attached",
    notListed,
    undefined,
    accepted,
    attaching,
  ],
  [
    "attachedVolumes without the volume, refused as attached: the wait confirms",
    notListed,
    undefined,
    alreadyAttached,
    { kind: "confirm" },
  ],
  [
    "attachedVolumes without the volume, refused as attached after a lost answer: the wait confirms",
    notListed,
    undefined,
    alreadyAfterLoss,
    { kind: "confirm" },
  ],
  [
    "attachedVolumes without the volume, any other refusal: fails",
    notListed,
    undefined,
    otherRefusal,
    { kind: "fail" },
  ],
  [
    "linked to the cluster, with adoptId: taken over with the node as declared",
    linked,
    ID,
    undefined,
    {
      kind: "takeOver",
      line:
        `taking over the existing attachment of ${VOLUME} to cluster k-1; the service does not show its ` +
        `node, so node n-1 is taken as declared`,
    },
  ],
  [
    "linked to the cluster, without adoptId: refused naming adoptId",
    linked,
    undefined,
    undefined,
    unknownNode(`${VOLUME} is already attached to cluster k-1`),
  ],
  ["not linked, with adoptId: refused", notLinked, ID, undefined, notAttached],
  ["not linked: the attach is sent", notLinked, undefined, undefined, { kind: "send" }],
  ["not linked, attach accepted: attached", notLinked, undefined, accepted, attaching],
  [
    "not linked, refused as attached: the wait confirms",
    notLinked,
    undefined,
    alreadyAttached,
    { kind: "confirm" },
  ],
  ["not linked, any other refusal: fails", notLinked, undefined, otherRefusal, { kind: "fail" }],
  ["nothing shown: the attach is sent", nothing, undefined, undefined, { kind: "send" }],
  ["nothing shown, with adoptId: the attach is sent", nothing, ID, undefined, { kind: "send" }],
  ["nothing shown, attach accepted: attached", nothing, undefined, accepted, attaching],
  [
    "nothing shown, with adoptId, attach accepted: attached, it was not before",
    nothing,
    ID,
    accepted,
    {
      kind: "attached",
      line:
        `adoptId: the service accepted a new attach of ${VOLUME} to node n-1, so it was not attached; it is ` +
        `attached now (the service does not show attachments: unverified)`,
    },
  ],
  [
    "nothing shown, refused as attached: refused naming adoptId",
    nothing,
    undefined,
    alreadyAttached,
    unknownNode(`the service answers that ${VOLUME} is already attached to cluster k-1 (${REFUSAL})`),
  ],
  [
    "nothing shown, refused as attached after a lost answer: refused naming the loss and adoptId",
    nothing,
    undefined,
    alreadyAfterLoss,
    unknownNode(
      `the answer to its attach of ${VOLUME} was lost and the service refused the retry as already attached ` +
        `to cluster k-1 (${REFUSAL}): the lost attach most likely went through, unless the volume was ` +
        `attached before`,
    ),
  ],
  [
    "nothing shown, with adoptId, refused as attached: adopted unverified",
    nothing,
    ID,
    alreadyAttached,
    {
      kind: "adopt",
      line:
        `adoptId: the service answers that ${VOLUME} is already attached to cluster k-1; it does not show ` +
        `attachments, so the attachment is taken over unverified, on node n-1 as declared`,
    },
  ],
  [
    "nothing shown, with adoptId, refused as attached after a lost answer: adopted unverified",
    nothing,
    ID,
    alreadyAfterLoss,
    {
      kind: "adopt",
      line:
        `adoptId: the service answers that ${VOLUME} is already attached to cluster k-1; it does not show ` +
        `attachments, so the attachment is taken over unverified, on node n-1 as declared`,
    },
  ],
  ["nothing shown, any other refusal: fails", nothing, undefined, otherRefusal, { kind: "fail" }],
  ["nothing shown, with adoptId, any other refusal: fails", nothing, ID, otherRefusal, { kind: "fail" }],
])("%s", (_name, observed, adoptId, answer, outcome) => {
  expect(decideAttach(subject(adoptId), observed, answer)).toEqual(outcome);
});

it("counts an empty adoptId as asking to adopt", () => {
  expect(decideAttach(subject(""), notListed)).toEqual({
    kind: "refuse",
    message: `${WHAT}: adoptId : the volume is not attached`,
  });
});

it("says that an attach refused as attached and not seen on the node is someone else's", () => {
  expect(unconfirmedMessage(subject(), "timed out after 15m")).toBe(
    `${WHAT}: the service answers that ${VOLUME} is already attached to cluster k-1, and the cluster does ` +
      `not show it on node n-1 (timed out after 15m); detach it first`,
  );
});
