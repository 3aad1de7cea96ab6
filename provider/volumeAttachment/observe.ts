/**
 * What one cluster response shows about one volume. The published responses carry no list of attached
 * volumes (api-notes "What the published interface does not show"), so the provider decides per response
 * which of three readings it sees: `attachedVolumes` (volume, node and size), `linkedResources` (the volume
 * among the cluster's linked resources, without its node), or nothing at all.
 */
import type { AttachedVolumeResponse, KaasResponse } from "../../schemas";
import { VOLUME_URI } from "./types";

/**
 * How far an attachment was checked, an output of VolumeAttachment: `node` (the cluster shows the volume on
 * the declared node), `cluster` (the cluster shows the volume attached but not its node: linked resources
 * do not name nodes, or the node is gone), `none` (the cluster's responses do not show attachments: the
 * service's acceptance of the attach is all there is).
 */
export type Verification = "node" | "cluster" | "none";

/** One response's view of one volume. */
export type AttachmentView =
  | { shows: "attachedVolumes"; attachment: AttachedVolumeResponse | undefined }
  | { shows: "linkedResources"; linked: boolean }
  | { shows: "nothing" };

/** The path of a volume URI given as a path or a full URL, for comparing the two spellings. */
export function volumePath(uri: string): string {
  return uri.replace(/^https?:\/\/[^/]+/, "");
}

const sameVolume = (a: string | null | undefined, b: string): boolean =>
  typeof a === "string" && volumePath(a) === volumePath(b);

/**
 * What `cluster` shows about `volumeUri`. `attachedVolumes` counts when the property is a list (even empty).
 * Linked resources count when `metadata.linkedResources` is a list, or when any linked resource (metadata or
 * properties) is a block storage: the cluster's `properties.linkedResources` also holds its VPC and subnet,
 * so a list there without any volume says nothing about attachments.
 */
export function viewAttachment(cluster: KaasResponse, volumeUri: string): AttachmentView {
  const listed = cluster.properties.attachedVolumes;
  if (Array.isArray(listed)) {
    return { shows: "attachedVolumes", attachment: listed.find((v) => sameVolume(v.uri, volumeUri)) };
  }
  const metadataLinks = cluster.metadata.linkedResources;
  const links = [...(metadataLinks ?? []), ...(cluster.properties.linkedResources ?? [])];
  if (Array.isArray(metadataLinks) || links.some((l) => VOLUME_URI.test(l.uri ?? ""))) {
    return { shows: "linkedResources", linked: links.some((l) => sameVolume(l.uri, volumeUri)) };
  }
  return { shows: "nothing" };
}

/** How far `view` verifies an attachment of the volume to `nodeId`; undefined when it shows it detached. */
export function verificationOf(view: AttachmentView, nodeId: string): Verification | undefined {
  switch (view.shows) {
    case "attachedVolumes":
      if (view.attachment === undefined) return undefined;
      return view.attachment.nodeId === nodeId ? "node" : "cluster";
    case "linkedResources":
      return view.linked ? "cluster" : undefined;
    case "nothing":
      return "none";
  }
}
