/**
 * The emulator app factory: `createEmulator(options)` builds the service's parts (`core.ts`: state, clock,
 * rules, faults, auth, request log) and a `node:http` request listener, separate from listening
 * (`startEmulator` in `server.ts` listens). The returned `Emulator` also exposes every control operation
 * (`operations.ts`) as a method for in-process tests.
 *
 * The listener sends `/_emulator/*` to the control API (`control.ts`) and everything else through the request
 * pipeline (`pipeline.ts`: request log, faults, the token endpoint, API dispatch).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { KaasResponse } from "../../schemas/kaas";
import type { EmulatorClock } from "../base/clock";
import type { EmulatorConfig, EmulatorConfigInput } from "../base/config";
import { CONTROL_PREFIX, serveControl } from "./control";
import { createCore, type EmulatorCore, type EmulatorOptions } from "../composition/core";
import type { FaultConfig } from "../composition/faults";
import { send } from "../base/http";
import { checkHoldSpec, type HoldSpec, type HoldStatus, type RequestHold } from "../base/holds";
import { kubeconfigToken } from "../kinds/kaas/kind";
import * as operations from "../composition/operations";
import type { AttachmentTruth, EmulatorStateSnapshot, ResourcePatch } from "../composition/operations";
import { serveApi } from "./pipeline";
import type { RequestLogEntry } from "../base/requests";
import { seedResources, type SeedRequest, type SeedResult } from "../composition/seed";
import { ApiProblem, validationProblem } from "../base/problems";
import type { AnyResponse, Kind } from "../kinds/index";

export type { EmulatorOptions } from "../composition/core";
export type { HoldSpec, HoldStage, HoldStatus, RequestHold } from "../base/holds";
export type { AttachmentTruth, EmulatorStateSnapshot, ResourcePatch } from "../composition/operations";
export type { RequestLogEntry } from "../base/requests";
export type { SeedRequest, SeedResult } from "../composition/seed";

/** The emulator: a request listener plus the control operations. */
export interface Emulator {
  /** `node:http` request listener serving the API, the token endpoint and the control API. */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  readonly namespace: string;
  readonly clock: EmulatorClock;
  /** Emulator time, epoch ms. */
  now(): number;
  /** Moves the clock by `ms`; returns the new time. */
  advanceClock(ms: number): number;
  /** Sets the clock; returns the new time. */
  setClock(epochMs: number): number;
  /** The request log (a copy). */
  requests(): RequestLogEntry[];
  clearRequests(): void;
  getFaults(): FaultConfig;
  /** Replaces the fault configuration (missing keys take defaults) and reseeds the generator. */
  setFaults(faults: Partial<FaultConfig>): FaultConfig;
  getConfig(): EmulatorConfig;
  /** Deep-merges `patch` into the configuration. */
  updateConfig(patch: EmulatorConfigInput): EmulatorConfig;
  /**
   * Forgets every resource, request, issued token, clock offset and hold (a held request goes on); faults and
   * config return to the options.
   */
  reset(): void;
  /**
   * Holds the `nth` API request matching `spec`, before it is processed or after, its answer withheld, until
   * released (`holds.ts`). Throws a 400 validation problem naming each bad field.
   */
  hold(spec: HoldSpec): RequestHold;
  /** Every hold since the last reset, oldest first. */
  holds(): HoldStatus[];
  /** Releases the hold `id` (a held request goes on); throws a 404 problem when there is none. */
  releaseHold(id: string): HoldStatus;
  /** Releases every hold and forgets them; returns how many there were. */
  releaseHolds(): number;
  state(): EmulatorStateSnapshot;
  /**
   * Stores `count` settled (`Active`) objects of one kind in a project, named `<namePrefix>-0001`... (default
   * prefix `seed`) without tags, with ids from the counters of the create path; no request is logged. Throws
   * a 400 validation problem naming each bad field (`count` is an integer from 1 to 5000).
   */
  seed(request: SeedRequest): SeedResult;
  /** Simulates a platform upgrade job: the cluster's live version becomes `version`. */
  platformUpgrade(kaasId: string, version: string): KaasResponse;
  /** The volume attachments the cluster holds, in attach order, shown by the wire reading or not. */
  attachments(kaasId: string): AttachmentTruth[];
  /**
   * The node ids of each pool of the cluster, whatever the wire reading `nodeIds` lets responses show: what
   * `kubectl get nodes` shows a user of the real service, which has no endpoint listing nodes.
   */
  nodes(kaasId: string): { nodePool: string; nodeIds: string[] }[];
  /** Simulates the autoscaler (or any out-of-band scaling): the pool gets `nodes` nodes. */
  scaleNodePool(kaasId: string, poolName: string, nodes: number): KaasResponse;
  patchResource(kind: Kind, id: string, patch: ResourcePatch): AnyResponse;
  /** Revokes every issued OAuth2 token; returns how many. */
  revokeTokens(): number;
  /** The bearer token in the cluster's kubeconfig (a secret: for tests that check redaction). */
  kubeconfigToken(kaasId: string): string;
  /** Writes the state file now (no-op without one). */
  persist(): void;
}

