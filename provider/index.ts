/**
 * The implementation entry point, loaded lazily by the serialized shells through the stable package
 * subpath `pulumi-vendor-container/provider`. Old shells stored in state keep calling `configure` and
 * `provider(kind)` forever (dynamic-provider notes: delete and refresh run the provider code stored in
 * state), so these two functions and the on-state shape of each kind stay backward compatible.
 */
import { configure as storeConfig, type ConfigSource } from "./common/context";
import { readableFailures } from "./common/engineFailures";
import { quietFailures } from "./common/quiet";
import type { Inputs } from "./common/check";
import type { KindProvider } from "./common/kindProvider";
import type { VendorContainerClient } from "../rest/client";
import { checkedInputsOf, type CheckContext, type CheckResult } from "./common/arguments";
import type { KindDescriptor, KindInputs } from "./common/describedProvider";
import type { ServiceObject } from "./common/lifecycle";
import { retag, type RetagOutcome } from "./common/ownership";
import { KAAS_BACKUP, KaasBackupProvider } from "./kaasBackup/descriptor";
import { KAAS_BACKUP_PROPERTIES, type KaasBackupComputed } from "./kaasBackup/types";
import { KAAS, KaasProvider } from "./kaas/descriptor";
import { KAAS_PROPERTIES, type KaasComputed } from "./kaas/types";
import { REGISTRY, RegistryProvider } from "./registry/descriptor";
import { REGISTRY_PROPERTIES, type RegistryComputed } from "./registry/types";
import type { KindName, TaggedKind } from "../schemas/kinds";
import { fromEntriesOf, keysOf } from "../schemas/typed";
import { VolumeAttachmentProvider } from "./volumeAttachment/provider";
import { diffVolumeAttachment } from "./volumeAttachment/diff";
import { VOLUME_ATTACHMENT_PROPERTIES, type VolumeAttachmentComputed } from "./volumeAttachment/types";
import { checkKind, diffKind } from "./common/describedProvider";
import { checkVolumeAttachment } from "./volumeAttachment/check";
import type { DiffResult } from "./common/diff";
import type { ArgumentSchema } from "./common/arguments";
import type { KindProperties } from "./common/properties";

/**
 * What the engine gets of `kind`'s provider: its deliberate failures reach the CLI without a stack trace
 * (common/quiet.ts), and its check failures in the form the CLI prints well (common/engineFailures.ts).
 */
const forEngine = (kind: KindProvider): KindProvider => quietFailures(readableFailures(kind));

/** `retag` for one described kind, with `state` (outputs or inputs) read as its checked inputs. */
const retagAs =
  <R extends ServiceObject, C extends KindInputs>(descriptor: KindDescriptor<R, C>): Retag =>
  (api, state, id, options) =>
    retag(descriptor, api, checkedInputsOf<C>(state, descriptor.computed), id, options);

/** `retagObject` of one tagged kind. */
type Retag = (
  api: VendorContainerClient,
  state: Inputs,
  id: string,
  options: Parameters<typeof retag>[4],
) => Promise<RetagOutcome>;

/**
 * The computed outputs of each kind, as types: the plugin's package schema states each resource's outputs from
 * these (plugin/kinds.ts `PluginOutputs`), and `properties.computed` lists their names at run time.
 */
export type ComputedOutputs = {
  Kaas: KaasComputed;
  KaasBackup: KaasBackupComputed;
  Registry: RegistryComputed;
  VolumeAttachment: VolumeAttachmentComputed;
};

/** What the implementation holds of one kind. */
export interface KindImplementation<K extends KindName> {
  /** What the kind's resources are made of (its `types.ts`): arguments, computed outputs, secrets. */
  properties: KindProperties<ArgumentSchema, ComputedOutputs[K]>;
  /** The kind's provider, as the engine gets it (`forEngine`). */
  provider: KindProvider;
  /** The pure `diff` the provider's `diff` answers from, with the arguments that changed. */
  diff: (olds: Inputs, news: Inputs) => DiffResult;
  /** The pure `check` the provider's `check` answers, given the context it reads. */
  check: (olds: Inputs, news: Inputs, context: CheckContext) => CheckResult<Inputs>;
  /** How an object of a tagged kind takes the tags of a tracked object; null for an untagged kind. */
  retag: K extends TaggedKind ? Retag : null;
}

