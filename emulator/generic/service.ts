/**
 * The core of the emulated service shared by every resource kind: the store, the clock, the configuration and
 * fault settings, lazy settling of lifecycles, lookups that answer 404, and the "busy" rule. Request bodies are
 * checked, and queries read, before a handler runs, by the schemas of the endpoint table (`routes.ts`).
 */
import type { ApiRequest } from "../base/api";
import type { EmulatorClock } from "../base/clock";
import type { EmulatorConfigOf } from "../base/config";
import type { BaseDurations } from "../base/durations";
import { ApiProblem, validationProblem, type WireFieldError } from "../base/problems";
import { TRANSITIONAL, type BaseRecord, type Lifecycle } from "../base/record";
import type { RenderContext } from "../base/render";
import { creationLife, type ProvisioningOutcome } from "../base/transitions";
import type { RecordMap, Store } from "./store";
import { kindNames } from "./tables";

/** Where the provisioning outcome of a new record comes from (the fault configuration, `composition/faults.ts`). */
export interface ProvisioningSource {
  provisioning(kind: string): { outcome: ProvisioningOutcome; failureReason: string };
}

/** What `assertMutable` reads of a record: its kind, id and lifecycle. */
interface MutableRecord<M extends RecordMap> {
  readonly kind: keyof M & string;
  readonly id: string;
  readonly life: Lifecycle;
}

/** Operations that can be refused on a resource's state. */
export type Mutation = "update" | "delete" | "action";

/**
 * What a kind module's handlers see of the service (`Service`), over the records `M` they read by kind: its own
 * and those of the kinds it reads, and the durations `D` they read. It shows the records, not the store's table
 * of kinds, so that the service of the whole emulator is the service of each part of it (a view with fewer
 * kinds and durations).
 */
export interface KindService<M extends RecordMap, D extends BaseDurations = BaseDurations> {
  readonly store: {
    readonly records: { readonly [K in keyof M]: Map<string, M[K]> };
    nextId(kind: keyof M & string): string;
  };
  readonly config: EmulatorConfigOf<D>;
  readonly faults: ProvisioningSource;
  readonly namespace: string;
  readonly seed: number;
  now(): number;
  commit(): void;
  renderContext(loadEngineVersion?: boolean): RenderContext<M>;
  lookup<K extends keyof M & string>(kind: K, projectId: string, id: string, allowDeleted: boolean): M[K];
  notFound(kind: keyof M & string, id: string): ApiProblem;
  assertMutable(rec: MutableRecord<M>, mutation: Mutation): void;
}

/**
 * State and helpers shared by the resource handlers, over the records `M` by kind and the durations `D`: every
 * kind's in the emulator, the part a kind module reads in its handlers (a backup's handlers read clusters too).
 */
export class Service<M extends RecordMap, D extends BaseDurations> implements KindService<M, D> {
  constructor(
    readonly store: Store<M, D>,
    readonly clock: EmulatorClock,
    public config: EmulatorConfigOf<D>,
    readonly faults: ProvisioningSource,
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

  private settleKind<K extends keyof M & string>(kind: K, now: number): void {
    const module = this.store.kinds[kind];
    const records = this.store.records[kind];
    for (const rec of [...records.values()]) {
      if (module.settle(rec, now, this.config.durations) === "Gone") {
        records.delete(rec.id);
        module.purge?.(this.store.records, rec);
      }
    }
  }

  /** Persists the state file after a mutation. */
  commit(): void {
    this.store.persist(this.clock.offsetMs);
  }

  /** Rendering context at the current time. */
  renderContext(loadEngineVersion = false): RenderContext<M> {
    return {
      namespace: this.namespace,
      now: this.now(),
      config: this.config,
      records: this.store.records,
      loadEngineVersion,
    };
  }

  /**
   * The record `id` of `kind` in the project; `Deleted` tombstones only with `allowDeleted`. 404 otherwise.
   */
  lookup<K extends keyof M & string>(kind: K, projectId: string, id: string, allowDeleted: boolean): M[K] {
    const rec = this.store.records[kind].get(id);
    if (!rec || rec.projectId !== projectId || (!allowDeleted && rec.life.state === "Deleted")) {
      throw this.notFound(kind, id);
    }
    return rec;
  }

  /** The 404 problem of a missing resource. */
  notFound(kind: keyof M & string, id: string): ApiProblem {
    return new ApiProblem("notFound", { detail: `${this.store.kinds[kind].label} "${id}" was not found.` });
  }

  /**
   * Refuses a mutation on a resource in a transitional state with a 400 that has no field errors: the client
   * treats it as transient and retries (api-notes "Conventions on the wire"). A `Failed` resource accepts only
   * deletion.
   */
  assertMutable(rec: MutableRecord<M>, mutation: Mutation): void {
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
export function newRecordBase<M extends RecordMap>(
  svc: KindService<M>,
  req: Pick<ApiRequest, "projectId">,
  kind: keyof M & string,
  metadata: { name: string; location?: { value: string }; tags?: string[] | null },
  createMs: number,
): BaseRecord {
  const now = svc.now();
  return {
    id: svc.store.nextId(kind),
    projectId: req.projectId,
    name: metadata.name,
    // Every create's rules refuse a body without a location before a record is built (`checkLocationOnCreate`),
    // and a backup's takes its cluster's when it names none.
    location: metadata.location?.value as string,
    tags: metadata.tags ?? [],
    createdAt: now,
    updatedAt: now,
    version: 1,
    life: creationLife(now, createMs, svc.faults.provisioning(kind)),
    provisionedAt: null,
  };
}
