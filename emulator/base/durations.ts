/**
 * How the durations of the asynchronous lifecycle are declared: each kind module names its own (`kinds/<kind>/`)
 * with a default and the command-line option that sets it, and the emulator's `Durations`, their defaults and
 * the command line's `--create-ms`, `--update-ms` and `--delete-ms` are derived from the list of kinds
 * (`kinds/index.ts`, `composition/config.ts`). The durations that are no kind's own are declared here.
 */
import { fromEntriesOf } from "../../schemas/typed";

/** The phase of an operation whose duration a command-line option sets for every kind at once (`--create-ms`). */
export type DurationPhase = "create" | "update" | "delete";

/** Every phase, in the order of the command line's options. */
export const DURATION_PHASES: readonly DurationPhase[] = ["create", "update", "delete"];

/** One duration as a kind declares it. */
export interface DurationSpec {
  /** The default, in milliseconds of the emulator clock. */
  readonly defaultMs: number;
  /** The phase whose command-line option sets it; none for a duration only the options set. */
  readonly phase?: DurationPhase;
}

/**
 * Durations by name: the name is the emulator's option (`durations.kaasCreateMs` of `startEmulator` and of
 * `PUT /_emulator/config`), so it is public and unique across kinds.
 */
export type DurationSpecs = { readonly [name: string]: DurationSpec };

/** The durations (milliseconds) of the declarations `S`, by name; each keeps its declaration's TSDoc. */
export type DurationsOf<S extends DurationSpecs> = { -readonly [N in keyof S]: number };

/** The durations that are no kind's own. */
export const BASE_DURATIONS = {
  /** How long a `Deleted` resource still answers GET before it is gone (404). Default 1000. */
  tombstoneMs: { defaultMs: 1000 },
} as const satisfies DurationSpecs;

/** The durations every kind's lifecycle reads, whatever the kind. */
export type BaseDurations = DurationsOf<typeof BASE_DURATIONS>;

/** The names of the durations of `specs`, in its order. */
export function durationNames<S extends DurationSpecs>(specs: S): (keyof S & string)[] {
  return Object.keys(specs);
}

/** Every duration of `specs` at `valueOf` of its declaration: the defaults, say. */
export function durationsFrom<S extends DurationSpecs>(
  specs: S,
  valueOf: (spec: DurationSpec) => number,
): DurationsOf<S> {
  // One entry per name of `specs`, which is what `DurationsOf<S>` holds.
  return fromEntriesOf<DurationsOf<S>>(durationNames(specs).map((name) => [name, valueOf(specs[name])]));
}

/** The durations a kind with the declarations `S` reads: its own and those that are no kind's own. */
export type KindDurations<S extends DurationSpecs> = BaseDurations & DurationsOf<S>;
