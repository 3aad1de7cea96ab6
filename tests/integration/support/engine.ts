/**
 * The engine, simulated over the harness's providers (./harness.ts): the main example's arguments, a small
 * simulation of the engine's state and run loop (create, resume after a partial failure, refresh, destroy),
 * and a comparison of that state with what the service holds.
 *
 * These tests run without the engine (docs/tests.md), so the providers are driven the way the engine drives
 * them (dynamic-provider notes): check(old inputs, news) -> diff(state, inputs) -> create/update; read on
 * refresh; delete on destroy; a rejection carrying `id` is recorded with its `properties` and resumed by
 * `update` on the next run. The program's part is simulated too (sdk/persisted.ts): each resource of a tagged
 * kind tells its provider the id the state tracked when the run started (`trackedId`), and the creation tag of
 * an object a create made is released once the state has recorded its id.
 */
import type { Emulator, FaultConfig } from "../../../emulator";
import { retagObject, type KindProvider } from "../../../provider";
import type { Inputs } from "../../../provider/common/check";
import { client } from "../../../provider/common/context";
import type { KindName } from "../../../provider";
import { TAGGED_KINDS, type TaggedKind } from "../../../schemas/kinds";
import type { KaasResponse } from "../../../schemas";
import { attachmentInputs, backupInputs, kaasInputs, registryInputs } from "../../support/world";

/** The value stored as `__provider` by the simulated engine (the real one stores the serialized shell). */
export const SHELL = "require('pulumi-vendor-container/shells/<kind>')";

// ---- The main example (examples/cluster/index.ts), stack "dev" of project "vendor-demo" ----

const scope = (name: string) => `vendor-demo/dev/${name}`;

/**
 * The fault mix of one seed. `retryAfterSeconds: 0`: the client honours `Retry-After` exactly (capped at
 * 60 s, rest/retry.ts), so 1 s would cost a second per 429. Latency is scaled down from real gateways
 * (hundreds of ms) to 0-50 ms so five seeds stay well under a minute.
 */
export const faultsOf = (seed: number): Partial<FaultConfig> => ({
  seed,
  errorRates: { 500: 0.05, 502: 0.05, 503: 0.05, 504: 0.05, 429: 0.1 },
  retryAfterSeconds: 0,
  dropRate: 0.05,
  dropAfterProcessingRate: 0.05,
  latencyMs: 0,
  latencyRandomMs: 50,
});

/** Kaas "cluster": two pools (one autoscaling), HA, authorized ranges, a storage cap. */
export const clusterArgs = (overrides: Inputs = {}): Inputs =>
  kaasInputs("dev-cluster", {
    kubernetesVersion: "1.33.2",
    ha: true,
    maxCumulativeVolumeSize: 500,
    billingPeriod: "Month",
    timeouts: { create: "45m" },
    creationScope: scope("cluster"),
    ...overrides,
  });

/** KaasBackup "nightly" of the cluster. */
export const backupArgs = (kaasId: string, overrides: Inputs = {}): Inputs =>
  backupInputs(kaasId, { creationScope: scope("nightly"), ...overrides });

/** Registry "images". */
export const registryArgs = (overrides: Inputs = {}): Inputs =>
  registryInputs("dev-images", { billingPeriod: "Month", creationScope: scope("images"), ...overrides });

/** VolumeAttachment "data" to a node of the system pool. */
export const attachmentArgs = (kaasId: string, nodeId: string, overrides: Inputs = {}): Inputs =>
  attachmentInputs(kaasId, nodeId, { creationScope: scope("data"), ...overrides });

/**
 * The first node of the cluster's system pool, as a user reads it with `kubectl get nodes`: the service
 * reports no node ids, so the emulator's own view stands in for the cluster.
 */
export function firstSystemNode(emulator: Emulator, kaasId: string): string {
  const node = emulator.nodes(kaasId).find((p) => p.nodePool === "system")?.nodeIds[0];
  if (!node) throw new Error("the cluster reports no node in its system pool");
  return node;
}

// ---- The engine, simulated ----

/** One resource in the simulated state. */
export interface StateEntry {
  kind: KindName;
  id: string;
  /** Inputs as the engine stores them (with `__provider`). */
  inputs: Inputs;
  /** Outputs as the engine stores them. */
  outputs: Inputs;
  /** Set while the resource carries an init error (partial failure); the next run calls `update`. */
  initError?: string;
}

