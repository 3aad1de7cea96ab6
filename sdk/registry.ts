import * as pulumi from "@pulumi/pulumi";
import {
  REGISTRY_ARGUMENTS,
  REGISTRY_COMPUTED_KEYS,
  type RegistryComputed,
  type RegistryInputs,
} from "../provider/registry/types";
import { registryComputed } from "../provider/registry/mapping";
import type { RegistryResponse } from "../schemas";
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
import shell from "./shells/Registry";

/** Arguments of a {@link Registry}; each is documented on {@link RegistryInputs}. */
export type RegistryArgs = ResourceArgs<RegistryInputs>;

/** What the class registers (sdk/resource.ts). */
const SPEC: TaggedKindSpec<RegistryArgs> = {
  kind: "Registry",
  shell,
  arguments: REGISTRY_ARGUMENTS,
  computed: REGISTRY_COMPUTED_KEYS,
  lookup: (args) => ({ projectId: args?.projectId }),
};

/**
 * The outputs of a {@link Registry} besides those the class declares itself: every computed value
 * ({@link RegistryComputed}) and every argument as declared ({@link RegistryInputs}).
 */
// The class's outputs are these members: declared once, with their documentation, in the provider's types.
// The merge adds no member the class must initialise: the engine fills each one in.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Registry
  extends
    ResourceOutputs<Omit<RegistryComputed, "registryId">>,
    ResourceOutputs<Omit<RegistryInputs, "projectId" | "adoptId" | "adoptFromScope">> {}

/**
 * A container registry with an administrator account. `billingPeriod`, `publicIpUri`, `name` and `tags`
 * update in place; the rest replaces. Change `adminPasswordResetTrigger` (any string, e.g. a date) to reset
 * the administrator password.
 *
 * @example
 * ```ts
 * const registry = new Registry("images", {
 *   name: "images", location: "ITBG-Bergamo", adminUsername: "ops", size: "Small",
 *   adminPasswordResetTrigger: "2026-11",
 * });
 * export const registryUrl = registry.publicBaseUrl;
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- merges the interface above
export class Registry extends TaggedKindResource<RegistryArgs> {
  /** Identifier of the registry in the service. */
  declare readonly registryId: pulumi.Output<string>;

  /** Project of the registry: `projectId`, or the configured default. */
  declare readonly projectId: pulumi.Output<string>;

  /**
   * @param name The unique name of the resource in the stack.
   * @param args The registry's arguments. Its `timeouts` default to `"60m"` for create (real registries take
   *   20-40 minutes to provision) and `"30m"` for update and delete.
   * @param opts Resource options. `customTimeouts` set the deadlines of `timeouts` that the argument leaves
   *   out (a deadline set by both to different durations is refused); `replaceOnChanges` names arguments
   *   whose change replaces the registry (or `"*"`); `import` is refused, since `adoptId` takes an existing
   *   registry over. With `id`, the registry is read, as {@link Registry.get} does.
   */
  constructor(name: string, args: RegistryArgs, opts?: pulumi.CustomResourceOptions) {
    super(SPEC, name, args, opts);
  }
  /**
   * Reads an existing registry as a read-only resource of the stack: the stack never updates or deletes it,
   * and each `pulumi up` reads it again. Its outputs are the registry as the service shows it: `name`,
   * `location`, `tags` and every computed output (`publicBaseUrl`, `currentSize`, ...); the other arguments
   * are undefined. A registry that does not exist fails the run with an error naming the id.
   *
   * @param name The unique name of the resource in the stack.
   * @param id The registry id (`registryId` of the stack that manages it).
   * @param opts Resource options; the project is `vendor:projectId` (or `VENDOR_PROJECT_ID`).
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Registry {
    return new Registry(name, lookupArgs<RegistryArgs>({}), { ...opts, id });
  }
}

// ---- Functions: read registries (sdk/dataSource.ts) ----

/** Arguments of {@link getRegistry}. */
export interface GetRegistryArgs {
  /** Identifier of the registry, e.g. a registry's `registryId` output. */
  registryId: string;
  /** Project of the registry; default `vendor:projectId` (or `VENDOR_PROJECT_ID`). */
  projectId?: string;
}