/** The registry of the implementation: an entry for every kind of schemas/kinds.ts. */
export type ImplementationRegistry = { readonly [K in KindName]: KindImplementation<K> };

/** The implementation of a kind its descriptor describes (common/describedProvider.ts), with its properties. */
const described = <P, R extends ServiceObject, C extends KindInputs>(
  properties: P,
  kindProvider: KindProvider,
  descriptor: KindDescriptor<R, C>,
): Omit<KindImplementation<TaggedKind>, "properties"> & { properties: P } => ({
  properties,
  provider: forEngine(kindProvider),
  diff: (olds, news) => diffKind(descriptor, olds, news),
  check: (olds, news, context) => checkKind(descriptor, olds, news, context),
  retag: retagAs(descriptor),
});

/** Every kind's implementation. */
const IMPLEMENTATIONS = {
  Kaas: described(KAAS_PROPERTIES, new KaasProvider(), KAAS),
  KaasBackup: described(KAAS_BACKUP_PROPERTIES, new KaasBackupProvider(), KAAS_BACKUP),
  Registry: described(REGISTRY_PROPERTIES, new RegistryProvider(), REGISTRY),
  VolumeAttachment: {
    properties: VOLUME_ATTACHMENT_PROPERTIES,
    provider: forEngine(new VolumeAttachmentProvider()),
    diff: diffVolumeAttachment,
    check: checkVolumeAttachment,
    retag: null,
  },
} satisfies ImplementationRegistry;

export type { KindName, KindProvider };

/** What the resources of each kind are made of (each kind's `types.ts`), by kind, each with its own types. */
export type PropertiesByKind = { readonly [K in KindName]: (typeof IMPLEMENTATIONS)[K]["properties"] };

/** Every kind's properties: what the provider plugin serves of each kind (plugin/kinds.ts). */
export const KIND_PROPERTIES = fromEntriesOf<PropertiesByKind>(
  keysOf(IMPLEMENTATIONS).map((kind) => [kind, IMPLEMENTATIONS[kind].properties]),
);

/**
 * The arguments of a `kind` resource that changed from `olds` (the state) to `news` (the checked inputs)
 * (`updates`) and those of them that replace it (`replaces`): the kind's own pure diff, of which
 * `provider(kind).diff` answers the engine `changes` and `replaces`. The provider plugin reads the property
 * paths of its answer from it (common/propertyDiff.ts). Throws as that diff does for a change the kind refuses.
 */
export function changedArguments(kind: KindName, olds: Inputs, news: Inputs): DiffResult {
  return IMPLEMENTATIONS[kind].diff(olds, news);
}

/**
 * `check` of a `kind` resource with an explicit context instead of the configured one: every problem of `news`
 * (the program's inputs) against `olds` (the state, `{}` on create). The resource reference pages show what it
 * refuses (scripts/resource-docs.mjs).
 */
export function checkedArgumentsOf(
  kind: KindName,
  olds: Inputs,
  news: Inputs,
  context: CheckContext,
): CheckResult<Inputs> {
  return IMPLEMENTATIONS[kind].check(olds, news, context);
}

/** The provider of `kind`. */
export function provider(kind: string): KindProvider {
  // Any string reaches here (a shell stored by a later version names a kind this one lacks).
  const table: Readonly<Record<string, { provider: KindProvider }>> = IMPLEMENTATIONS;
  const found = Object.hasOwn(table, kind) ? table[kind].provider : undefined;
  if (!found)
    throw new Error(`pulumi-vendor-container: unknown resource kind "${kind}"; upgrade the package`);
  return found;
}

/** Stores the stack configuration (`vendor:*`); synchronous so no RPC sees an unconfigured provider. */
export function configure(config: ConfigSource | undefined): void {
  storeConfig(config);
}

/**
 * Gives the object `id` of a tagged kind the tags of a tracked object (common/ownership.ts `retag`): its owner
 * tag `options.owner`, no creation tag. `state` locates it: the resource's outputs.
 */
export function retagObject(
  kind: TaggedKind,
  api: VendorContainerClient,
  state: Inputs,
  id: string,
  options: Parameters<typeof retag>[4],
): Promise<RetagOutcome> {
  return IMPLEMENTATIONS[kind].retag(api, state, id, options);
}

export type { RetagOutcome };
export { KaasProvider, KaasBackupProvider, RegistryProvider, VolumeAttachmentProvider };
