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
import { CONTROL_PREFIX, serveControl } from "./control";
import type { Emulator } from "./emulator";
import { createCore, type EmulatorCore, type EmulatorOptions } from "../composition/core";
import { send } from "../base/http";
import { checkHoldSpec } from "../base/holds";
import { kubeconfigToken } from "../kinds/kaas/handlers";
import * as operations from "../composition/operations";
import { serveApi } from "./pipeline";
import { seedResources } from "../composition/seed";
import { ApiProblem, validationProblem } from "../base/problems";
import { errorMessage } from "../base/errors";

export type { EmulatorOptions } from "../composition/core";
export type { Emulator } from "./emulator";
export type { HoldSpec, HoldStage, HoldStatus, RequestHold } from "../base/holds";
export type { AttachmentTruth, EmulatorStateSnapshot, ResourcePatch } from "../composition/operations";
export type { RequestLogEntry } from "../base/requests";
export type { SeedRequest, SeedResult } from "../composition/seed";

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
          detail: errorMessage(error),
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
      // `checkHoldSpec` reads the spec's own fields, whatever an in-process caller passes.
      const problems = checkHoldSpec({ ...spec });
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
