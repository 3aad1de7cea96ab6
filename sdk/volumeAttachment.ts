import * as pulumi from "@pulumi/pulumi";
import { MODULE } from "../provider/kinds";
import { volumePath } from "../provider/volumeAttachment/observe";
import {
  VOLUME_ATTACHMENT_ARGUMENTS,
  type DeclaredClaimInput,
  type VolumeAttachmentComputed,
  type VolumeAttachmentInputs,
} from "../provider/volumeAttachment/types";
import { skipUnreadLeakTraces } from "./leakTraces";
import { optionInputs, readOnlyProps } from "./options";
import { argumentSeeds, creationScope, type ResourceArgs, type ResourceOutputs } from "./inputs";
import { lookupArgs } from "./resource";
import shell from "./shells/VolumeAttachment";

/** Arguments of a {@link VolumeAttachment}; each is documented on {@link VolumeAttachmentInputs}. */
export type VolumeAttachmentArgs = ResourceArgs<VolumeAttachmentInputs>;

/** Every argument, seeded so that one a program leaves out is an output too (see `argumentSeeds`). */
const ARGUMENTS = argumentSeeds(VOLUME_ATTACHMENT_ARGUMENTS, ["adoptId"]);

/** A VolumeAttachment this program declared: its scope and the arguments that say where it attaches. */
interface DeclaredAttachment {
  scope: string;
  args: VolumeAttachmentArgs;
}

/**
 * The VolumeAttachments the program has declared so far, in the order it declared them. The class constructors
 * run in the program's order, in the program's process, so this order is the same every run, unlike the order
 * in which the engine calls the provider for resources waiting on one output (provider/volumeAttachment/claims.ts).
 */
const declaredInProgram: DeclaredAttachment[] = [];

/**
 * The `declaredBefore` input of a VolumeAttachment with `args`: those of `earlier` that attach the same volume
 * (its path or full URL) to the same cluster, each with its scope, declared project (null for the configured
 * default, which the provider fills in) and node. Known once the outputs it compares are.
 */
function declaredBeforeOf(
  args: VolumeAttachmentArgs,
  earlier: readonly DeclaredAttachment[],
): pulumi.Input<DeclaredClaimInput[]> {
  if (earlier.length === 0) return [];
  const others = pulumi.all(
    earlier.map(({ args: e }) => pulumi.all([e.kaasId, e.volumeUri, e.projectId, e.nodePoolName, e.nodeId])),
  );
  return pulumi
    .all([args.kaasId, args.volumeUri, others])
    .apply(([kaasId, volumeUri, declared]) =>
      declared.flatMap(([otherKaasId, otherVolumeUri, projectId, nodePoolName, nodeId], i) =>
        otherKaasId === kaasId &&
        typeof otherVolumeUri === "string" &&
        typeof volumeUri === "string" &&
        volumePath(otherVolumeUri) === volumePath(volumeUri)
          ? [{ scope: earlier[i].scope, projectId: projectId ?? null, nodePoolName, nodeId }]
          : [],
      ),
    );
}

/**
 * The outputs of a {@link VolumeAttachment} besides those the class declares itself: every computed value
 * ({@link VolumeAttachmentComputed}) and every argument as declared ({@link VolumeAttachmentInputs}).
 */
// The class's outputs are these members: declared once, with their documentation, in the provider's types.
// The merge adds no member the class must initialise: the engine fills each one in.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface VolumeAttachment
  extends
    ResourceOutputs<VolumeAttachmentComputed>,
    ResourceOutputs<Omit<VolumeAttachmentInputs, "projectId" | "adoptId">> {}