/** What is known about an error some provider call threw. */
export interface RecordedError {
  resource: string;
  operation: "check" | "create" | "update" | "read" | "delete" | "diff";
  message: string;
  /** Set for a partial failure: the engine records this id. */
  id?: string;
  reasons?: string[];
  properties?: Inputs;
  /** The error's own enumerable fields except `properties` (status, problem body, field errors...), as JSON. */
  detail: string;
  stack: string;
}

/**
 * The refusal of an attachment whose attach lost its answer and whose retry the service refused as already
 * attached, where the service does not show attachments: the lost attach most likely went through, and only
 * `adoptId` tells the provider so.
 */
export const LOST_ATTACH =
  /: the answer to its attach of \S+ was lost and the service refused the retry as already attached to cluster /;

/** Whether `kind` tags its objects, so the program passes `trackedId` and releases the creation tag. */
const isTagged = (kind: KindName): kind is TaggedKind => Object.hasOwn(TAGGED_KINDS, kind);

/**
 * The engine's view of a stack: resources by name, and a run loop that behaves like consecutive `pulumi up`
 * runs until the resource converges (a failed run is followed by another, as a CI retry or a user would).
 */
export class SimulatedEngine {
  readonly state = new Map<string, StateEntry>();
  /** Every error a provider threw, in order. */
  readonly errors: RecordedError[] = [];
  /** Every output and refreshed-input object the providers returned, partial-failure properties included. */
  readonly outputs: { resource: string; kind: KindName; values: Inputs }[] = [];
  /** Every failed release of a creation tag by the program (a warning in a real run). */
  readonly releaseFailures: string[] = [];

  constructor(
    private readonly kindOf: (name: KindName) => KindProvider,
    private readonly maxRuns = 6,
  ) {}

  /** Records an error a provider threw (the engine would print its message). */
  recordError(
    resource: string,
    kind: KindName,
    operation: RecordedError["operation"],
    error: unknown,
  ): RecordedError {
    const e = error as { message?: string; id?: unknown; reasons?: unknown; properties?: unknown };
    const own =
      typeof error === "object" && error !== null
        ? Object.fromEntries(Object.entries(error).filter(([k]) => k !== "properties"))
        : {};
    const recorded: RecordedError = {
      resource,
      operation,
      message: String(e?.message ?? error),
      detail: JSON.stringify(own),
      stack: String((error as Error)?.stack ?? ""),
    };
    if (typeof e?.id === "string" && e.id !== "") {
      recorded.id = e.id;
      recorded.reasons = (e.reasons as string[]) ?? [];
      recorded.properties = (e.properties as Inputs) ?? {};
      this.outputs.push({ resource, kind, values: recorded.properties });
    }
    this.errors.push(recorded);
    return recorded;
  }

  private keep(resource: string, kind: KindName, values: Inputs): void {
    this.outputs.push({ resource, kind, values });
  }

  /**
   * `check` as the engine runs it (old inputs from state); fails the test on any failure. `tracked` is the
   * `trackedId` the program passes in an `up` (never in a preview): the id the state tracked at the run's start.
   */
  async check(resource: string, kind: KindName, args: Inputs, tracked?: string | null): Promise<Inputs> {
    const entry = this.state.get(resource);
    const { inputs, failures } = await this.kindOf(kind).check(entry?.inputs ?? {}, {
      ...args,
      ...(tracked === undefined ? {} : { trackedId: tracked }),
      __provider: SHELL,
    });
    if (failures.length > 0) throw new Error(`${resource}: check failed: ${JSON.stringify(failures)}`);
    return inputs;
  }

  /** The preview of one resource: check, then diff against the state. */
  async preview(resource: string, args: Inputs) {
    const entry = this.state.get(resource);
    if (!entry) throw new Error(`${resource} is not in the state`);
    const inputs = await this.check(resource, entry.kind, args);
    return this.kindOf(entry.kind).diff(entry.id, entry.outputs, inputs);
  }

