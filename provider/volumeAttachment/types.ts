/**
 * The arguments and outputs of a VolumeAttachment, as plain values (the SDK class wraps them). The argument
 * schema is the one description of each argument: its documentation, type, what changing it does and its check.
 */
import { Problems, str } from "../common/check";
import {
  PROJECT_ID,
  optional,
  text,
  timeoutsCheck,
  type ArgumentsOf,
  type CheckedArguments,
} from "../common/arguments";
import type { Timeouts } from "../common/timeouts";
import { keysOf } from "../common/typed";
import type { KindProperties } from "../common/properties";

/** A block-storage URI, as a path or a full URL (api-notes "Volumes"). */
export const VOLUME_URI = /^(https?:\/\/[^/]+)?\/projects\/[^/]+\/providers\/[^/]+\/blockStorages\/[^/]+$/;

/** The id of an attachment: a volume is attached at most once per cluster. */
export const attachmentId = (kaasId: string, volumeUri: string): string => `${kaasId}:${volumeUri}`;

/** The check of `volumeUri`: required, a block-storage URI. */
// `as const` keeps `required: true` in the type, so `text` makes `volumeUri` a required argument.
const VOLUME_URI_RULE = {
  required: true,
  pattern: VOLUME_URI,
  patternHint:
    "must be a block storage URI like /projects/<project>/providers/Vendor.Storage/blockStorages/<id>",
} as const;

/**
 * Every argument of a VolumeAttachment. Any change of where the volume goes replaces it (detaching first, see
 * `diffVolumeAttachment`); only the deadlines update in place.
 */
export const VOLUME_ATTACHMENT_ARGUMENTS = {
  /** Project of the cluster. Default: stack config `vendor:projectId` or `VENDOR_PROJECT_ID`. Replaces. */
  projectId: PROJECT_ID,
  /** Id of the cluster, usually `cluster.kaasId`. Replaces. */
  kaasId: text("replace", { required: true }),
  /** Name of the node pool of the node. Replaces. */
  nodePoolName: text("replace", { required: true }),
  /**
   * Id of the node to attach the volume to, a node of `nodePoolName`, as the attach path takes it (the
   * published interface calls it only "the unique identifier of the node"). No response of the service lists
   * nodes, so take it from the cluster itself: the node's name in `kubectl get nodes` (with the cluster's
   * `kubeconfig` output), passed in by the program, e.g. from stack config. Replaces.
   */
  nodeId: text("replace", { required: true }),
  /**
   * URI of the block storage volume, e.g. `/projects/p/providers/Vendor.Storage/blockStorages/v-1`. Replaces.
   * A volume is attached once per cluster: of the VolumeAttachments of a stack with the same volume and cluster,
   * one holds it (the first the program declares, on the dynamic resources); the create of any other fails
   * naming it and records nothing, so `pulumi up` fails until one of them leaves the program.
   */
  volumeUri: text("replace", VOLUME_URI_RULE),
  /** Deadlines of create (attach, default `"15m"`) and delete (detach, default `"15m"`). */
  timeouts: optional<Timeouts>({ change: "update", check: timeoutsCheck }),
  /**
   * Take over an attachment that already exists: its id, `<kaasId>:<volumeUri>`. Default none. Ignored
   * after create (changing it replaces nothing). What it takes depends on what the cluster's responses show:
   * - `attachedVolumes` (volume and node): the volume must be attached to `nodeId`; without `adoptId` such
   *   an attachment is taken over too; one on another node is an error.
   * - linked resources only (the volume, not its node): the volume must be attached to the cluster and is
   *   taken over with `nodeId` as declared (`verification: "cluster"`); without `adoptId` an existing
   *   attachment is refused, since its node cannot be checked.
   * - nothing (the published interface): the attach is sent. An answer "already attached" is taken over
   *   without verification only with `adoptId` (without it, refused with a message naming `adoptId`); a 2xx
   *   means the volume was not attached and now is. `verification` is `"none"` either way.
   */
  adoptId: optional<string>({
    change: "ignore",
    check(value, property, { news, problems }) {
      const adoptId = str(value, property, problems);
      // The cluster and volume are compared only when their own rules accept them; those report any problem.
      const kaasId = str(news.kaasId, "kaasId", new Problems(), { required: true });
      const volumeUri = str(news.volumeUri, "volumeUri", new Problems(), VOLUME_URI_RULE);
      if (
        adoptId !== undefined &&
        kaasId !== undefined &&
        volumeUri !== undefined &&
        adoptId !== attachmentId(kaasId, volumeUri)
      ) {
        problems.add(
          property,
          `must be the attachment id "${attachmentId(kaasId, volumeUri)}" (<kaasId>:<volumeUri>)`,
        );
      }
    },
  }),
};

