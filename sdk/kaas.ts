import * as pulumi from "@pulumi/pulumi";
import {
  KAAS_ARGUMENTS,
  KAAS_COMPUTED_KEYS,
  KAAS_SECRETS,
  type KaasComputed,
  type KaasInputs,
} from "../provider/kaas/types";
import { computedOutputs } from "../provider/kaas/mapping";
import type { KaasResponse } from "../schemas";
import type { Projected } from "../schemas/projection";
import { lookupArgs, TaggedKindResource, type TaggedKindSpec } from "./resource";
import type { ResourceArgs, ResourceOutputs } from "./inputs";
import {
  api,
  listEvery,
  outputOf,
  project,
  type FunctionInputs,
  type FunctionOptions,
  type ListArgs,
  type NotProjecting,
  type Projecting,
} from "./dataSource";
import shell from "./shells/Kaas";

/** Arguments of a {@link Kaas}; each is documented on {@link KaasInputs}. */
export type KaasArgs = ResourceArgs<KaasInputs>;

/** What the class registers (sdk/resource.ts). */
const SPEC: TaggedKindSpec<KaasArgs> = {
  kind: "Kaas",
  shell,
  arguments: KAAS_ARGUMENTS,
  computed: KAAS_COMPUTED_KEYS,
  lookup: (args) => ({ projectId: args?.projectId }),
  // The identity carries a client secret: the input is stored encrypted in state even when the program passed
  // it in plain text.
  overrides: (args) => ({ identity: args.identity === undefined ? undefined : pulumi.secret(args.identity) }),
  secretOutputs: KAAS_SECRETS,
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
export class Kaas extends TaggedKindResource<KaasArgs> {
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
   * @param args The cluster's arguments. Its `timeouts` default to `"40m"` for create and update and `"30m"`
   *   for delete.
   * @param opts Resource options. `kubeconfig` and `identity` are always added to `additionalSecretOutputs`,
   *   and the `identity` input is always stored as a secret. `customTimeouts` set the deadlines of `timeouts`
   *   that the argument leaves out (a deadline set by both to different durations is refused);
   *   `replaceOnChanges` names arguments whose change replaces the cluster (or `"*"`); `import` is refused,
   *   since `adoptId` takes an existing cluster over. With `id`, the cluster is read, as {@link Kaas.get}
   *   does.
   */
  constructor(name: string, args: KaasArgs, opts?: pulumi.CustomResourceOptions) {
    super(SPEC, name, args, opts);
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

// ---- Functions: read clusters (sdk/dataSource.ts) ----

/** Arguments of {@link getKaas} and {@link getKubeconfig}. */
export interface GetKaasArgs {
  /** Identifier of the cluster, e.g. a cluster's `kaasId` output. */
  kaasId: string;
  /** Project of the cluster; default `vendor:projectId` (or `VENDOR_PROJECT_ID`). */
  projectId?: string;
}

/** A cluster as the functions describe it: the computed outputs of {@link Kaas} without the kubeconfig. */
export type KaasInfo = Omit<KaasComputed, "kubeconfig"> & {
  /** Cluster name. */
  name: string | null;
  /** Region of the cluster. */
  location: string | null;
  /** Tags of the cluster. */
  tags: string[];
};

function kaasInfo(response: Parameters<typeof computedOutputs>[0]): KaasInfo {
  const { kubeconfig: _omit, ...computed } = computedOutputs(response, null);
  return {
    ...computed,
    name: response.metadata.name ?? null,
    location: response.metadata.location?.value ?? response.metadata.location?.code ?? null,
    tags: response.metadata.tags ?? [],
  };
}

/** Reads one cluster. Throws when it does not exist. */
export async function getKaas(args: GetKaasArgs, options?: FunctionOptions): Promise<KaasInfo> {
  const { client, settings } = api(options);
  return kaasInfo(
    await client.call("getKaas", { projectId: project(args.projectId, settings), id: args.kaasId }),
  );
}

/**
 * {@link getKaas} for Inputs: reads the cluster once `kaasId` is known, e.g.
 * `getKaasOutput({ kaasId: cluster.kaasId }).currentKubernetesVersion`.
 */
export function getKaasOutput(
  args: FunctionInputs<GetKaasArgs>,
  options?: FunctionOptions,
): pulumi.Output<KaasInfo> {
  return outputOf(args, (plain) => getKaas(plain, options));
}

/**
 * A cluster as a list with a `projection` answers it: the service's object with the fields the projection kept,
 * any of them possibly missing (which ones a projection keeps is not documented).
 */
export type ProjectedKaas = Projected<KaasObject>;

// The wire objects under names of their own: TypeScript resolves the schemas' types (`Static<...>`) to
// anonymous object types, which the API reference would spell out field by field, undocumented. Left out of
// the reference on purpose (typedoc.json `intentionallyNotExported`): they are the service's objects.
/* eslint-disable-next-line @typescript-eslint/no-empty-object-type */
interface KaasObject extends KaasResponse {}

/**
 * Lists clusters across all pages, each as the service projected it. A cluster the client cannot read is left
 * out with a warning naming it.
 */
export function listKaas(args: Projecting<ListArgs>, options?: FunctionOptions): Promise<ProjectedKaas[]>;
/**
 * Lists clusters across all pages. `filter` uses the service grammar, e.g. `metadata.name:eq("prod")`. A
 * cluster the client cannot read (say, a null `metadata.id`) is left out with a warning naming it.
 */
export function listKaas(args?: NotProjecting<ListArgs>, options?: FunctionOptions): Promise<KaasInfo[]>;
/** Lists clusters across all pages: projected ones when `args.projection` is set. */
export function listKaas(args?: ListArgs, options?: FunctionOptions): Promise<KaasInfo[] | ProjectedKaas[]>;
export async function listKaas(
  args: ListArgs = {},
  options?: FunctionOptions,
): Promise<KaasInfo[] | ProjectedKaas[]> {
  return listEvery("listKaas", args, options, {}, kaasInfo);
}

/** {@link listKaas} for Inputs, with a projection. */
export function listKaasOutput(
  args: Projecting<FunctionInputs<ListArgs>>,
  options?: FunctionOptions,
): pulumi.Output<ProjectedKaas[]>;
/** {@link listKaas} for Inputs. */
export function listKaasOutput(
  args?: NotProjecting<FunctionInputs<ListArgs>>,
  options?: FunctionOptions,
): pulumi.Output<KaasInfo[]>;
/** {@link listKaas} for Inputs: projected clusters when `args.projection` is set. */
export function listKaasOutput(
  args?: FunctionInputs<ListArgs>,
  options?: FunctionOptions,
): pulumi.Output<KaasInfo[] | ProjectedKaas[]>;
export function listKaasOutput(
  args: FunctionInputs<ListArgs> = {},
  options?: FunctionOptions,
): pulumi.Output<KaasInfo[] | ProjectedKaas[]> {
  return outputOf(args, (plain) => listKaas(plain, options));
}

/**
 * Downloads a cluster's kubeconfig. Wrap the result in `pulumi.secret(...)` before exporting it: a plain
 * function's result is not secret by itself. {@link getKubeconfigOutput} returns it as a secret.
 */
export async function getKubeconfig(args: GetKaasArgs, options?: FunctionOptions): Promise<string> {
  const { client, settings } = api(options);
  return client.downloadKubeconfig(project(args.projectId, settings), args.kaasId);
}

/** {@link getKubeconfig} for Inputs. The result is always a secret. */
export function getKubeconfigOutput(
  args: FunctionInputs<GetKaasArgs>,
  options?: FunctionOptions,
): pulumi.Output<string> {
  return pulumi.secret(outputOf(args, (plain) => getKubeconfig(plain, options)));
}
