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
import type { BaseDurations } from "../base/durations";
import type { BaseRecord, LifeState } from "../base/record";
import { byKind, byStateField, kindNames } from "./tables";
import { errorMessage } from "../base/errors";

/**
 * The records of an emulator, or of the part of it a kind module reads, by kind name: each kind's record type,
 * whose `kind` is that name (`kaas` holds `KaasRecord`s).
 */
export type RecordMap = { readonly [kind: string]: BaseRecord };

/**
 * What the store and the service read of a kind (`generic/kind.ts` says the rest): its label, the field of the
 * state file that holds its records, and how its records live (over the durations `D`) and are purged.
 */
export interface StoredKind<
  M extends RecordMap,
  R extends BaseRecord,
  D extends BaseDurations = BaseDurations,
> {
  /** The kind as problem details name it: `KaaS "kaas-0001" was not found.` */
  readonly label: string;
  /**
   * The field of the state file, and of the control API's state snapshot, that holds the records. The file
   * format is public (a state file written by an earlier version is read as it is), so these names stay.
   */
  readonly stateField: string;
  /**
   * Applies every transition of `rec` whose time has come (`transitions.ts`); `Gone` when the tombstone period
   * is over and the record is to be purged.
   */
  settle(rec: R, now: number, durations: D): LifeState | "Gone";
  /** What goes with a purged record besides itself (a cluster's backups), from the records of every kind. */
  purge?(records: RecordMaps<M>, rec: R): void;
}

/** The kinds whose records a store holds, by kind name, whose lifecycles read the durations `D`. */
export type StoredKinds<M extends RecordMap, D extends BaseDurations = BaseDurations> = {
  readonly [K in keyof M]: StoredKind<M, M[K], D>;
};

/** What the state file holds besides the records. */
export interface StateHeader<M extends RecordMap> {
  format: "pulumi-vendor-container-emulator/1";
  clockOffsetMs: number;
  counters: Record<keyof M, number>;
}

/** The records of each kind, by id. */
export type RecordMaps<M extends RecordMap> = { readonly [K in keyof M]: Map<string, M[K]> };

/** A fresh count of the ids handed out for each kind of `kinds`: none yet. */
function zeroCounters<M extends RecordMap>(kinds: { readonly [K in keyof M]: unknown }): Record<
  keyof M,
  number
> {
  return byKind<Record<keyof M, number>>(kinds, () => 0);
}

/**
 * The records of `field` of a state file, as `toDocument` wrote them. The file is the emulator's own, read back
 * as it was written (its format is checked), so its records are taken for the kind's without a check of each.
 */
function recordsUnder<R>(doc: { readonly [field: string]: unknown }, field: string): R[] {
  const records = doc[field];
  return Array.isArray(records) ? (records as R[]) : [];
}

/** Holds every record, hands out deterministic ids and persists to the optional state file. */
export class Store<M extends RecordMap, D extends BaseDurations = BaseDurations> {
  /** The records of each kind, by id, in creation order. */
  readonly records: RecordMaps<M>;
  counters: Record<keyof M, number>;
  /** The clock offset read from the state file (applied by the app at start). */
  loadedClockOffsetMs = 0;

  /**
   * @param kinds The kinds whose records the store holds (`kinds/index.ts`).
   * @param file JSON state file: read now if it exists, written by `persist`.
   */
  constructor(
    readonly kinds: StoredKinds<M, D>,
    readonly file?: string,
  ) {
    this.counters = zeroCounters(kinds);
    this.records = byKind<RecordMaps<M>>(kinds, () => new Map());
    const doc = file && fs.existsSync(file) ? this.load(file) : undefined;
    if (doc) for (const kind of kindNames(kinds)) this.fill(kind, doc);
  }

  /** Adds the records of `kind` that `doc` holds under the kind's field, if any. */
  private fill<K extends keyof M & string>(kind: K, doc: { readonly [field: string]: unknown }): void {
    const map = this.mapOf(kind);
    for (const rec of recordsUnder<M[K]>(doc, this.kinds[kind].stateField)) map.set(rec.id, rec);
  }

  private load(file: string): Partial<StateHeader<M>> & { readonly [field: string]: unknown } {
    let doc: Partial<StateHeader<M>> & { readonly [field: string]: unknown };
    try {
      // The emulator's own file, as `toDocument` wrote it; its format is checked below.
      doc = JSON.parse(fs.readFileSync(file, "utf8")) as typeof doc;
    } catch (error) {
      throw new Error(`cannot read emulator state file ${file}: ${errorMessage(error)}`);
    }
    if (doc.format !== "pulumi-vendor-container-emulator/1") {
      throw new Error(`emulator state file ${file} has an unknown format: ${String(doc.format)}`);
    }
    this.counters = { ...this.counters, ...doc.counters };
    this.loadedClockOffsetMs = doc.clockOffsetMs ?? 0;
    return doc;
  }

  /** Next id of `kind`: `kaas-0001`, `backup-0001`, `registry-0001`... */
  nextId(kind: keyof M & string): string {
    this.counters[kind] += 1;
    return `${kind}-${String(this.counters[kind]).padStart(4, "0")}`;
  }

  /** The map holding records of `kind`. */
  mapOf<K extends keyof M>(kind: K): Map<string, M[K]> {
    return this.records[kind];
  }

  /** Removes every record and restarts the counters. */
  clear(): void {
    for (const map of Object.values<Map<string, unknown>>(this.records)) map.clear();
    this.counters = zeroCounters(this.kinds);
  }

  /** The document written to the state file: its header, then each kind's records under its field. */
  toDocument(clockOffsetMs: number): StateHeader<M> & Record<string, M[keyof M][]> {
    const header: StateHeader<M> = {
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