/**
 * Arguments of a VolumeAttachment, from its schema (`VOLUME_ATTACHMENT_ARGUMENTS`). Any change replaces it:
 * detach first, then attach.
 *
 * @interface
 */
export type VolumeAttachmentInputs = ArgumentsOf<typeof VOLUME_ATTACHMENT_ARGUMENTS>;

/**
 * A VolumeAttachment of the program declared before this one that attaches the same volume to the same
 * cluster: its `creationScope` and the node it declares (see `claims.ts`).
 */
export interface DeclaredClaim {
  scope: string;
  nodePoolName: string;
  nodeId: string;
}

/** A `declaredBefore` entry as the SDK class sends it: with the project as that resource declares it. */
export interface DeclaredClaimInput extends DeclaredClaim {
  /** The project that resource declares; absent or null when it takes the configured default. */
  projectId?: string | null;
}

/**
 * Arguments of a VolumeAttachment as `check` returns them: the default project filled in, and the resources
 * declared before it with the same volume and cluster, of its project (`declaredBefore`: set by the SDK class,
 * not an argument; absent when there are none).
 */
export type CheckedVolumeAttachmentInputs = CheckedArguments<VolumeAttachmentInputs> & {
  declaredBefore?: DeclaredClaim[];
};

/** Outputs of a VolumeAttachment beyond its arguments. */
export interface VolumeAttachmentComputed {
  /**
   * Size of the volume in GB as the cluster reports it, when known: only the `attachedVolumes` responses
   * show it; otherwise the last size seen, or null.
   */
  sizeGb: number | null;
  /**
   * How far the attachment was checked at the last create, update or refresh: `"node"` (the cluster shows
   * the volume on `nodeId`), `"cluster"` (the cluster shows the volume attached but not on which node: its
   * linked resources name no node, or the node is gone), `"none"` (the cluster's responses do not show
   * attachments, as in the published interface: the service accepted the attach and the cluster settled,
   * nothing more can be known; refresh keeps the attachment as declared and never drops it for being unseen).
   */
  verification: "node" | "cluster" | "none";
}

/** The names of `VolumeAttachmentComputed`, in its order; a record so that none is missing or extra. */
const VOLUME_ATTACHMENT_COMPUTED: Record<keyof VolumeAttachmentComputed, true> = {
  sizeGb: true,
  verification: true,
};

/** Every computed output of a VolumeAttachment. */
export const VOLUME_ATTACHMENT_COMPUTED_KEYS = keysOf(VOLUME_ATTACHMENT_COMPUTED);

/** What a volume attachment is made of: its arguments and computed outputs (an update may change any of them). */
export const VOLUME_ATTACHMENT_PROPERTIES: KindProperties<
  typeof VOLUME_ATTACHMENT_ARGUMENTS,
  VolumeAttachmentComputed
> = {
  arguments: VOLUME_ATTACHMENT_ARGUMENTS,
  computed: VOLUME_ATTACHMENT_COMPUTED_KEYS,
  secrets: [],
  stable: [],
};