  /** One `pulumi up` of one resource. Returns false when the run failed (the state may have changed). */
  async upOnce(resource: string, kind: KindName, args: Inputs): Promise<boolean> {
    const p = this.kindOf(kind);
    const entry = this.state.get(resource);
    const tagged = isTagged(kind);
    const inputs = await this.check(resource, kind, args, tagged ? (entry?.id ?? null) : undefined);
    try {
      if (!entry) {
        const { id, outs } = await p.create(inputs);
        this.keep(resource, kind, outs);
        // The engine adds `__provider` to every successful result.
        this.state.set(resource, { kind, id, inputs, outputs: { ...outs, __provider: inputs.__provider } });
        if (tagged) await this.release(resource, kind, id, outs);
        return true;
      }
      const diff = await p.diff(entry.id, entry.outputs, inputs);
      if (diff.replaces.length > 0)
        throw new Error(`${resource}: unexpected replacement of ${diff.replaces.join(", ")}`);
      if (diff.changes || entry.initError !== undefined) {
        const { outs } = await p.update(entry.id, entry.outputs, inputs);
        this.keep(resource, kind, outs);
        this.state.set(resource, {
          kind,
          id: entry.id,
          inputs,
          outputs: { ...outs, __provider: inputs.__provider },
        });
      }
      return true;
    } catch (error) {
      const recorded = this.recordError(resource, kind, entry ? "update" : "create", error);
      if (recorded.id !== undefined) {
        // Partial failure: the engine keeps the object with its id and the properties as they are.
        this.state.set(resource, {
          kind,
          id: recorded.id,
          inputs,
          outputs: recorded.properties ?? {},
          initError: recorded.message,
        });
      }
      return false;
    }
  }

  /**
   * The program's release of the creation tag once the engine has recorded a created object's id
   * (sdk/persisted.ts `releaseWhenRecorded`), through the provider module's `retagObject`. A failure is a
   * warning there, as here (the next update releases the tag): it fails no run.
   */
  private async release(resource: string, kind: TaggedKind, id: string, outs: Inputs): Promise<void> {
    try {
      await retagObject(kind, client(), outs, id, {
        owner: outs.creationScope as string,
        what: `${kind} "${resource}"`,
        describe: "the engine recorded the id: releasing the creation tag of",
      });
    } catch (error) {
      this.releaseFailures.push(`${resource}: ${String((error as Error)?.message ?? error)}`);
    }
  }

  /**
   * Runs `up` until the resource converges; returns the number of runs it took. After the refusal of an
   * attachment whose attach lost its answer where the service does not show attachments ({@link LOST_ATTACH}),
   * the next run sets the `adoptId` the refusal names, as its message tells the user to.
   */
  async up(resource: string, kind: KindName, args: Inputs): Promise<number> {
    for (let run = 1; run <= this.maxRuns; run++) {
      if (await this.upOnce(resource, kind, args)) return run;
      const last = this.errors.filter((e) => e.resource === resource).at(-1);
      const adopt =
        last && LOST_ATTACH.test(last.message) ? /set adoptId: "([^"]+)"/.exec(last.message) : null;
      if (adopt) args = { ...args, adoptId: adopt[1] };
    }
    throw new Error(`${resource} did not converge in ${this.maxRuns} runs: ${this.describeErrors(resource)}`);
  }

  /** `pulumi refresh` of one resource, repeated while the read itself fails. */
  async refresh(resource: string): Promise<number> {
    const entry = this.state.get(resource);
    if (!entry) throw new Error(`${resource} is not in the state`);
    for (let run = 1; run <= this.maxRuns; run++) {
      try {
        const result = await this.kindOf(entry.kind).read(entry.id, entry.outputs);
        if (result.id === "") {
          this.state.delete(resource);
          return run;
        }
        this.keep(resource, entry.kind, result.props);
        if (result.inputs) this.keep(resource, entry.kind, result.inputs);
        this.state.set(resource, {
          ...entry,
          id: result.id,
          inputs: { ...(result.inputs ?? entry.inputs), __provider: entry.inputs.__provider },
          outputs: { ...result.props, __provider: entry.outputs.__provider },
        });
        return run;
      } catch (error) {
        this.recordError(resource, entry.kind, "read", error);
      }
    }
    throw new Error(`${resource} could not be refreshed: ${this.describeErrors(resource)}`);
  }

  /** `pulumi destroy` of one resource, repeated while delete fails (the engine keeps it in state). */
  async destroy(resource: string): Promise<number> {
    const entry = this.state.get(resource);
    if (!entry) throw new Error(`${resource} is not in the state`);
    for (let run = 1; run <= this.maxRuns; run++) {
      try {
        await this.kindOf(entry.kind).delete(entry.id, entry.outputs);
        this.state.delete(resource);
        return run;
      } catch (error) {
        this.recordError(resource, entry.kind, "delete", error);
      }
    }
    throw new Error(`${resource} could not be deleted: ${this.describeErrors(resource)}`);
  }

  /** The state's id of `resource`. */
  idOf(resource: string): string {
    const entry = this.state.get(resource);
    if (!entry) throw new Error(`${resource} is not in the state`);
    return entry.id;
  }

  private describeErrors(resource: string): string {
    return this.errors
      .filter((e) => e.resource === resource)
      .map((e) => `[${e.operation}] ${e.message}`)
      .join(" | ");
  }
}

