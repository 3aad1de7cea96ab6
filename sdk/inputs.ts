/** Type helpers that turn the plain argument shapes of `provider/` into Pulumi input types. */
import type * as pulumi from "@pulumi/pulumi";
import { fromEntriesOf } from "../schemas/typed";

/** `T` with every level accepting `pulumi.Input`. */
export type DeepInput<T> = T extends (infer U)[]
  ? pulumi.Input<DeepInput<U>>[]
  : T extends object
    ? { [K in keyof T]: pulumi.Input<DeepInput<T[K]>> }
    : T;

/** Arguments of a resource: each property a `pulumi.Input`, documentation carried over from `T`. */
export type ResourceArgs<T> = { [K in keyof T]: pulumi.Input<DeepInput<T[K]>> };

/**
 * Outputs of a resource: each property of `T` an `Output` of its type, `undefined` included where `T` makes
 * it optional, documentation carried over from `T`. A class merges them into its instances through an
 * interface of its own name, so its outputs are declared and documented once, in `provider/<kind>/types.ts`.
 */
export type ResourceOutputs<T> = {
  readonly [K in keyof T]-?: pulumi.Output<object extends Pick<T, K> ? T[K] | undefined : T[K]>;
};

/**
 * The argument names of a class, each `undefined`, for its props, the ones in `leftOut` (adoption) aside: an
 * argument a program leaves out is then an output too (resolving to undefined), like one it sets, so every
 * argument can be read back. Pulumi sends no property whose value is undefined, so the provider
 * receives the same inputs. Read from the kind's argument schema, so every argument is seeded.
 */
export function argumentSeeds<S extends object, L extends Extract<keyof S, string> = never>(
  schema: S,
  leftOut: readonly L[] = [],
): Record<Exclude<Extract<keyof S, string>, L>, undefined> {
  const skipped = new Set<string>(leftOut);
  return seeds(
    Object.keys(schema).filter((name): name is Exclude<Extract<keyof S, string>, L> => !skipped.has(name)),
  );
}

/** Each of `names`, `undefined`: props the engine fills in. */
function seeds<K extends string>(names: readonly K[]): Record<K, undefined> {
  // The keys are exactly `names`.
  return fromEntriesOf<Record<K, undefined>>(names.map((name) => [name, undefined]));
}

/** The logical identity of a resource: `<project>/<stack>/<name>`, which seeds its creation token. */
export function creationScope(pulumiModule: typeof pulumi, name: string): string {
  return `${pulumiModule.getProject()}/${pulumiModule.getStack()}/${name}`;
}

/**
 * The id output of a class (`kaasId`, `backupId`, `registryId`): the resource's own `id`. Not an output the
 * engine fills in, because in the preview of an update the engine echoes a dynamic resource's inputs as its
 * outputs, so an output-only value would be unknown there, and every resource that takes it as an input (a
 * backup's `kaasId`) would show a change that `up` then does not make. The id is known in that preview.
 */
export function idOutput(resource: pulumi.CustomResource): pulumi.Output<string> {
  return resource.id;
}

/**
 * The output-only names of a class, each `undefined`, for its props: the engine then fills them in, and a
 * preview shows them unknown. `id` (the class's id output, see `idOutput`) is left out.
 */
export function outputSeeds<K extends string, Id extends K>(
  names: readonly K[],
  id: Id,
): Record<Exclude<K, Id>, undefined> {
  return seeds(names.filter((name): name is Exclude<K, Id> => name !== id));
}
