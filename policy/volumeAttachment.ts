/**
 * The pack's rule on VolumeAttachment: the node pool it names is a pool of its cluster (when that cluster is in
 * the stack) and one volumes may be attached to. A stack rule, since it reads the cluster's pools.
 */
import { isRecord } from "../schemas/typed";
import type { StackValidationPolicy } from "@pulumi/policy";
import { clusterOf, isUnknown, matchesAny, named, resourcesOfKind, settings } from "./values";
import { closedParameters } from "./parameters";

/** Settings of `volume-attachment-node-pool`. */
export interface VolumeAttachmentNodePoolSettings {
  /** Node pool names (`*` matches any run of characters) volumes may be attached to. Default any. */
  allowedNodePools: string[];
}
const DEFAULTS: VolumeAttachmentNodePoolSettings = { allowedNodePools: ["*"] };

/**
 * An attachment's `nodePoolName` is a pool of the cluster its `kaasId` designates, so a misspelt pool fails the
 * preview instead of the attach after the cluster is created, and matches the allowed pool names.
 */
export const volumeAttachmentNodePool = closedParameters<StackValidationPolicy>({
  name: "volume-attachment-node-pool",
  description:
    "Volume attachments name a node pool (nodePoolName) of their cluster, and one that volumes may be attached to.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      allowedNodePools: {
        type: "array",
        items: { type: "string", minLength: 1 },
        minItems: 1,
        default: DEFAULTS.allowedNodePools,
        description: "Node pool names volumes may be attached to; `*` matches any run of characters.",
      },
    },
  },
  validateStack: (args, report) => {
    const { allowedNodePools } = settings(
      DEFAULTS,
      args.getConfig<Partial<VolumeAttachmentNodePoolSettings>>(),
    );
    const clusters = resourcesOfKind(args.resources, "Kaas");
    for (const attachment of resourcesOfKind(args.resources, "VolumeAttachment")) {
      const pool = attachment.props.nodePoolName;
      if (typeof pool !== "string" || isUnknown(pool)) continue;
      const who = `${named("VolumeAttachment", attachment.name)} nodePoolName`;
      if (!matchesAny(allowedNodePools, pool)) {
        report(
          `${who}: "${pool}" is not a pool volumes may be attached to; allowed: ${allowedNodePools.join(", ")} (allowedNodePools)`,
          attachment.urn,
        );
        continue;
      }
      const cluster = clusterOf(attachment, clusters);
      const pools = cluster?.props.nodePools;
      if (!cluster || !Array.isArray(pools)) continue;
      const names = pools.map((p: unknown) => (isRecord(p) ? p.name : p));
      // A pool whose name is not known yet may be the one named.
      if (names.some((n) => typeof n !== "string" || isUnknown(n)) || names.includes(pool)) continue;
      report(
        `${who}: "${pool}" is not a node pool of ${named("Kaas", cluster.name)}, whose pools are ${names.join(", ")}`,
        attachment.urn,
      );
    }
  },
});
