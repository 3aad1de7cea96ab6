/**
 * The control operations of the emulator on its state, outside the API: configuration and faults at run
 * time, reset, snapshots, and the out-of-band events of the platform (upgrade jobs, autoscaling, any change
 * of a stored resource). The control API (`control.ts`) serves them over HTTP; the `Emulator` object exposes
 * them as methods.
 */
import type { KaasResponse } from "../../schemas/kaas";
import { compareVersions, VERSION_PATTERN } from "../base/versions";
import { iso } from "../base/clock";
import { CONFIG_KEYS, mergeConfig, mergePatch } from "../base/config";
import { checkEmulatorConfig } from "./config";
import type { EmulatorCore } from "./core";
import { checkFaults, defaultFaults, type FaultConfig } from "./faults";
import { resizePool, type KaasRecord } from "../kinds/kaas/record";
import { renderKaas } from "../kinds/kaas/render";
import { byStateField } from "../generic/tables";
import {
  KINDS,
  type AnyRecord,
  type EmulatorConfig,
  type EmulatorConfigInput,
  type AnyResponse,
  type Kind,
  type RecordByKind,
  type ResponseByKind,
  type StateFieldByKind,
} from "../kinds";
import { ApiProblem, type WireFieldError } from "../base/problems";
import type { LifeState } from "../base/record";
import { checkWireOverrides } from "../base/wireOverrides";

/** Out-of-band change of a stored resource (`PATCH /_emulator/resources/{kind}/{id}`). */
export interface ResourcePatch {
  name?: string;
  tags?: string[];
  /** Forces the lifecycle state (settled: no further transition, except `Deleted` which still expires). */
  state?: LifeState;
  failureReason?: string | null;
  /** Disables the resource for these reasons (`status.disableStatusInfo`); an empty list enables it again. */
  disabledReasons?: string[];
  /** JSON merge patch (RFC 7396) applied to the stored properties (see the record type of the kind module for their shape). */
  properties?: Record<string, unknown>;
  /**
   * Values answered in place of the rendered ones, by JSON pointer into the response (`/metadata/id`,
   * `/properties/nodePools/0/name`), in every answer that shows the resource: a malformed object such as
   * the published schemas allow (`base/wireOverrides.ts`). Replaces the earlier overrides; `{}` removes them.
   */
  wireOverrides?: Record<string, unknown>;
}

/**
 * A volume attachment as the emulator holds it, whatever the wire reading lets responses show
 * (`GET /_emulator/kaas/{id}/attachments`): the truth tests check against.
 */
export interface AttachmentTruth {
  uri: string;
  nodePoolName: string | null;
  /** Null once the node was removed (the volume stays attached to the cluster). */
  nodeId: string | null;
  sizeGb: number;
  /**
   * `attaching` (accepted, not yet shown), `attached`, or `detaching` (a detach was accepted; it still shows
   * until the detach duration passes). Attaching and attached count against the storage limit.
   */
  state: "attaching" | "attached" | "detaching";
}

/**
 * Everything the emulator holds, tombstones included (`GET /_emulator/state`): the time, the ids handed out of
 * each kind, and the responses of each kind's records under the kind's state-file field (`kaas`, `backups`,
 * `registries`).
 */
export type EmulatorStateSnapshot = {
  now: string;
  counters: Record<Kind, number>;
} & Record<StateFieldByKind[Kind], AnyResponse[]>;

/** A 400 validation problem listing `problems`. */
function invalid(problems: WireFieldError[]): ApiProblem {
  return new ApiProblem("validation", {
    detail: problems.map((p) => `${p.fieldName}: ${p.errorMessage}`).join("; "),
    errors: problems,
  });
}

/** The stored cluster, after settling every lifecycle; 404 when there is none. */
function kaasOr404(core: EmulatorCore, id: string): KaasRecord {
  core.svc.settleAll();
  const rec = core.store.records.kaas.get(id);
  if (!rec) throw core.svc.notFound("kaas", id);
  return rec;
}

/** Replaces the fault configuration (missing keys take defaults) and reseeds the generator. */
export function setFaults(core: EmulatorCore, input: Partial<FaultConfig>): FaultConfig {
  const next: FaultConfig = { ...defaultFaults(), seed: core.seed, ...input };
  const problems = checkFaults(next);
  if (problems.length > 0) throw invalid(problems);
  core.faults.set(next);
  return core.faults.get();
}

/** Deep-merges `patch` into the configuration; refuses unknown keys and invalid results. */
export function updateConfig(core: EmulatorCore, patch: EmulatorConfigInput): EmulatorConfig {
  const unknown = Object.keys(patch).filter((k) => !CONFIG_KEYS.some((key) => key === k));
  if (unknown.length > 0) {
    throw new ApiProblem("validation", {
      detail: `Unknown configuration key(s): ${unknown.join(", ")}.`,
      errors: unknown.map((k) => ({
        fieldName: k,
        errorMessage: `is not a configuration key (known: ${CONFIG_KEYS.join(", ")})`,
      })),
    });
  }
  const next = mergeConfig(core.svc.config, patch);
  const problems = checkEmulatorConfig(next);
  if (problems.length > 0) throw invalid(problems);
  core.svc.config = next;
  return structuredClone(core.svc.config);
}

/** Forgets every resource, request, issued token and clock offset; faults and config return to the options. */
export function reset(core: EmulatorCore): void {
  core.store.clear();
  core.clock.offsetMs = 0;
  core.faults.set(core.initialFaults());
  core.svc.config = core.initialConfig();
  core.issuer.revokeAll();
  core.log.reset();
  // Held requests go on (their clients may be waiting); the next hold is `hold-1` again.
  core.holds.reset();
  core.persist();
}

