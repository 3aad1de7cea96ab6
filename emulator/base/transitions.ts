/**
 * The asynchronous lifecycle, computed lazily from timestamps against the emulator clock (no timers):
 * create answers `InCreation` and later reads `Active` (or `Failed`), update passes `Updating`, delete passes
 * `Deleting`, then `Deleted` for a tombstone period, then the resource is gone (404). The real service has no
 * operation endpoint; completion is observed by polling GET (api-notes "Conventions on the wire").
 */
import type { BaseDurations } from "./durations";
import type { BaseRecord, LifeState, Lifecycle } from "./record";

/** The provisioning outcomes, in the order refusals name them. */
const PROVISIONING_OUTCOMES = ["ok", "stuck", "fail"] as const;

/** Outcome of provisioning a new resource: `ok` ends `Active`, `stuck` never leaves `InCreation`, `fail` ends `Failed`. */
export type ProvisioningOutcome = (typeof PROVISIONING_OUTCOMES)[number];

/** Whether `name` is a provisioning outcome. */
export function isProvisioningOutcome(name: unknown): name is ProvisioningOutcome {
  return PROVISIONING_OUTCOMES.some((outcome) => outcome === name);
}

/**
 * Moves `rec` through every transition whose time has come. Returns `Gone` when the tombstone period
 * (`durations.tombstoneMs`) is over (the caller purges the record), else the current state. A kind whose records
 * do nothing else as time passes settles with this alone (`KindModule.settle`).
 */
export function settleLife(rec: BaseRecord, now: number, durations: BaseDurations): LifeState | "Gone" {
  const life = rec.life;
  while (life.until !== null && now >= life.until) {
    const at = life.until;
    const next = life.next;
    if (next === "Gone" || next === null) return "Gone";
    if (life.state === "InCreation" && next === "Active") rec.provisionedAt = at;
    life.state = next;
    life.since = at;
    if (next === "Deleted") {
      life.until = at + durations.tombstoneMs;
      life.next = "Gone";
    } else {
      life.until = null;
      life.next = null;
    }
  }
  return life.state;
}

/** The lifecycle of a new resource: `InCreation`, then `Active`, `Failed` or nothing (stuck). */
export function creationLife(
  now: number,
  durationMs: number,
  provisioning: { outcome: ProvisioningOutcome; failureReason: string },
): Lifecycle {
  switch (provisioning.outcome) {
    case "stuck":
      return { state: "InCreation", since: now, until: null, next: null, failureReason: null };
    case "fail":
      return {
        state: "InCreation",
        since: now,
        until: now + durationMs,
        next: "Failed",
        failureReason: provisioning.failureReason,
      };
    default:
      return {
        state: "InCreation",
        since: now,
        until: now + durationMs,
        next: "Active",
        failureReason: null,
      };
  }
}

/** Starts an update of `rec`: `Updating` for `durationMs`, then `Active`. */
export function beginUpdate(rec: BaseRecord, now: number, durationMs: number): void {
  rec.life = { state: "Updating", since: now, until: now + durationMs, next: "Active", failureReason: null };
  rec.updatedAt = now;
  rec.version += 1;
}

/** Starts the deletion of `rec`: `Deleting` for `durationMs`, then `Deleted`. */
export function beginDelete(rec: BaseRecord, now: number, durationMs: number): void {
  rec.life = { state: "Deleting", since: now, until: now + durationMs, next: "Deleted", failureReason: null };
  rec.updatedAt = now;
  rec.version += 1;
}

/** Informational `data.private.phase.name` per state (api-notes: "its values are unknown"). */
export const PHASE_NAMES: Record<LifeState, string> = {
  InCreation: "Provisioning",
  Updating: "Updating",
  Deleting: "Deprovisioning",
  Active: "Running",
  Failed: "Failed",
  Deleted: "Deleted",
};
