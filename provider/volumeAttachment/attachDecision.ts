/**
 * What a VolumeAttachment's attach does, decided from what the cluster shows, `adoptId`, and the service's
 * answer to the attach request. Pure: the provider (`provider.ts` `attach`) reads the cluster, sends the
 * request and waits; this module decides between them, and words every refusal.
 *
 * | The cluster shows                     | `adoptId` | Before sending                  | Answer to the attach            | Outcome                     |
 * | ------------------------------------- | --------- | ------------------------------- | ------------------------------- | --------------------------- |
 * | `attachedVolumes`: on another node    | any       | refuse: detach it first         |                                 |                             |
 * | `attachedVolumes`: on the node        | any       | take over, nothing sent         |                                 |                             |
 * | `attachedVolumes`: not the volume     | set       | refuse: not attached            |                                 |                             |
 * | `attachedVolumes`: not the volume     | unset     | send                            | accepted                        | attached                    |
 * | `attachedVolumes` or linked resources | any       | send                            | "already attached"              | confirm: the wait decides   |
 * | linked resources: linked              | set       | take over, node as declared     |                                 |                             |
 * | linked resources: linked              | unset     | refuse: node unknown, `adoptId` |                                 |                             |
 * | linked resources: not linked          | set       | refuse: not attached            |                                 |                             |
 * | linked resources: not linked          | unset     | send                            | accepted                        | attached                    |
 * | nothing                               | unset     | send                            | accepted                        | attached                    |
 * | nothing                               | set       | send                            | accepted                        | attached (it was not)       |
 * | nothing                               | unset     | send                            | "already attached"              | refuse: node unknown        |
 * | nothing                               | unset     | send                            | "already attached", answer lost | refuse: naming the loss     |
 * | nothing                               | set       | send                            | "already attached"              | adopt, unverified           |
 * | any                                   | any       | send                            | any other refusal               | fail with that refusal      |
 */
import type { AttachmentView } from "./observe";
import { attachmentId } from "./types";

/** The attachment an attach is about, as its messages name it. */
export interface AttachSubject {
  /** How messages name the resource (`VolumeAttachment "data"`). */
  what: string;
  kaasId: string;
  volumeUri: string;
  nodeId: string;
  /** `adoptId` as checked: any string asks to take an existing attachment over. */
  adoptId?: string;
}

/** The service's answer to the attach request. */
export type AttachAnswer =
  | { kind: "accepted" }
  /**
   * Refused as attached already, to some node of the cluster. `afterLostAnswer`: the refusal answered a retry
   * of a request whose answer was lost; `text` is the refusal as messages quote it.
   */
  | { kind: "alreadyAttached"; afterLostAnswer: boolean; text: string }
  /** Any other refusal: the provider explains it and fails with it. */
  | { kind: "otherRefusal" };

/** What the attach does next. */
export type AttachOutcome =
  /** Refused: a plain error, so nothing of the resource is recorded. Nothing more is sent. */
  | { kind: "refuse"; message: string }
  /** The existing attachment is this resource's: nothing to send; `line` is the progress line. */
  | { kind: "takeOver"; line: string }
  /** Send the attach, then decide again with its answer. */
  | { kind: "send" }
  /** The attach was accepted: `line` is the progress line; the wait follows. */
  | { kind: "attached"; line: string }
  /** Refused as attached where nothing shows attachments, with `adoptId`: taken over unverified. */
  | { kind: "adopt"; line: string }
  /**
   * Refused as attached where attachments show: a retried attach whose first try went through answers so,
   * and the attachment may still be on its way to the cluster's responses. The wait decides; if it fails, the
   * attachment is someone else's (`unconfirmedMessage`).
   */
  | { kind: "confirm" }
  /** Any other refusal: fail with it. */
  | { kind: "fail" };

const refuse = (message: string): AttachOutcome => ({ kind: "refuse", message });

/**
 * The refusal to take over an attachment whose node the service does not show without `adoptId`: it may be
 * this resource's own (an interrupted run, a retried request) or another node's.
 */
