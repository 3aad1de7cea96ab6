/**
 * In-memory state of the emulator, optionally mirrored to a JSON file so that it survives restarts: the file
 * is read at start and rewritten (atomically, via a temporary file) after each mutation.
 *
 * Records keep the service's state in the request's own spelling plus timestamps; responses are rendered from
 * them (`render.ts`) and lifecycle states are derived lazily from the timestamps (`transitions.ts`). Secrets
 * sent by clients (the cluster identity's `clientSecret`) are never stored.
 */
import fs from "node:fs";
import path from "node:path";
import { byKind, byStateField, kindNames } from "./kind";
import type { AnyRecord, Kind, KindTable, RecordByKind, StateFieldByKind } from "./kinds";

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

/** What the state file holds besides the records. */
interface StateHeader {
  format: "pulumi-vendor-container-emulator/1";
  clockOffsetMs: number;
  counters: Record<Kind, number>;
}

/** The persisted document: the records of each kind under its state-file field (`KindModule.stateField`). */
export type StateDocument = StateHeader & { [K in Kind as StateFieldByKind[K]]: RecordByKind[K][] };

/** The records of each kind, by id. */
type RecordMaps = { readonly [K in Kind]: Map<string, RecordByKind[K]> };

/** A fresh count of the ids handed out for each kind of `kinds`: none yet. */
function zeroCounters(kinds: KindTable): Record<Kind, number> {
  return byKind<Record<Kind, number>>(kinds, () => 0);
}

/** Holds every record, hands out deterministic ids and persists to the optional state file. */
export class Store {
  /** The records of each kind, by id, in creation order. */
  readonly records: RecordMaps;
  counters: Record<Kind, number>;
  /** The clock offset read from the state file (applied by the app at start). */
  loadedClockOffsetMs = 0;

  /**
   * @param kinds The kinds whose records the store holds (`kinds.ts`).
   * @param file JSON state file: read now if it exists, written by `persist`.
   */
  constructor(
    readonly kinds: KindTable,
    readonly file?: string,
  ) {
    this.counters = zeroCounters(kinds);
    this.records = byKind<RecordMaps>(kinds, () => new Map());
    const doc = file && fs.existsSync(file) ? this.load(file) : undefined;
    if (doc) for (const kind of kindNames(kinds)) this.fill(kind, doc);
  }

  /** Adds the records of `kind` that `doc` holds under the kind's field, if any. */
  private fill<K extends Kind>(kind: K, doc: StateDocument): void {
    // The file holds under each kind's field the records `toDocument` wrote, whatever the field's name.
    const records = doc[this.kinds[kind].stateField] as RecordByKind[K][] | undefined;
    const map = this.mapOf(kind);
    for (const rec of records ?? []) map.set(rec.id, rec);
  }

  private load(file: string): StateDocument {
    let doc: StateDocument;
    try {
      doc = JSON.parse(fs.readFileSync(file, "utf8")) as StateDocument;
    } catch (error) {
      throw new Error(`cannot read emulator state file ${file}: ${(error as Error).message}`);
    }
    if (doc.format !== "pulumi-vendor-container-emulator/1") {
      throw new Error(`emulator state file ${file} has an unknown format: ${String(doc.format)}`);
    }
    this.counters = { ...this.counters, ...doc.counters };
    this.loadedClockOffsetMs = doc.clockOffsetMs ?? 0;
    return doc;
  }

  /** Next id of `kind`: `kaas-0001`, `backup-0001`, `registry-0001`... */
  nextId(kind: Kind): string {
    this.counters[kind] += 1;
    return `${kind}-${String(this.counters[kind]).padStart(4, "0")}`;
  }

  /** The map holding records of `kind`. */
  mapOf<K extends Kind>(kind: K): Map<string, RecordByKind[K]> {
    return this.records[kind];
  }

  /** Removes every record and restarts the counters. */
  clear(): void {
    for (const map of Object.values(this.records)) map.clear();
    this.counters = zeroCounters(this.kinds);
  }

  /** The document written to the state file: its header, then each kind's records under its field. */
  toDocument(clockOffsetMs: number): StateHeader & Record<StateFieldByKind[Kind], AnyRecord[]> {
    const header: StateHeader = {
      format: "pulumi-vendor-container-emulator/1",
      clockOffsetMs,
      counters: { ...this.counters },
    };
    return { ...header, ...byStateField(this.kinds, (kind) => [...this.records[kind].values()]) };
  }

  /** Writes the state file, if any: temporary file then rename, so a crash never leaves half a file. */
  persist(clockOffsetMs: number): void {
    if (!this.file) return;
    fs.mkdirSync(path.dirname(path.resolve(this.file)), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.toDocument(clockOffsetMs), null, 2));
    fs.renameSync(tmp, this.file);
  }
}
