/**
 * Type tests of the per-kind registries: each registry's type wants every kind of schemas/kinds.ts, so a
 * kind wired into a layer's registry but missing from another does not compile. Every case builds a registry
 * without one kind (`VolumeAttachment`, or a tagged kind where only those count) and expects the error; should
 * the registry's type stop asking for every kind, the error disappears and `tsc` fails on the
 * `@ts-expect-error` left unused. Checked by `tsc --noEmit -p tsconfig.json` (tests/static/checks.test.ts);
 * nothing here runs.
 */
import type * as Sdk from "../../sdk";
import {
  READ_ENDPOINTS,
  TAGGED_KINDS,
  type KindName,
  type ReadEndpointRegistry,
  type TaggedKindRegistry,
} from "../../schemas/kinds";
import type { ImplementationRegistry } from "../../provider";
import {
  FUNCTIONS,
  RESOURCE_CLASSES,
  type FunctionName,
  type FunctionRegistry,
  type ResourceClassRegistry,
} from "../../sdk/kinds";
import type { PoliciesByKind } from "../../policy/index";
import { PLUGIN_KINDS, type PluginKindRegistry } from "../../plugin/kinds";
import { PLUGIN_FUNCTIONS, type PluginFunctionRegistry } from "../../plugin/functions";
import { EMULATED_AS, type EmulatedAsRegistry } from "../../emulator/kinds";

/** `registry` without `kind`. */
declare function without<R extends object, K extends keyof R>(registry: R, kind: K): Omit<R, K>;

// schemas: the endpoint that reads each kind.
// @ts-expect-error -- a kind missing from READ_ENDPOINTS
export const halfReads: ReadEndpointRegistry = without(READ_ENDPOINTS, "VolumeAttachment");

// provider: the tagged kinds' ids and locators.
// @ts-expect-error -- a tagged kind missing from TAGGED_KINDS
export const halfTagged: TaggedKindRegistry = without(TAGGED_KINDS, "KaasBackup");

// provider: every kind's provider, diff, check and retag.
declare const implementations: ImplementationRegistry;
// @ts-expect-error -- a kind missing from the implementations
export const halfImplementations: ImplementationRegistry = without(implementations, "VolumeAttachment");

// sdk: the classes and the functions.
// @ts-expect-error -- a kind missing from RESOURCE_CLASSES
export const halfClasses: ResourceClassRegistry = without(RESOURCE_CLASSES, "VolumeAttachment");
// @ts-expect-error -- a kind missing from FUNCTIONS
export const halfFunctions: FunctionRegistry = without(FUNCTIONS, "VolumeAttachment");

// sdk: the entry point exports every kind's class and every function (`export *` of each kind's module).
export type EntryExports = Pick<typeof Sdk, KindName | FunctionName>;
declare const _partialEntry: Omit<typeof Sdk, "VolumeAttachment">;
// @ts-expect-error -- an entry point that does not export a kind's class
export type HalfEntry = Pick<typeof _partialEntry, KindName>;

// policy: every kind's rules.
declare const policies: PoliciesByKind;
// @ts-expect-error -- a kind missing from the pack's rules
export const halfPolicies: PoliciesByKind = without(policies, "VolumeAttachment");

// plugin: every kind as the plugin serves it, and every function of the SDK as an invoke.
// @ts-expect-error -- a kind missing from PLUGIN_KINDS
export const halfPluginKinds: PluginKindRegistry = without(PLUGIN_KINDS, "VolumeAttachment");
export const wrongStable: PluginKindRegistry = {
  ...PLUGIN_KINDS,
  Registry: {
    ...PLUGIN_KINDS.Registry,
    // @ts-expect-error -- a stable output the kind does not have
    stable: ["kaasId"],
  },
};
// @ts-expect-error -- a function of the SDK missing from PLUGIN_FUNCTIONS
export const halfPluginFunctions: PluginFunctionRegistry = without(PLUGIN_FUNCTIONS, "listBackups");

// emulator: the emulator's kind that serves each kind.
// @ts-expect-error -- a kind missing from EMULATED_AS
export const halfEmulated: EmulatedAsRegistry = without(EMULATED_AS, "VolumeAttachment");