function unknownNodeRefusal({ what, kaasId, volumeUri, nodeId }: AttachSubject, why: string): AttachOutcome {
  return refuse(
    `${what}: ${why}, and the service does not show to which node, so it cannot be checked to ` +
      `be node ${nodeId}. If this attachment is yours (an interrupted run, a retried request), set ` +
      `adoptId: "${attachmentId(kaasId, volumeUri)}" to take it over; otherwise detach it first.`,
  );
}

/**
 * What the attach of `subject` does, given what the cluster shows (`observed`) and, once the request was sent,
 * the service's `answer`: without an answer, whether to send at all (`send`), take over (`takeOver`) or refuse;
 * with one, what that answer means. See the module's table.
 */
export function decideAttach(
  subject: AttachSubject,
  observed: AttachmentView,
  answer?: AttachAnswer,
): AttachOutcome {
  const { what, kaasId, volumeUri, nodeId, adoptId } = subject;
  const adopt = typeof adoptId === "string";
  if (observed.shows === "attachedVolumes") {
    const existing = observed.attachment;
    if (existing && existing.nodeId !== nodeId) {
      return refuse(
        `${what}: ${volumeUri} is already attached to node ${existing.nodeId ?? "(gone)"} of cluster ${kaasId}; detach it first`,
      );
    }
    if (!existing && adopt) return refuse(`${what}: adoptId ${adoptId}: the volume is not attached`);
    if (existing)
      return {
        kind: "takeOver",
        line: `taking over the existing attachment of ${volumeUri} to node ${nodeId}`,
      };
  } else if (observed.shows === "linkedResources") {
    if (!observed.linked && adopt) return refuse(`${what}: adoptId ${adoptId}: the volume is not attached`);
    if (observed.linked && !adopt)
      return unknownNodeRefusal(subject, `${volumeUri} is already attached to cluster ${kaasId}`);
    if (observed.linked) {
      return {
        kind: "takeOver",
        line:
          `taking over the existing attachment of ${volumeUri} to cluster ${kaasId}; the service does not ` +
          `show its node, so node ${nodeId} is taken as declared`,
      };
    }
  }
  if (answer === undefined) return { kind: "send" };
  switch (answer.kind) {
    case "accepted":
      return {
        kind: "attached",
        line:
          observed.shows === "nothing" && adopt
            ? `adoptId: the service accepted a new attach of ${volumeUri} to node ${nodeId}, so it was not ` +
              `attached; it is attached now (the service does not show attachments: unverified)`
            : `attaching ${volumeUri} to node ${nodeId}`,
      };
    case "otherRefusal":
      return { kind: "fail" };
    case "alreadyAttached":
      if (observed.shows !== "nothing") return { kind: "confirm" };
      if (!adopt) {
        // A retry refused after an attempt whose answer was lost: that attempt most likely attached the
        // volume, but a volume attached before it is refused the same way, and nothing tells them apart.
        return unknownNodeRefusal(
          subject,
          answer.afterLostAnswer
            ? `the answer to its attach of ${volumeUri} was lost and the service refused the retry as ` +
                `already attached to cluster ${kaasId} (${answer.text}): the lost attach most ` +
                `likely went through, unless the volume was attached before`
            : `the service answers that ${volumeUri} is already attached to cluster ${kaasId} (${answer.text})`,
        );
      }
      return {
        kind: "adopt",
        line:
          `adoptId: the service answers that ${volumeUri} is already attached to cluster ${kaasId}; it does ` +
          `not show attachments, so the attachment is taken over unverified, on node ${nodeId} as declared`,
      };
  }
}

/**
 * The failure of a `confirm` whose wait did not see the attachment on the declared node (`waitText`: why): the
 * attachment is someone else's (another node, another stack), so the error carries no id and nothing of this
 * resource lands in the state.
 */
export function unconfirmedMessage(
  { what, kaasId, volumeUri, nodeId }: AttachSubject,
  waitText: string,
): string {
  return (
    `${what}: the service answers that ${volumeUri} is already attached to cluster ${kaasId}, and the ` +
    `cluster does not show it on node ${nodeId} (${waitText}); detach it first`
  );
}
