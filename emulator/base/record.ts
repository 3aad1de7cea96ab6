/**
 * What every stored resource of the emulator is made of, whatever its kind: the fields every record shares and
 * its lifecycle (`transitions.ts` moves it).
 */

/** Lifecycle states the emulator produces (api-notes: the seen values it models). */
export type LifeState = "InCreation" | "Updating" | "Deleting" | "Active" | "Failed" | "Deleted";

/** States during which mutations are refused with a "busy" 400 (api-notes "Conventions on the wire"). */
export const TRANSITIONAL: ReadonlySet<LifeState> = new Set(["InCreation", "Updating", "Deleting"]);

/**
 * Where a resource is in its lifecycle: in `state` since `since`; at `until` (if not null) it becomes `next`.
 * `Gone` means the record is purged (404).
 */
export interface Lifecycle {
  state: LifeState;
  since: number;
  until: number | null;
  next: LifeState | "Gone" | null;
  failureReason: string | null;
}

/** Fields common to every stored resource. */
export interface BaseRecord {
  id: string;
  projectId: string;
  name: string;
  location: string;
  tags: string[];
  createdAt: number;
  updatedAt: number;
  /** Incremented by every accepted mutation; rendered as `metadata.version`. */
  version: number;
  life: Lifecycle;
  /** When provisioning completed (`InCreation` -> `Active`), null before. */
  provisionedAt: number | null;
  /**
   * Why the service disabled the resource (`status.disableStatusInfo.reasons`); absent or empty when it is not
   * disabled. Set only through the control API (`ResourcePatch.disabledReasons`).
   */
  disabledReasons?: string[];
  /**
   * Values that replace parts of the rendered response, by JSON pointer (`wireOverrides.ts`); set only through
   * the control API (`ResourcePatch.wireOverrides`).
   */
  wireOverrides?: Record<string, unknown>;
}