/**
 * A block storage volume attached to one node of a {@link Kaas} cluster. Any change replaces it, detaching
 * first. Deleting it detaches at node level, or at cluster level when the node is gone; a volume already
 * detached deletes as a success. Exceeding the cluster's `maxCumulativeVolumeSize` fails with a message
 * that names the limit.
 *
 * The service's published responses do not show attachments. Where they show none, the attach is taken as
 * made once the service accepted it and the cluster settled (`verification: "none"`), refresh keeps the
 * attachment as declared (it cannot see it, so never drops it; a cluster that is gone drops it), and
 * delete always sends the detach, a 404 meaning already detached. Where the cluster does show attachments,
 * create waits until it shows this one and refresh drops one that is really gone.
 *
 * The service lists no nodes: take `nodeId` from the cluster itself (`kubectl get nodes` with the cluster's
 * `kubeconfig`) and pass it in, for example through stack config.
 *
 * A volume is attached once per cluster. Of the VolumeAttachments of a stack with the same volume and cluster,
 * the first the program declares holds it, every run alike; the create of each later one fails naming it,
 * before any request that changes anything, and the state never records it, so `pulumi up` fails until one of
 * them leaves the program. Removing a later one changes nothing.
 *
 * @example
 * ```ts
 * const config = new pulumi.Config();
 * const data = new VolumeAttachment("data", {
 *   kaasId: cluster.kaasId, nodePoolName: "default",
 *   nodeId: config.require("dataNodeId"), // a node name from `kubectl get nodes`
 *   volumeUri: "/projects/p-1/providers/Vendor.Storage/blockStorages/v-1",
 * });
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- merges the interface above
export class VolumeAttachment extends pulumi.dynamic.Resource {
  /** Project of the cluster: `projectId`, or the configured default. */
  declare readonly projectId: pulumi.Output<string>;

  /**
   * @param name The unique name of the resource in the stack.
   * @param args The attachment's arguments.
   * @param opts Resource options. `customTimeouts` set the deadlines of `timeouts` that the argument leaves
   *   out (a deadline set by both to different durations is refused); `replaceOnChanges` names arguments
   *   whose change replaces the attachment (or `"*"`); `import` is refused, since `adoptId` takes an existing
   *   attachment over. With `id`, the attachment is read, as {@link VolumeAttachment.get} does.
   *   `deleteBeforeReplace` is always set: a volume is attached to one node at a time.
   */
  constructor(name: string, args: VolumeAttachmentArgs, opts?: pulumi.CustomResourceOptions) {
    // Promise-leak traces that only PULUMI_DEBUG_PROMISE_LEAKS reads stay unformatted (see leakTraces.ts).
    const restoreTraces = skipUnreadLeakTraces();
    try {
      const scope = creationScope(pulumi, name);
      super(
        shell,
        name,
        {
          ...ARGUMENTS,
          ...(opts?.id !== undefined
            ? readOnlyProps(scope, { projectId: args?.projectId })
            : {
                ...args,
                ...optionInputs("VolumeAttachment", name, args.timeouts, opts),
                creationScope: scope,
                declaredBefore: declaredBeforeOf(args, declaredInProgram),
              }),
          sizeGb: undefined,
          verification: undefined,
        },
        { ...opts, deleteBeforeReplace: true },
        MODULE,
        "VolumeAttachment",
      );
      if (opts?.id === undefined) declaredInProgram.push({ scope, args });
    } finally {
      restoreTraces();
    }
  }
  /**
   * Reads an existing attachment as a read-only resource of the stack: the stack never detaches it, and each
   * `pulumi up` reads it again. Its outputs are the attachment as the cluster shows it (`kaasId`,
   * `volumeUri`, `nodeId`, `nodePoolName`, `sizeGb`, `verification`). Only a service whose cluster responses
   * show attachments can answer: elsewhere, and for an attachment the cluster does not show, the run fails
   * with an error that says so.
   *
   * @param name The unique name of the resource in the stack.
   * @param id The attachment id, `<kaasId>:<volumeUri>`.
   * @param opts Resource options; the project is `vendor:projectId` (or `VENDOR_PROJECT_ID`).
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): VolumeAttachment {
    return new VolumeAttachment(name, lookupArgs<VolumeAttachmentArgs>({}), { ...opts, id });
  }
}
