/** The arguments and outputs of a VolumeAttachment, as plain values (the SDK class wraps them). */
import type { Timeouts } from "../kaas/types";

/** Arguments of a VolumeAttachment. Any change replaces it: detach first, then attach. */
export interface VolumeAttachmentInputs {
  /** Project of the cluster. Default: stack config `vendor:projectId` or `VENDOR_PROJECT_ID`. Replaces. */
  projectId?: string;
  /** Id of the cluster, usually `cluster.kaasId`. Replaces. */
  kaasId: string;
  /** Name of the node pool of the node. Replaces. */
  nodePoolName: string;
  /** Id of the node to attach the volume to (see `Kaas.currentNodePools[].nodeIds`). Replaces. */
  nodeId: string;
  /** URI of the block storage volume, e.g. `/projects/p/providers/Vendor.Storage/blockStorages/v-1`. Replaces. */
  volumeUri: string;
  /** Deadlines of create (attach, default `"15m"`) and delete (detach, default `"15m"`). */
  timeouts?: Timeouts;
  /**
   * Take over an attachment that already exists: its id, `<kaasId>:<volumeUri>`. Without it, a volume
   * already attached to the same node is taken over too; one attached to another node is an error.
   */
  adoptId?: string;
}

/** Outputs of a VolumeAttachment beyond its arguments. */
export interface VolumeAttachmentComputed {
  /** Size of the volume in GB as the cluster reports it, when known. */
  sizeGb: number | null;
}
