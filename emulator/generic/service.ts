/**
 * The core of the emulated service shared by every resource kind: the store, the clock, the configuration and
 * fault settings, lazy settling of lifecycles, lookups that answer 404, and the "busy" rule. Request bodies are
 * checked, and queries read, before a handler runs, by the schemas of the endpoint table (`routes.ts`).
 */
import type { EmulatorClock } from "../base/clock";
import type { EmulatorConfig } from "../base/config";
import type { FaultInjector } from "../composition/faults";
import { kindNames } from "./kind";
import type { AnyRecord, AnyResponse, Kind, RecordByKind } from "../kinds/index";
import { ApiProblem, validationProblem, type WireFieldError } from "../base/problems";
import type { RenderContext } from "../base/render";
import { TRANSITIONAL, type BaseRecord, type Store } from "./store";
import { creationLife } from "../base/transitions";

/** An HTTP answer of a handler: status, optional JSON body (of type `B`) and headers. */
export interface Reply<B = unknown> {
  status: number;
  body?: B;
  headers?: Record<string, string>;
}

/** A routed API request as the resource handlers see it, its body of type `B` and its query options of type `Q`. */
export interface ApiRequest<B = unknown, Q = unknown> {
  projectId: string;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  /**
   * The query parameters the endpoint's query schema declares, read as it types them (`query.ts`); the others,
   * and `api-version`, are not the handler's.
   */
  options: Q;
  /** Parsed JSON body, valid against the endpoint's body schema; undefined for an endpoint that takes none. */
  body: B;
  /** Absolute URL of the same list with another page (list envelope links). */
  pageUrl: (offset: number, limit: number) => string;
}

/** An API request as the dispatch routes it: its query still text, its body not yet checked (`routes.ts`). */
export interface RoutedRequest extends Omit<ApiRequest, "options"> {
  query: URLSearchParams;
}

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
   * Applies every transition whose time has come and purges resources whose tombstone period is over, with
   * what goes with them (a purged cluster takes its backups), kind after kind in the list's order.
   */
  settleAll(): void {
    const now = this.now();
    for (const kind of kindNames(this.store.kinds)) this.settleKind(kind, now);
  }

  private settleKind<K extends Kind>(kind: K, now: number): void {
    const module = this.store.kinds[kind];
    const records = this.store.records[kind];
    for (const rec of [...records.values()]) {
      if (module.settle(rec, now, this.config.durations) === "Gone") {
        records.delete(rec.id);
        module.purge?.(this.store, rec);
      }
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
      records: this.store.records,
      loadEngineVersion,
    };
  }

  /** The response of a record of kind `kind`. */
  renderAs<K extends Kind>(kind: K, rec: RecordByKind[K], ctx: RenderContext = this.renderContext()) {
    return this.store.kinds[kind].render(rec, ctx);
  }

  /** Renders any record. */
  render(rec: AnyRecord): AnyResponse {
    return this.renderAs(rec.kind, rec);
  }

  /**
   * The record `id` of `kind` in the project; `Deleted` tombstones only with `allowDeleted`. 404 otherwise.
   */
  lookup<K extends Kind>(kind: K, projectId: string, id: string, allowDeleted: boolean): RecordByKind[K] {
    const rec = this.store.records[kind].get(id);
    if (!rec || rec.projectId !== projectId || (!allowDeleted && rec.life.state === "Deleted")) {
      throw this.notFound(kind, id);
    }
    return rec;
  }

  /** The 404 problem of a missing resource. */
  notFound(kind: Kind, id: string): ApiProblem {
    return new ApiProblem("notFound", { detail: `${this.store.kinds[kind].label} "${id}" was not found.` });
  }

  /**
   * Refuses a mutation on a resource in a transitional state with a 400 that has no field errors: the client
   * treats it as transient and retries (api-notes "Conventions on the wire"). A `Failed` resource accepts only
   * deletion.
   */
  assertMutable(rec: AnyRecord, mutation: Mutation): void {
    const state = rec.life.state;
    const label = this.store.kinds[rec.kind].label;
    if (TRANSITIONAL.has(state)) {
      throw new ApiProblem("busy", {
        title: `Resource is busy: ${state}`,
        detail: `${label} "${rec.id}" is ${state}; retry once the operation in progress completes.`,
      });
    }
    if (state === "Failed" && mutation !== "delete") {
      throw new ApiProblem("notOperational", {
        title: "Resource is not operational: Failed",
        detail: `${label} "${rec.id}" is Failed; it can only be deleted.`,
      });
    }
  }
}

/** Throws a 400 with `errors` when there are any. */
export function rejectIf(errors: WireFieldError[]): void {
  if (errors.length > 0) throw validationProblem(errors);
}

/**
 * The fields every new record shares, from a create request's metadata: a fresh id, the project, name,
 * location and tags, timestamps, and a lifecycle that starts `InCreation` for `createMs` (or stays stuck, or
 * fails, as the faults say).
 */
export function newRecordBase(
  svc: Service,
  req: Pick<ApiRequest, "projectId">,
  kind: Kind,
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