// ---- The service compared with the state ----

/** Ids per kind, sorted. */
export interface IdsByKind {
  kaas: string[];
  backups: string[];
  registries: string[];
  /** `<kaasId>:<volumeUri>`, the VolumeAttachment id. */
  attachments: string[];
}

/** What the service holds, and how it compares with the state. */
export interface Reconciliation {
  /** Objects live in the service (not `Deleted`). */
  live: IdsByKind;
  /** Live objects the state does not know. */
  orphans: string[];
  /** State entries the service does not hold. */
  missing: string[];
  /**
   * Tags of this package (creation tags, owner tags) carried by more than one object, tombstones included: a
   * resource whose create made two objects.
   */
  duplicateTags: string[];
  /** Live objects still carrying a creation tag: a create whose object was never released (recorded as owned). */
  unreleased: string[];
  /** Live objects that are not settled (`Active`), with their state. */
  unsettled: string[];
  /** Objects the service ever created per kind (its id counters): more than the state knows means a duplicate. */
  created: Record<"kaas" | "backup" | "registry", number>;
}

const sorted = (ids: string[]) => [...ids].sort();

/** The ids the simulated state holds, per kind. */
export function stateIds(engine: SimulatedEngine): IdsByKind {
  const of = (kind: KindName) =>
    sorted([...engine.state.values()].filter((e) => e.kind === kind).map((e) => e.id));
  return {
    kaas: of("Kaas"),
    backups: of("KaasBackup"),
    registries: of("Registry"),
    attachments: of("VolumeAttachment"),
  };
}

/** Compares what the emulator holds with the simulated state. */
export function reconcile(emulator: Emulator, engine: SimulatedEngine): Reconciliation {
  const snapshot = emulator.state();
  const all = [...snapshot.kaas, ...snapshot.backups, ...snapshot.registries];
  const isLive = (r: { status?: { state?: string | null } | null }) => r.status?.state !== "Deleted";
  const liveKaas = (snapshot.kaas as KaasResponse[]).filter(isLive);
  const live: IdsByKind = {
    kaas: sorted(liveKaas.map((r) => r.metadata.id)),
    backups: sorted(snapshot.backups.filter(isLive).map((r) => r.metadata.id)),
    registries: sorted(snapshot.registries.filter(isLive).map((r) => r.metadata.id)),
    // The service's truth, not its answers: under the published interface no answer shows attachments, and
    // an accepted detach is all a client can know of it (it is `detaching` until the service is done).
    attachments: sorted(
      liveKaas.flatMap((k) =>
        emulator
          .attachments(k.metadata.id)
          .filter((v) => v.state !== "detaching")
          .map((v) => `${k.metadata.id}:${v.uri}`),
      ),
    ),
  };
  const known = stateIds(engine);
  const orphans: string[] = [];
  const missing: string[] = [];
  for (const key of Object.keys(live) as (keyof IdsByKind)[]) {
    orphans.push(...live[key].filter((id) => !known[key].includes(id)));
    missing.push(...known[key].filter((id) => !live[key].includes(id)));
  }
  const byTag = new Map<string, number>();
  for (const r of all) {
    for (const tag of r.metadata.tags ?? []) {
      if (tag.startsWith("pulumi-ct-")) byTag.set(tag, (byTag.get(tag) ?? 0) + 1);
    }
  }
  const unreleased = all
    .filter(isLive)
    .filter((r) =>
      (r.metadata.tags ?? []).some((t) => t.startsWith("pulumi-ct-") && !t.startsWith("pulumi-ct-owner:")),
    )
    .map((r) => r.metadata.id);
  const unsettled = all
    .filter(isLive)
    .filter((r) => r.status?.state !== "Active")
    .map((r) => `${r.metadata.id}: ${r.status?.state}`);
  return {
    live,
    orphans,
    missing,
    duplicateTags: [...byTag].filter(([, n]) => n > 1).map(([tag]) => tag),
    unreleased,
    unsettled,
    created: { ...snapshot.counters },
  };
}
