/**
 * The core of the emulated service shared by every resource kind: the store, the clock, the configuration and
 * fault settings, lazy settling of lifecycles, lookups that answer 404, the "busy" rule and body validation
 * with the schemas of `schemas/` (the one source of truth shared with the REST client).
 */
import type { TSchema } from "@sinclair/typebox";
import { validateSchema } from "../schemas/validate";
import type { EmulatorClock } from "./clock";
import type { EmulatorConfig } from "./config";
import type { FaultInjector } from "./faults";
import { creationLife, settleKaas, settleLife } from "./transitions";
import { ApiProblem, schemaFieldErrors, validationProblem, type WireFieldError } from "./problems";
import { renderBackup, renderKaas, renderRegistry, type AnyResponse, type RenderContext } from "./render";
import {
  TRANSITIONAL,
  type AnyRecord,
  type BackupRecord,
  type BaseRecord,
  type KaasRecord,
  type RegistryRecord,
  type Store,
} from "./store";

/** An HTTP answer of a handler: status, optional JSON body and headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A routed API request as the resource handlers see it. */
export interface ApiRequest {
  projectId: string;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
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
    for (const rec of [...this.store.kaas.values()]) {
      if (settleKaas(rec, now, durations) === "Gone") {
        this.store.kaas.delete(rec.id);
        for (const backup of [...this.store.backups.values()]) {
          if (backup.kaasId === rec.id) this.store.backups.delete(backup.id);
        }
      }
    }
    for (const rec of [...this.store.backups.values()]) {
      if (settleLife(rec, now, durations.tombstoneMs) === "Gone") this.store.backups.delete(rec.id);
    }
    for (const rec of [...this.store.registries.values()]) {
      if (settleLife(rec, now, durations.tombstoneMs) === "Gone") this.store.registries.delete(rec.id);
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
      findKaas: (id) => this.store.kaas.get(id),
      loadEngineVersion,
    };
  }

  /** Renders any record. */
  render(rec: AnyRecord, loadEngineVersion = false): AnyResponse {
    const ctx = this.renderContext(loadEngineVersion);
    if (rec.kind === "kaas") return renderKaas(rec, ctx);
    if (rec.kind === "backup") return renderBackup(rec, ctx);
    return renderRegistry(rec, ctx);
  }

  private lookup<R extends AnyRecord>(
    map: Map<string, R>,
    projectId: string,
    id: string,
    kind: R["kind"],
    allowDeleted: boolean,
  ): R {
    const rec = map.get(id);
    if (!rec || rec.projectId !== projectId || (!allowDeleted && rec.life.state === "Deleted")) {
      throw notFound(kind, id);
    }
    return rec;
  }

  /** A cluster of the project; `Deleted` tombstones only with `allowDeleted`. 404 otherwise. */
  kaas(projectId: string, id: string, allowDeleted = false): KaasRecord {
    return this.lookup(this.store.kaas, projectId, id, "kaas", allowDeleted);
  }

  /** A backup of a cluster of the project. 404 otherwise. */
  backup(projectId: string, kaasId: string, id: string, allowDeleted = false): BackupRecord {
    const rec = this.lookup(this.store.backups, projectId, id, "backup", allowDeleted);
    if (rec.kaasId !== kaasId) throw notFound("backup", id);
    return rec;
  }

  /** A registry of the project. 404 otherwise. */
  registry(projectId: string, id: string, allowDeleted = false): RegistryRecord {
    return this.lookup(this.store.registries, projectId, id, "registry", allowDeleted);
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

/**
 * Validates a request body with a schema of `schemas/` (the same objects the REST client validates with):
 * every problem becomes a field error of one 400.
 */
export function validateBody<T>(schema: TSchema, body: unknown): T {
  const problems = validateSchema(schema, body);
  if (problems.length > 0) throw validationProblem(schemaFieldErrors(problems));
  return body as T;
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
