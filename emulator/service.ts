/**
 * The core of the emulated service shared by every resource kind: the store, the clock, the configuration and
 * fault settings, lazy settling of lifecycles, lookups that answer 404, and the "busy" rule. Request bodies are
 * checked before a handler runs, against the schemas of the endpoint table (`routes.ts`).
 */
import type { EmulatorClock } from "./clock";
import type { EmulatorConfig } from "./config";
import type { FaultInjector } from "./faults";
import { ApiProblem, validationProblem, type WireFieldError } from "./problems";
import { renderRecord, type AnyResponse, type RenderContext } from "./render";
import {
  TRANSITIONAL,
  type AnyRecord,
  type BackupRecord,
  type BaseRecord,
  type KaasRecord,
  type Kind,
  type RecordByKind,
  type RegistryRecord,
  type Store,
} from "./store";
import { creationLife, settleKaas, settleLife } from "./transitions";

/** An HTTP answer of a handler: status, optional JSON body (of type `B`) and headers. */
export interface Reply<B = unknown> {
  status: number;
  body?: B;
  headers?: Record<string, string>;
}

/** A routed API request as the resource handlers see it, its body of type `B`. */
export interface ApiRequest<B = unknown> {
  projectId: string;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body, valid against the endpoint's body schema; undefined for an endpoint that takes none. */
  body: B;
  /** Absolute URL of the same list with another page (list envelope links). */
  pageUrl: (offset: number, limit: number) => string;
}

const KIND_LABEL: Record<AnyRecord["kind"], string> = {
  kaas: "KaaS",
  backup: "Backup",
  registry: "Registry",
};

/** Operations that can be refused on a resource's state. */
export type Mutation = "update" | "delete" | "action";

/** State and helpers shared by the resource handlers. */
export class Service {
  constructor(
    readonly store: Store,
    readonly clock: EmulatorClock,
    public config: EmulatorConfig,
    readonly faults: FaultInjector,
    readonly namespace: string,
    readonly seed: number,
  ) {}

  /** Emulator time. */
  now(): number {
    return this.clock.now();
  }

  /**
   * Applies every transition whose time has come and purges resources whose tombstone period is over. A
   * purged cluster takes its backups with it.
   */
  settleAll(): void {
    const now = this.now();
    const durations = this.config.durations;
    const { kaas, backup, registry } = this.store.records;
    for (const rec of [...kaas.values()]) {
      if (settleKaas(rec, now, durations) === "Gone") {
        kaas.delete(rec.id);
        for (const child of [...backup.values()]) {
          if (child.kaasId === rec.id) backup.delete(child.id);
        }
      }
    }
    for (const rec of [...backup.values()]) {
      if (settleLife(rec, now, durations.tombstoneMs) === "Gone") backup.delete(rec.id);
    }
    for (const rec of [...registry.values()]) {
      if (settleLife(rec, now, durations.tombstoneMs) === "Gone") registry.delete(rec.id);
    }
  }

  /** Persists the state file after a mutation. */
  commit(): void {
    this.store.persist(this.clock.offsetMs);
  }

  /** Rendering context at the current time. */
  renderContext(loadEngineVersion = false): RenderContext {
    return {
      namespace: this.namespace,
      now: this.now(),
      config: this.config,
      findKaas: (id) => this.store.records.kaas.get(id),
      loadEngineVersion,
    };
  }

  /** Renders any record. */
  render(rec: AnyRecord, loadEngineVersion = false): AnyResponse {
    return renderRecord(rec.kind, rec, this.renderContext(loadEngineVersion));
  }

  private lookup<K extends Kind>(
    kind: K,
    projectId: string,
    id: string,
    allowDeleted: boolean,
  ): RecordByKind[K] {
    const rec = this.store.records[kind].get(id);
    if (!rec || rec.projectId !== projectId || (!allowDeleted && rec.life.state === "Deleted")) {
      throw notFound(kind, id);
    }
    return rec;
  }

  /** A cluster of the project; `Deleted` tombstones only with `allowDeleted`. 404 otherwise. */
  kaas(projectId: string, id: string, allowDeleted = false): KaasRecord {
    return this.lookup("kaas", projectId, id, allowDeleted);
  }

  /** A backup of a cluster of the project. 404 otherwise. */
  backup(projectId: string, kaasId: string, id: string, allowDeleted = false): BackupRecord {
    const rec = this.lookup("backup", projectId, id, allowDeleted);
    if (rec.kaasId !== kaasId) throw notFound("backup", id);
    return rec;
  }

  /** A registry of the project. 404 otherwise. */
  registry(projectId: string, id: string, allowDeleted = false): RegistryRecord {
    return this.lookup("registry", projectId, id, allowDeleted);
  }
}

/** The 404 problem of a missing resource. */
export function notFound(kind: AnyRecord["kind"], id: string): ApiProblem {
  return new ApiProblem("notFound", { detail: `${KIND_LABEL[kind]} "${id}" was not found.` });
}

/**
 * Refuses a mutation on a resource in a transitional state with a 400 that has no field errors: the client
 * treats it as transient and retries (api-notes "Conventions on the wire"). A `Failed` resource accepts only
 * deletion.
 */
export function assertMutable(rec: AnyRecord, mutation: Mutation): void {
  const state = rec.life.state;
  if (TRANSITIONAL.has(state)) {
    throw new ApiProblem("busy", {
      title: `Resource is busy: ${state}`,
      detail: `${KIND_LABEL[rec.kind]} "${rec.id}" is ${state}; retry once the operation in progress completes.`,
    });
  }
  if (state === "Failed" && mutation !== "delete") {
    throw new ApiProblem("notOperational", {
      title: "Resource is not operational: Failed",
      detail: `${KIND_LABEL[rec.kind]} "${rec.id}" is Failed; it can only be deleted.`,
    });
  }
}

/** Throws a 400 with `errors` when there are any. */
export function rejectIf(errors: WireFieldError[]): void {
  if (errors.length > 0) throw validationProblem(errors);
}

/** Reads a boolean query flag (`true`/`false`, any case); absent is `fallback`, anything else 400. */
export function booleanQuery(query: URLSearchParams, name: string, fallback = false): boolean {
  const text = query.get(name);
  if (text === null || text === "") return fallback;
  if (/^true$/i.test(text)) return true;
  if (/^false$/i.test(text)) return false;
  throw new ApiProblem("invalidQuery", {
    errors: [{ fieldName: name, errorMessage: `must be true or false (got "${text}")` }],
    detail: `${name} must be true or false`,
  });
}

/**
 * The fields every new record shares, from a create request's metadata: a fresh id, the project, name,
 * location and tags, timestamps, and a lifecycle that starts `InCreation` for `createMs` (or stays stuck, or
 * fails, as the faults say).
 */
export function newRecordBase(
  svc: Service,
  req: Pick<ApiRequest, "projectId">,
  kind: "kaas" | "registry" | "backup",
  metadata: { name: string; location?: { value: string }; tags?: string[] | null },
  createMs: number,
): BaseRecord {
  const now = svc.now();
  return {
    id: svc.store.nextId(kind),
    projectId: req.projectId,
    name: metadata.name,
    location: metadata.location?.value as string,
    tags: metadata.tags ?? [],
    createdAt: now,
    updatedAt: now,
    version: 1,
    life: creationLife(now, createMs, svc.faults.provisioning(kind)),
    provisionedAt: null,
  };
}