/** Arguments of {@link listRegistries}. */
export interface ListRegistriesArgs extends ListArgs {
  /** Whether to read each registry's engine version (one more request per registry); default false. */
  loadEngineVersion?: boolean;
}

/** A registry as the functions describe it. */
export type RegistryInfo = RegistryComputed & {
  /** Registry name. */
  name: string | null;
  /** User name of the registry's administrator. */
  adminUsername: string | null;
};

function registryInfo(response: Parameters<typeof registryComputed>[0]): RegistryInfo {
  return {
    ...registryComputed(response, null),
    name: response.metadata.name ?? null,
    adminUsername: response.properties.adminUser?.username ?? null,
  };
}

/** Reads one registry. Throws when it does not exist. `engineVersion` is null: use `listRegistries` for it. */
export async function getRegistry(args: GetRegistryArgs, options?: FunctionOptions): Promise<RegistryInfo> {
  const { client, settings } = api(options);
  return registryInfo(
    await client.call("getRegistry", { projectId: project(args.projectId, settings), id: args.registryId }),
  );
}

/** {@link getRegistry} for Inputs, e.g. `getRegistryOutput({ registryId: registry.registryId })`. */
export function getRegistryOutput(
  args: FunctionInputs<GetRegistryArgs>,
  options?: FunctionOptions,
): pulumi.Output<RegistryInfo> {
  return outputOf(args, (plain) => getRegistry(plain, options));
}

/** A registry as a list with a `projection` answers it (see {@link ProjectedKaas}). */
export type ProjectedRegistry = Projected<RegistryObject>;

// The wire object under a name of its own, left out of the reference on purpose (see `KaasObject` in
// sdk/kaas.ts).
/* eslint-disable-next-line @typescript-eslint/no-empty-object-type */
interface RegistryObject extends RegistryResponse {}

/**
 * Lists registries across all pages, each as the service projected it. A registry the client cannot read is
 * left out with a warning naming it.
 */
export function listRegistries(
  args: Projecting<ListRegistriesArgs>,
  options?: FunctionOptions,
): Promise<ProjectedRegistry[]>;
/**
 * Lists registries across all pages; with `loadEngineVersion`, each carries its engine version. A registry
 * the client cannot read is left out with a warning naming it.
 */
export function listRegistries(
  args?: NotProjecting<ListRegistriesArgs>,
  options?: FunctionOptions,
): Promise<RegistryInfo[]>;
/** Lists registries across all pages: projected ones when `args.projection` is set. */
export function listRegistries(
  args?: ListRegistriesArgs,
  options?: FunctionOptions,
): Promise<RegistryInfo[] | ProjectedRegistry[]>;
export async function listRegistries(
  args: ListRegistriesArgs = {},
  options?: FunctionOptions,
): Promise<RegistryInfo[] | ProjectedRegistry[]> {
  return listEvery("listRegistries", args, options, {}, registryInfo);
}

/** {@link listRegistries} for Inputs, with a projection. */
export function listRegistriesOutput(
  args: Projecting<FunctionInputs<ListRegistriesArgs>>,
  options?: FunctionOptions,
): pulumi.Output<ProjectedRegistry[]>;
/** {@link listRegistries} for Inputs. */
export function listRegistriesOutput(
  args?: NotProjecting<FunctionInputs<ListRegistriesArgs>>,
  options?: FunctionOptions,
): pulumi.Output<RegistryInfo[]>;
/** {@link listRegistries} for Inputs: projected registries when `args.projection` is set. */
export function listRegistriesOutput(
  args?: FunctionInputs<ListRegistriesArgs>,
  options?: FunctionOptions,
): pulumi.Output<RegistryInfo[] | ProjectedRegistry[]>;
export function listRegistriesOutput(
  args: FunctionInputs<ListRegistriesArgs> = {},
  options?: FunctionOptions,
): pulumi.Output<RegistryInfo[] | ProjectedRegistry[]> {
  return outputOf(args, (plain) => listRegistries(plain, options));
}
