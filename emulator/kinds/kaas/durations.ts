/** The durations of a cluster's operations (spec §4.1), which its lifecycle and its handlers read. */
import type { DurationSpecs, KindDurations } from "../../base/durations";

/** The durations of clusters and of their volume attachments, by the emulator's option name. */
export const KAAS_DURATIONS = {
  /** KaaS `InCreation` -> `Active`. Default 1500. */
  kaasCreateMs: { defaultMs: 1500, phase: "create" },
  /** KaaS `Updating` -> `Active` after PUT, node pool PUT or a scheduled upgrade. Default 600. */
  kaasUpdateMs: { defaultMs: 600, phase: "update" },
  /** KaaS `Deleting` -> `Deleted`. Default 600. */
  kaasDeleteMs: { defaultMs: 600, phase: "delete" },
  /** Time until an attached volume shows in responses (see `WireReadings.attachments`). Default 300. */
  attachMs: { defaultMs: 300 },
  /** Time until a detached volume leaves responses (see `WireReadings.attachments`). Default 300. */
  detachMs: { defaultMs: 300 },
} as const satisfies DurationSpecs;

/** The durations a cluster's lifecycle and handlers read. */
export type KaasDurations = KindDurations<typeof KAAS_DURATIONS>;
