import * as pulumi from "@pulumi/pulumi";
import {
  KAAS_ARGUMENTS,
  KAAS_COMPUTED_KEYS,
  type KaasComputed,
  type KaasInputs,
} from "../provider/kaas/types";
import { beginRegistration, lookupArgs, type TaggedKindSpec } from "./resource";
import { argumentSeeds, idOutput, outputSeeds, type ResourceArgs, type ResourceOutputs } from "./inputs";
import shell from "./shells/Kaas";

export type {
  KaasComputed,
  KaasInputs,
  NodePoolArgs,
  NodePoolStatus,
  PendingUpgrade,
  Timeouts,
} from "../provider/kaas/types";

/** Arguments of a {@link Kaas}; each is documented on {@link KaasInputs}. */
export type KaasArgs = ResourceArgs<KaasInputs>;

/** Output-only names, seeded so the engine fills them in; `kaasId` is the resource id (see `idOutput`). */
const COMPUTED = outputSeeds(KAAS_COMPUTED_KEYS, "kaasId");

/** Every argument, seeded so that one a program leaves out is an output too (see `argumentSeeds`). */
const ARGUMENTS = argumentSeeds(KAAS_ARGUMENTS, ["adoptId", "adoptFromScope"]);

/** What the class registers (sdk/resource.ts). */
const SPEC: TaggedKindSpec<KaasArgs> = {
  kind: "Kaas",
  shell,
  seededArguments: ARGUMENTS,
  seededComputed: COMPUTED,
  lookup: (args) => ({ projectId: args?.projectId }),
  // The identity carries a client secret: the input is stored encrypted in state even when the program passed
  // it in plain text.
  overrides: (args) => ({ identity: args.identity === undefined ? undefined : pulumi.secret(args.identity) }),
  secretOutputs: ["kubeconfig", "identity"],
};

/**
 * The outputs of a {@link Kaas} besides those the class declares itself: every computed value
 * ({@link KaasComputed}) and every argument as declared ({@link KaasInputs}).
 */
// The class's outputs are these members: declared once, with their documentation, in the provider's types.
// The merge adds no member the class must initialise: the engine fills each one in.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Kaas
  extends
    ResourceOutputs<Omit<KaasComputed, "kaasId" | "kubeconfig">>,
    ResourceOutputs<Omit<KaasInputs, "projectId" | "adoptId" | "adoptFromScope">> {}

/**
 * A managed Kubernetes cluster of the Vendor.Container service, with node pools, optional high availability,
 * scheduled version upgrades and its kubeconfig.
 *
 * Safe for production clusters: changing a create-only argument replaces the cluster (shown as such by
 * preview), disabling HA and downgrading are refused at preview, creation is idempotent across interrupted
 * runs, and a cluster that fails to become ready stays in the stack with its id.
 *
 * @example
 * ```ts
 * const cluster = new Kaas("prod", {
 *   name: "prod", location: "ITBG-Bergamo", kubernetesVersion: "1.33.2",
 *   nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
 *   nodePools: [{ name: "default", nodes: 3, instance: "K4A8", dataCenter: "ITBG-1" }],
 * });
 * export const kubeconfig = cluster.kubeconfig;
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- merges the interface above
export class Kaas extends pulumi.dynamic.Resource {
  /** Identifier of the cluster in the service. */
  declare readonly kaasId: pulumi.Output<string>;

  /**
   * The cluster's kubeconfig, always secret: a string once the cluster has been Active, e.g. for
   * `new k8s.Provider("k8s", { kubeconfig: cluster.kubeconfig })`. Every create and update that succeeds waits
   * for Active and reads it (they fail when it cannot be read, and keep the last one read when only a new
   * read fails). Before the cluster was first Active (its creation failed and it has not been resumed), the
   * state holds null instead.
   */
  declare readonly kubeconfig: pulumi.Output<string>;

  /** Project of the cluster: `projectId`, or the configured default. */
  declare readonly projectId: pulumi.Output<string>;

  /**
   * @param name The unique name of the resource in the stack.
   * @param args The cluster's arguments.
   * @param opts Resource options. `kubeconfig` and `identity` are always added to `additionalSecretOutputs`,
   *   and the `identity` input is always stored as a secret. `customTimeouts` set the deadlines of `timeouts`
   *   that the argument leaves out (a deadline set by both to different durations is refused);
   *   `replaceOnChanges` names arguments whose change replaces the cluster (or `"*"`); `import` is refused,
   *   since `adoptId` takes an existing cluster over. With `id`, the cluster is read, as {@link Kaas.get}
   *   does.
   */
  constructor(name: string, args: KaasArgs, opts?: pulumi.CustomResourceOptions) {
    const registration = beginRegistration(SPEC, name, args, opts);
    try {
      super(...registration.superArgs);
    } finally {
      registration.end();
    }
    this.kaasId = idOutput(this);
    registration.recorded(this);
  }
  /**
   * Reads an existing cluster as a read-only resource of the stack: the stack never updates or deletes it,
   * and each `pulumi up` reads it again. Its outputs are the cluster as the service shows it: `name`,
   * `location`, `tags`, every computed output (`state`, `currentKubernetesVersion`, `currentNodePools`, ...)
   * and `kubeconfig`, a secret; the other arguments are undefined. A cluster that does not exist fails the
   * run with an error naming the id.
   *
   * @param name The unique name of the resource in the stack.
   * @param id The cluster id (`kaasId` of the stack that manages it).
   * @param opts Resource options; the project is `vendor:projectId` (or `VENDOR_PROJECT_ID`).
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Kaas {
    return new Kaas(name, lookupArgs<KaasArgs>({}), { ...opts, id });
  }
}
