/**
 * The registration every class of a tagged kind (`Kaas`, `KaasBackup`, `Registry`) makes: the props its
 * provider receives, for a managed resource or a read-only one (`get`), and the bookkeeping around it (the
 * promise-leak traces, what the stack's state tracks, the release of the creation tag). Each class extends
 * {@link TaggedKindResource}, whose constructor makes it, and keeps its own constructor, with its
 * documentation, that hands its {@link TaggedKindSpec} to `super`.
 */
import * as pulumi from "@pulumi/pulumi";
import { MODULE } from "../provider/kinds";
import { TAGGED_KINDS, type TaggedKind } from "../schemas/kinds";
import type { ProviderShell } from "./shell";
import { argumentSeeds, creationScope, idOutput, outputSeeds } from "./inputs";
import { skipUnreadLeakTraces } from "./leakTraces";
import { optionInputs, readOnlyProps } from "./options";
import { releaseWhenRecorded, trackedIdInput } from "./persisted";

/** What differs between the classes of tagged kinds. */
export interface TaggedKindSpec<A> {
  kind: TaggedKind;
  /** The kind's serialized provider (`sdk/shells/<Kind>.ts`). */
  shell: ProviderShell;
  /** The kind's argument schema (`provider/<kind>/types.ts`): every argument, seeded (see `argumentSeeds`). */
  arguments: Readonly<Record<string, unknown>>;
  /** The names of the kind's computed outputs: every one but the id, seeded (see `outputSeeds`). */
  computed: readonly string[];
  /** The arguments a read-only resource (`get`) sends: those that locate the object. */
  lookup: (args: A | undefined) => Record<string, pulumi.Input<string | undefined>>;
  /** Inputs that replace the program's for a managed resource (a secret wrapped around an input). */
  overrides?: (args: A) => Record<string, unknown>;
  /** Outputs always added to `additionalSecretOutputs`. */
  secretOutputs?: readonly string[];
}

/** The arguments of `pulumi.dynamic.Resource`'s constructor. */
type DynamicResourceArgs = [
  provider: pulumi.dynamic.ResourceProvider,
  name: string,
  props: pulumi.Inputs,
  opts: pulumi.CustomResourceOptions | undefined,
  module: string,
  type: string,
];

/** The seeds of each kind, made once: a program may declare hundreds of resources of a kind. */
const SEEDS = new Map<
  TaggedKind,
  { seededArguments: Record<string, undefined>; seededComputed: Record<string, undefined> }
>();

/**
 * Every argument and computed output of the kind of `spec`, set to `undefined`: seeded so that an argument a
 * program leaves out is an output too, and so that the engine fills in each computed output. The adoption
 * arguments are no outputs of the classes; the id output is the resource's own id (`idOutput`).
 */
function seedsOf(spec: Pick<TaggedKindSpec<unknown>, "kind" | "arguments" | "computed">) {
  let seeds = SEEDS.get(spec.kind);
  if (seeds === undefined) {
    seeds = {
      seededArguments: argumentSeeds(spec.arguments, ["adoptId", "adoptFromScope"]),
      seededComputed: outputSeeds(spec.computed, TAGGED_KINDS[spec.kind].id),
    };
    SEEDS.set(spec.kind, seeds);
  }
  return seeds;
}

/** A registration begun by {@link beginRegistration}. */
interface Registration {
  /** What the class hands `super`. */
  superArgs: DynamicResourceArgs;
  /** Called once `super` returned or threw: formats promise-leak traces again. */
  end: () => void;
  /** Called with the registered resource: releases its creation tag once the engine recorded its id. */
  recorded: (resource: pulumi.CustomResource) => void;
}

/**
 * Prepares the registration of a resource of `spec.kind` named `name`: a read-only one (`get`) when `opts.id`
 * is set, else a managed one. Promise-leak traces that only PULUMI_DEBUG_PROMISE_LEAKS reads stay unformatted
 * until `end` (see leakTraces.ts).
 */
function beginRegistration<A extends { timeouts?: unknown }>(
  spec: TaggedKindSpec<A>,
  name: string,
  args: A,
  opts: pulumi.CustomResourceOptions | undefined,
): Registration {
  const end = skipUnreadLeakTraces();
  try {
    // What the stack's state tracks for this resource (sdk/persisted.ts); unset for `get`, which creates nothing.
    const tracked = opts?.id === undefined ? trackedIdInput(spec.kind, name, opts) : undefined;
    const scope = creationScope(pulumi, name);
    const { seededArguments, seededComputed } = seedsOf(spec);
    const props =
      opts?.id !== undefined
        ? { ...seededArguments, ...readOnlyProps(scope, spec.lookup(args)), ...seededComputed }
        : {
            ...seededArguments,
            ...args,
            ...optionInputs(spec.kind, name, args.timeouts, opts),
            ...spec.overrides?.(args),
            creationScope: scope,
            trackedId: tracked,
            ...seededComputed,
          };
    const options =
      spec.secretOutputs === undefined
        ? opts
        : {
            ...opts,
            additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...spec.secretOutputs],
          };
    return {
      superArgs: [spec.shell, name, props, options, MODULE, spec.kind],
      end,
      recorded: (resource) => releaseWhenRecorded(resource, spec.kind, name, tracked),
    };
  } catch (error) {
    end();
    throw error;
  }
}

/**
 * The class of every tagged kind (`Kaas`, `KaasBackup`, `Registry`): its constructor registers the resource
 * as {@link beginRegistration} prepares it, sets the id output (`kaasId`, `backupId`, `registryId`: see
 * `TAGGED_KINDS` and `idOutput`) and releases the creation tag once the engine recorded the id. Not part of
 * the package's entry point: each subclass declares and documents its own constructor, outputs and `get`.
 */
export abstract class TaggedKindResource<A extends { timeouts?: unknown }> extends pulumi.dynamic.Resource {
  /**
   * @param spec What the subclass registers.
   * @param name The unique name of the resource in the stack.
   * @param args The resource's arguments.
   * @param opts Resource options; with `id`, a read-only resource.
   */
  protected constructor(
    spec: TaggedKindSpec<A>,
    name: string,
    args: A,
    opts: pulumi.CustomResourceOptions | undefined,
  ) {
    const registration = beginRegistration(spec, name, args, opts);
    try {
      super(...registration.superArgs);
    } finally {
      registration.end();
    }
    // Set before `recorded`, which reads the outputs that locate the object (a cluster's `kaasId` among them).
    // The subclass declares the member, with its documentation; `TAGGED_KINDS` names it.
    Reflect.set(this, TAGGED_KINDS[spec.kind].id, idOutput(this));
    registration.recorded(this);
  }
}

/**
 * The arguments of a class's `get`: only those that locate the object. With `opts.id` the constructor reads
 * nothing else of its arguments (the `lookup` of its {@link TaggedKindSpec}), so the other required ones may
 * be absent.
 */
export function lookupArgs<A>(lookup: object): A {
  // The constructor's signature asks for every required argument; a `get` sends only the lookup (see above).
  return lookup as A;
}
