/**
 * The registration every class of a tagged kind (`Kaas`, `KaasBackup`, `Registry`) makes: the props its
 * provider receives, for a managed resource or a read-only one (`get`), and the bookkeeping around it (the
 * promise-leak traces, what the stack's state tracks, the release of the creation tag). A class keeps its own
 * constructor, with its documentation, and hands `super` what {@link beginRegistration} prepared.
 */
import * as pulumi from "@pulumi/pulumi";
import { MODULE, type TaggedKind } from "../provider/kinds";
import type { ProviderShell } from "./shell";
import { creationScope } from "./inputs";
import { skipUnreadLeakTraces } from "./leakTraces";
import { optionInputs, readOnlyProps } from "./options";
import { releaseWhenRecorded, trackedIdInput } from "./persisted";

/** What differs between the classes of tagged kinds. */
export interface TaggedKindSpec<A> {
  kind: TaggedKind;
  /** The kind's serialized provider (`sdk/shells/<Kind>.ts`). */
  shell: ProviderShell;
  /** Every argument, seeded (`argumentSeeds`). */
  seededArguments: Record<string, undefined>;
  /** Every output-only name but the id, seeded (`outputSeeds`). */
  seededComputed: Record<string, undefined>;
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

/** A registration begun by {@link beginRegistration}. */
export interface Registration {
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
export function beginRegistration<A extends { timeouts?: unknown }>(
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
    const props =
      opts?.id !== undefined
        ? { ...spec.seededArguments, ...readOnlyProps(scope, spec.lookup(args)), ...spec.seededComputed }
        : {
            ...spec.seededArguments,
            ...args,
            ...optionInputs(spec.kind, name, args.timeouts, opts),
            ...spec.overrides?.(args),
            creationScope: scope,
            trackedId: tracked,
            ...spec.seededComputed,
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
 * The arguments of a class's `get`: only those that locate the object. With `opts.id` the constructor reads
 * nothing else of its arguments (the `lookup` of its {@link TaggedKindSpec}), so the other required ones may
 * be absent.
 */
export function lookupArgs<A>(lookup: object): A {
  // The constructor's signature asks for every required argument; a `get` sends only the lookup (see above).
  return lookup as A;
}
