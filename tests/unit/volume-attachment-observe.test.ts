/** What one cluster response shows about one volume, and how far that verifies an attachment. */
import { verificationOf, viewAttachment, type AttachmentView } from "../../provider/volumeAttachment/observe";
import type { KaasResponse } from "../../schemas";

const VOLUME = "/projects/p-1/providers/Vendor.Storage/blockStorages/v-1";
const OTHER = "/projects/p-1/providers/Vendor.Storage/blockStorages/v-2";
const VPC = "/projects/p-1/providers/Vendor.Network/vpcs/vpc-1";

/** A cluster response with only the fields that can show attachments. */
function cluster(
  metadata: Partial<KaasResponse["metadata"]> = {},
  properties: Partial<KaasResponse["properties"]> = {},
): KaasResponse {
  return { metadata: { id: "k-1", ...metadata }, properties } as KaasResponse;
}

it.each<[string, KaasResponse, string, AttachmentView]>([
  [
    "attachedVolumes listing the volume shows it with its node",
    cluster({}, { attachedVolumes: [{ uri: VOLUME, nodeId: "n-1", sizeGb: 5 }] }),
    VOLUME,
    { shows: "attachedVolumes", attachment: { uri: VOLUME, nodeId: "n-1", sizeGb: 5 } },
  ],
  [
    "an empty attachedVolumes shows the volume detached",
    cluster({}, { attachedVolumes: [] }),
    VOLUME,
    { shows: "attachedVolumes", attachment: undefined },
  ],
  [
    "attachedVolumes is read before any linked resources",
    cluster({ linkedResources: [{ uri: VOLUME }] }, { attachedVolumes: [] }),
    VOLUME,
    { shows: "attachedVolumes", attachment: undefined },
  ],
  [
    "a null attachedVolumes shows nothing",
    cluster({}, { attachedVolumes: null }),
    VOLUME,
    { shows: "nothing" },
  ],
  [
    "metadata.linkedResources listing the volume shows it linked",
    cluster({ linkedResources: [{ uri: VOLUME, strictCorrelation: false }] }),
    VOLUME,
    { shows: "linkedResources", linked: true },
  ],
  [
    "an empty metadata.linkedResources shows the volume detached",
    cluster({ linkedResources: [] }),
    VOLUME,
    { shows: "linkedResources", linked: false },
  ],
  [
    "a null metadata.linkedResources shows nothing",
    cluster({ linkedResources: null }),
    VOLUME,
    { shows: "nothing" },
  ],
  [
    "properties.linkedResources holding only the VPC shows nothing",
    cluster({}, { linkedResources: [{ uri: VPC }] }),
    VOLUME,
    { shows: "nothing" },
  ],
  [
    "properties.linkedResources holding another volume shows this one detached",
    cluster({}, { linkedResources: [{ uri: VPC }, { uri: OTHER }] }),
    VOLUME,
    { shows: "linkedResources", linked: false },
  ],
  [
    "properties.linkedResources holding this volume shows it linked",
    cluster({}, { linkedResources: [{ uri: VPC }, { uri: VOLUME }] }),
    VOLUME,
    { shows: "linkedResources", linked: true },
  ],
  [
    "a linked full URL matches the volume given as a path",
    cluster({ linkedResources: [{ uri: `https://api.example.com${VOLUME}` }] }),
    VOLUME,
    { shows: "linkedResources", linked: true },
  ],
  [
    "a listed path matches the volume given as a full URL",
    cluster({}, { attachedVolumes: [{ uri: VOLUME, nodeId: "n-1" }] }),
    `https://api.example.com${VOLUME}`,
    { shows: "attachedVolumes", attachment: { uri: VOLUME, nodeId: "n-1" } },
  ],
  ["the published response shows nothing", cluster(), VOLUME, { shows: "nothing" }],
])("%s", (_label, response, volumeUri, expected) => {
  expect(viewAttachment(response, volumeUri)).toEqual(expected);
});

it.each<[string, AttachmentView, ReturnType<typeof verificationOf>]>([
  [
    "on the declared node: node",
    { shows: "attachedVolumes", attachment: { uri: VOLUME, nodeId: "n-1" } },
    "node",
  ],
  [
    "on another node: cluster",
    { shows: "attachedVolumes", attachment: { uri: VOLUME, nodeId: "n-2" } },
    "cluster",
  ],
  [
    "on a node that is gone: cluster",
    { shows: "attachedVolumes", attachment: { uri: VOLUME, nodeId: null } },
    "cluster",
  ],
  [
    "missing from attachedVolumes: not attached",
    { shows: "attachedVolumes", attachment: undefined },
    undefined,
  ],
  ["linked, node not shown: cluster", { shows: "linkedResources", linked: true }, "cluster"],
  ["not linked: not attached", { shows: "linkedResources", linked: false }, undefined],
  ["not shown at all: none", { shows: "nothing" }, "none"],
])("verifies an attachment to node n-1 %s", (_label, view, expected) => {
  expect(verificationOf(view, "n-1")).toBe(expected);
});
