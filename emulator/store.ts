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

/** A node pool as stored. `nodeIds.length` is the node count. */
export interface PoolRecord {
  name: string;
  instance: string;
  dataCenter: string;
  autoscaling: boolean;
  minCount: number | null;
  maxCount: number | null;
  createdAt: number;
  nodeIds: string[];
}

/**
 * A volume attachment. It is visible in `attachedVolumes` from `visibleFrom` until `visibleUntil`; it counts
 * as attached (for the rules) while `visibleUntil` is null. `nodeId` becomes null when its node is removed.
 */
export interface AttachmentRecord {
  uri: string;
  nodePoolName: string | null;
  nodeId: string | null;
  sizeGb: number;
  visibleFrom: number;
  visibleUntil: number | null;
}

/** Stored properties of a cluster. */
export interface KaasProps {
  preset: boolean;
  vpcUri: string | null;
  subnetUri: string | null;
  nodeCidr: { address: string; name: string };
  podCidr: string | null;
  securityGroupName: string | null;
  /** The live version. */
  kubernetesVersion: string;
  /** A scheduled upgrade (spec §2.3 `upgradeDate`). */
  upgradeTo: { value: string; scheduledAt: number } | null;
  nodePools: PoolRecord[];
  /** Last node number used per pool name, so node ids are never reused. */
  nodeSeq: Record<string, number>;
  ha: boolean;
  maxCumulativeVolumeSize: number | null;
  /** Billing period as sent (`Hour`, `Month`, `Year`). */
  billingPeriod: string | null;
  clientId: string | null;
  autoscalerProfile: unknown;
  authorizedIpRanges: string[] | null;
  enablePrivateCluster: boolean;
  attachments: AttachmentRecord[];
}

/** A cluster. */
export interface KaasRecord extends BaseRecord {
  kind: "kaas";
  props: KaasProps;
  /** The `deleteOnCascade` flag of the DELETE that removed it, for inspection. */
  deleteOnCascade: boolean | null;
}

/** A backup of one cluster. */
export interface BackupRecord extends BaseRecord {
  kind: "backup";
  kaasId: string;
  props: { billingPeriod: string | null; type: string | null; retentionDays: number | null };
}

/** A container registry. */
export interface RegistryRecord extends BaseRecord {
  kind: "registry";
  props: {
    preset: boolean;
    vpcUri: string | null;
    subnetUri: string | null;
    securityGroupUri: string | null;
    publicIpUri: string | null;
    blockStorageUri: string | null;
    billingPeriod: string | null;
    adminUsername: string;
    size: string | null;
  };
  /** Time of the last admin password reset; null until the first one. */
  passwordResetAt: number | null;
}

/**
 * The record of each kind, by kind name (as used in ids and in the control API): the store's maps, the
 * renderers and the handlers' tables are keyed by it, so a kind missing from one of them does not compile.
 */
export interface RecordByKind {
  kaas: KaasRecord;
  backup: BackupRecord;
  registry: RegistryRecord;
}

/** Kind names, as used in ids and in the control API. */
export type Kind = keyof RecordByKind;

/** Any stored resource. */
export type AnyRecord = RecordByKind[Kind];

/** The records of each kind, by id. */
type RecordMaps = { readonly [K in Kind]: Map<string, RecordByKind[K]> };

/**
 * The field of the state file that holds each kind's records. The file format is public (a state file written
 * by an earlier version is read as it is), so these names stay.
 */
interface StateFileFields {
  kaas: "kaas";
  backup: "backups";
  registry: "registries";
}

/** The persisted document: the records of each kind under its `StateFileFields` name. */
export type StateDocument = {
  format: "pulumi-vendor-container-emulator/1";
  clockOffsetMs: number;
  counters: Record<Kind, number>;
} & { [K in Kind as StateFileFields[K]]: RecordByKind[K][] };

/** `records` by id; none when the state file has no such field. */
function byId<R extends { id: string }>(records: readonly R[] | undefined): Map<string, R> {
  return new Map((records ?? []).map((r) => [r.id, r]));
}

/** Holds every record, hands out deterministic ids and persists to the optional state file. */
export class Store {
  /** The records of each kind, by id, in creation order. */
  readonly records: RecordMaps;
  counters: Record<Kind, number> = { kaas: 0, backup: 0, registry: 0 };
  /** The clock offset read from the state file (applied by the app at start). */
  loadedClockOffsetMs = 0;

  /** @param file JSON state file: read now if it exists, written by `persist`. */
  constructor(readonly file?: string) {
    const doc = file && fs.existsSync(file) ? this.load(file) : undefined;
    this.records = {
      kaas: byId(doc?.kaas),
      backup: byId(doc?.backups),
      registry: byId(doc?.registries),
    };
  }

  private load(file: string): Partial<StateDocument> {
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
    this.counters = { kaas: 0, backup: 0, registry: 0 };
  }

  /** The document written to the state file. */
  toDocument(clockOffsetMs: number): StateDocument {
    return {
      format: "pulumi-vendor-container-emulator/1",
      clockOffsetMs,
      counters: { ...this.counters },
      kaas: [...this.records.kaas.values()],
      backups: [...this.records.backup.values()],
      registries: [...this.records.registry.values()],
    };
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