/** The response of a record of kind `kind`, by its kind's module. */
function renderAs<K extends Kind>(core: EmulatorCore, kind: K, rec: RecordByKind[K]): ResponseByKind[K] {
  return KINDS[kind].render(rec, core.svc.renderContext());
}

/** The response of any record. */
function renderRecord(core: EmulatorCore, rec: AnyRecord): AnyResponse {
  return renderAs(core, rec.kind, rec);
}

/** Everything the emulator holds, tombstones included. */
export function stateSnapshot(core: EmulatorCore): EmulatorStateSnapshot {
  core.svc.settleAll();
  const render = (r: AnyRecord) => renderRecord(core, r);
  return {
    now: iso(core.clock.now()),
    counters: { ...core.store.counters },
    ...byStateField(KINDS, (kind) => [...core.store.mapOf(kind).values()].map(render)),
  };
}

/** Simulates a platform upgrade job: the cluster's live version becomes `version` (higher than its own). */
export function platformUpgrade(core: EmulatorCore, kaasId: string, version: string): KaasResponse {
  const rec = kaasOr404(core, kaasId);
  if (!VERSION_PATTERN.test(version)) {
    throw new ApiProblem("validation", {
      detail: `A platform upgrade moves to a Kubernetes version; "${version}" is not one.`,
      errors: [{ fieldName: "version", errorMessage: "must be major.minor or major.minor.patch" }],
    });
  }
  if (compareVersions(version, rec.props.kubernetesVersion) <= 0) {
    throw new ApiProblem("validation", {
      detail: `A platform upgrade moves the version up; KaaS "${kaasId}" runs ${rec.props.kubernetesVersion}.`,
      errors: [{ fieldName: "version", errorMessage: `must be higher than ${rec.props.kubernetesVersion}` }],
    });
  }
  rec.props.kubernetesVersion = version;
  // A scheduled upgrade to a version the platform already reached has nothing left to do.
  if (rec.props.upgradeTo && compareVersions(rec.props.upgradeTo.value, version) <= 0)
    rec.props.upgradeTo = null;
  core.persist();
  return renderKaas(rec, core.svc.renderContext());
}

/** The volume attachments the cluster holds, in attach order, shown by the wire reading or not. */
export function attachmentsOf(core: EmulatorCore, kaasId: string): AttachmentTruth[] {
  const rec = kaasOr404(core, kaasId);
  const now = core.clock.now();
  return rec.props.attachments.map((a) => ({
    uri: a.uri,
    nodePoolName: a.nodePoolName,
    nodeId: a.nodeId,
    sizeGb: a.sizeGb,
    state: a.visibleUntil !== null ? "detaching" : a.visibleFrom > now ? "attaching" : "attached",
  }));
}

/** The node ids of each pool of the cluster, shown by the wire reading or not. */
export function nodesOf(core: EmulatorCore, kaasId: string): { nodePool: string; nodeIds: string[] }[] {
  return kaasOr404(core, kaasId).props.nodePools.map((pool) => ({
    nodePool: pool.name,
    nodeIds: [...pool.nodeIds],
  }));
}

/** Simulates the autoscaler (or any out-of-band scaling): the pool gets `nodes` nodes. */
export function scaleNodePool(
  core: EmulatorCore,
  kaasId: string,
  poolName: string,
  nodes: number,
): KaasResponse {
  const rec = kaasOr404(core, kaasId);
  const pool = rec.props.nodePools.find((p) => p.name === poolName);
  if (!pool)
    throw new ApiProblem("notFound", {
      title: "Node pool not found",
      detail: `No node pool "${poolName}".`,
    });
  resizePool(rec, pool, nodes);
  core.persist();
  return renderKaas(rec, core.svc.renderContext());
}

/** Applies an out-of-band change to a stored resource and answers its response. */
export function patchResource(core: EmulatorCore, kind: Kind, id: string, patch: ResourcePatch): AnyResponse {
  core.svc.settleAll();
  const rec = core.store.mapOf(kind).get(id);
  if (!rec) throw core.svc.notFound(kind, id);
  const now = core.clock.now();
  if (patch.name !== undefined) rec.name = patch.name;
  if (patch.tags !== undefined) rec.tags = [...patch.tags];
  if (patch.disabledReasons !== undefined) rec.disabledReasons = [...patch.disabledReasons];
  if (patch.wireOverrides !== undefined) {
    const problems = checkWireOverrides(patch.wireOverrides);
    if (problems.length > 0) throw invalid(problems);
    rec.wireOverrides = Object.keys(patch.wireOverrides).length > 0 ? { ...patch.wireOverrides } : undefined;
  }
  if (patch.properties !== undefined) {
    // A control-API patch may make the stored properties anything (that is its purpose: malformed objects on
    // demand), so the record's own type does not hold them.
    (rec as { props: unknown }).props = mergePatch(rec.props, patch.properties);
  }
  if (patch.state !== undefined) {
    const deleted = patch.state === "Deleted";
    rec.life = {
      state: patch.state,
      since: now,
      until: deleted ? now + core.svc.config.durations.tombstoneMs : null,
      next: deleted ? "Gone" : null,
      failureReason: patch.failureReason ?? null,
    };
    if (patch.state === "Active" && rec.provisionedAt === null) rec.provisionedAt = now;
  } else if (patch.failureReason !== undefined) {
    rec.life.failureReason = patch.failureReason;
  }
  core.persist();
  return renderRecord(core, rec);
}