/** The request listener: the control API below `CONTROL_PREFIX`, the request pipeline for the rest. */
function requestListener(core: EmulatorCore, emulator: () => Emulator) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", "http://emulator.invalid");
    const isControl = url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`);
    const work = isControl ? serveControl(emulator(), req, res, url) : serveApi(core, req, res, url);
    work.catch((error: unknown) => {
      send(res, {
        status: 500,
        body: {
          title: "Internal Server Error",
          status: 500,
          detail: String((error as Error)?.message ?? error),
        },
      });
    });
  };
}

/** Builds an emulator. It does not listen: pass `emulator.handler` to `http.createServer`, or use `startEmulator`. */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const core = createCore(options);
  const { clock, faults, issuer, log, svc } = core;
  const emulator: Emulator = {
    handler: requestListener(core, () => emulator),
    namespace: core.namespace,
    clock,
    now: () => clock.now(),
    advanceClock(ms) {
      const now = clock.advance(ms);
      core.persist();
      return now;
    },
    setClock(epochMs) {
      const now = clock.set(epochMs);
      core.persist();
      return now;
    },
    requests: () => log.list(),
    clearRequests: () => log.clear(),
    getFaults: () => faults.get(),
    setFaults: (input) => operations.setFaults(core, input),
    getConfig: () => structuredClone(svc.config),
    updateConfig: (patch) => operations.updateConfig(core, patch),
    reset: () => operations.reset(core),
    hold(spec) {
      const problems = checkHoldSpec(spec as Record<string, unknown>);
      if (problems.length > 0)
        throw validationProblem(
          problems,
          problems.map((p) => `${p.fieldName}: ${p.errorMessage}`).join("; "),
        );
      return core.holds.add(spec);
    },
    holds: () => core.holds.list(),
    releaseHold(id) {
      const released = core.holds.release(id);
      if (!released) throw new ApiProblem("notFound", { detail: `No hold ${id}.` });
      return released;
    },
    releaseHolds: () => core.holds.clear(),
    state: () => operations.stateSnapshot(core),
    seed: (request) => seedResources(core, request),
    platformUpgrade: (kaasId, version) => operations.platformUpgrade(core, kaasId, version),
    attachments: (kaasId) => operations.attachmentsOf(core, kaasId),
    nodes: (kaasId) => operations.nodesOf(core, kaasId),
    scaleNodePool: (kaasId, poolName, nodes) => operations.scaleNodePool(core, kaasId, poolName, nodes),
    patchResource: (kind, id, patch) => operations.patchResource(core, kind, id, patch),
    revokeTokens: () => issuer.revokeAll(),
    kubeconfigToken: (kaasId) => kubeconfigToken(core.seed, kaasId),
    persist: () => core.persist(),
  };
  return emulator;
}
