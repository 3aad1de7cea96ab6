/** The durations of a registry's operations (spec §4.3), which its lifecycle and its handlers read. */
import type { DurationSpecs, KindDurations } from "../../base/durations";

/** The durations of registries, by the emulator's option name. */
export const REGISTRY_DURATIONS = {
  /** Registry `InCreation` -> `Active`. Default 1500. */
  registryCreateMs: { defaultMs: 1500, phase: "create" },
  /** Registry `Updating` -> `Active`. Default 600. */
  registryUpdateMs: { defaultMs: 600, phase: "update" },
  /** Registry `Deleting` -> `Deleted`. Default 600. */
  registryDeleteMs: { defaultMs: 600, phase: "delete" },
  /** Registry `Updating` after an admin password reset. Default 300. */
  resetPasswordMs: { defaultMs: 300, phase: "update" },
} as const satisfies DurationSpecs;

/** The durations a registry's lifecycle and handlers read. */
export type RegistryDurations = KindDurations<typeof REGISTRY_DURATIONS>;
