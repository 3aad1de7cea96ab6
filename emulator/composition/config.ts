/**
 * The configuration of the emulator over its list of kinds (`kinds/index.ts`): every kind's durations
 * (`KindModule.durations`) and those that are no kind's own (`base/durations.ts`) make the emulator's
 * `Durations`, their defaults, the durations of `--fast` and what the command line's `--create-ms`,
 * `--update-ms` and `--delete-ms` set; the rest of the configuration is `base/config.ts`'s.
 */
import { checkConfig, defaultConfigOf } from "../base/config";
import {
  BASE_DURATIONS,
  durationNames,
  durationsFrom,
  type DurationPhase,
  type DurationSpec,
  type DurationSpecs,
} from "../base/durations";
import type { WireFieldError } from "../base/problems";
import { kindNamesProjectFirst } from "../generic/kind";
import { fromEntriesOf } from "../../schemas/typed";
import { KINDS, type Durations, type EmulatorConfig, type EmulatorDurationSpecs } from "../kinds";

/**
 * Every duration's declaration, by name: the kinds' in the order the emulator names the kinds to people
 * (`kindNamesProjectFirst`: cluster, registry, backup), then those that are no kind's own. Throws when two kinds
 * declare the same name, since the names are the options of one configuration.
 */
function emulatorDurationSpecs(): EmulatorDurationSpecs {
  const tables: DurationSpecs[] = [
    ...kindNamesProjectFirst(KINDS).map((kind) => KINDS[kind].durations),
    BASE_DURATIONS,
  ];
  const specs = new Map<string, DurationSpec>();
  for (const table of tables) {
    for (const name of durationNames(table)) {
      if (specs.has(name)) throw new Error(`the duration ${name} is declared twice`);
      specs.set(name, table[name]);
    }
  }
  // The declarations of every kind of `KINDS` and the base ones, each once: what `EmulatorDurationSpecs` is.
  return fromEntriesOf<EmulatorDurationSpecs>(specs);
}

/** Every duration's declaration, by name. */
const DURATION_SPECS = emulatorDurationSpecs();

/** Default durations: fast, for tests. */
export const DEFAULT_DURATIONS: Durations = durationsFrom(DURATION_SPECS, (spec) => spec.defaultMs);

/** Durations of `--fast`: every operation completes within 50 ms. */
export const FAST_DURATIONS: Durations = durationsFrom(DURATION_SPECS, () => 50);

/** The name of every duration, in the order of `DEFAULT_DURATIONS`. */
export const DURATION_NAMES: readonly (keyof Durations)[] = durationNames(DURATION_SPECS);

/**
 * The durations that the command-line option of `phase` sets (`--create-ms`: every kind's creation), in the
 * order of `DEFAULT_DURATIONS`.
 */
export function durationsOfPhase(phase: DurationPhase): (keyof Durations)[] {
  return DURATION_NAMES.filter((name) => {
    const spec: DurationSpec = DURATION_SPECS[name];
    return spec.phase === phase;
  });
}

/** The default configuration. */
export function defaultConfig(): EmulatorConfig {
  return defaultConfigOf(DEFAULT_DURATIONS);
}

/**
 * Problems of a configuration of the emulator (after a merge): every duration and size is a number >= 0,
 * versions are `major.minor` or `major.minor.patch` (`base/config.ts` `checkConfig`).
 */
export function checkEmulatorConfig(config: EmulatorConfig): WireFieldError[] {
  return checkConfig(config, DURATION_NAMES);
}
