/**
 * The test-only control API under the reserved prefix `/_emulator` (no auth, no faults, not in the request
 * log). Every operation is also a method of the `Emulator` object for in-process tests:
 *
 * | Method | Path | Body | Answer |
 * |---|---|---|---|
 * | GET | `/_emulator/health` | | `{ok: true}` |
 * | GET / DELETE | `/_emulator/requests` | | `{requests: RequestLogEntry[]}` / 204 |
 * | GET / POST | `/_emulator/clock` | `{advanceMs}` or `{setNow}` (ISO or epoch ms) | `{now, nowMs, offsetMs}` |
 * | GET / PUT | `/_emulator/faults` | `Partial<FaultConfig>` (replaces, reseeds) | `FaultConfig` |
 * | GET / PUT | `/_emulator/config` | `EmulatorConfigInput` (deep merge) | `EmulatorConfig` |
 * | POST | `/_emulator/reset` | | 204 |
 * | POST | `/_emulator/seed` | `SeedRequest` (`{projectId, kind, count, namePrefix?, kaasId?}`) | 201 `SeedResult` |
 * | GET | `/_emulator/state` | | `EmulatorStateSnapshot` |
 * | GET | `/_emulator/kaas/{id}/attachments` | | `{attachments: AttachmentTruth[]}` (whatever responses show) |
 * | GET | `/_emulator/kaas/{id}/nodes` | | `{nodes: [{nodePool, nodeIds}]}` (whatever responses show) |
 * | POST | `/_emulator/kaas/{id}/platform-upgrade` | `{version}` | KaaS response |
 * | POST | `/_emulator/kaas/{id}/nodePools/{pool}/scale` | `{nodes}` | KaaS response |
 * | PATCH | `/_emulator/resources/{kind}/{id}` | `ResourcePatch` | the resource's response |
 * | DELETE | `/_emulator/tokens` | | `{revoked}` |
 * | POST | `/_emulator/holds` | `HoldSpec` (`{method?, pathPattern?, bodyPattern?, state?, nth?, when?}`) | 201 `HoldStatus` |
 * | GET / DELETE | `/_emulator/holds` | | `{holds: HoldStatus[]}` / `{released}` (every hold released, forgotten) |
 * | GET | `/_emulator/holds/{id}` | | `HoldStatus` (`reached` once a request is held) |
 * | POST | `/_emulator/holds/{id}/release` | | `HoldStatus` (the held request goes on) |
 *
 * A hold (`holds.ts`) keeps the `nth` API request matching it waiting, `before` it is processed or `after`, its
 * answer withheld, until it is released: a test kills a client at an exact request that way. A held request
 * whose client went away by then is not processed (`before`) or not answered (`after`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Emulator } from "./emulator";
import { asProblem, parseJson, problemReply, readBody, send, traceIdOf } from "../base/http";
import { ApiProblem } from "../base/problems";
import { matchRoute } from "./routes";
import { seedRequestOf } from "../composition/seed";
import type { Reply } from "../base/api";
import { kindNames } from "../generic/tables";
import { isRecord } from "../../schemas/typed";
import { KINDS, type Kind } from "../kinds";

/** The reserved prefix of the control API. */
export const CONTROL_PREFIX = "/_emulator";

interface ControlRoute {
  method: string;
  pattern: string;
  handler: (emu: Emulator, params: Record<string, string>, body: unknown) => Reply;
}

function objectBody(body: unknown): Record<string, unknown> {
  if (!isRecord(body) || Array.isArray(body)) {
    throw new ApiProblem("validation", {
      errors: [{ fieldName: "body", errorMessage: "must be a JSON object" }],
      detail: "The control API expects a JSON object.",
    });
  }
  return body;
}

/** A route that reads a JSON object body and answers `status` with what `apply` makes of it. */
function objectBodyRoute(
  method: string,
  pattern: string,
  status: number,
  apply: (emu: Emulator, body: Record<string, unknown>) => unknown,
): ControlRoute {
  return {
    method,
    pattern,
    handler: (emu, _params, body) => ({ status, body: apply(emu, objectBody(body)) }),
  };
}

function badField(fieldName: string, errorMessage: string): ApiProblem {
  return new ApiProblem("validation", {
    errors: [{ fieldName, errorMessage }],
    detail: `${fieldName}: ${errorMessage}`,
  });
}

function clockReply(emu: Emulator): Reply {
  const now = emu.now();
  return {
    status: 200,
    body: { now: new Date(now).toISOString(), nowMs: now, offsetMs: emu.clock.offsetMs },
  };
}

/** The kind a control path names, by its name (`backup`) or its state-file field (`backups`). */
function kindNamed(name: string): Kind | undefined {
  return kindNames(KINDS).find((kind) => kind === name || KINDS[kind].stateField === name);
}

/** The names `kindNamed` is told in a refusal: each kind's state-file field, `kaas, backups or registries`. */
function kindNamesText(): string {
  const fields = kindNames(KINDS).map((kind) => KINDS[kind].stateField);
  return `${fields.slice(0, -1).join(", ")} or ${fields[fields.length - 1]}`;
}

const CONTROL_ROUTES: ControlRoute[] = [
  { method: "GET", pattern: "/health", handler: () => ({ status: 200, body: { ok: true } }) },
  {
    method: "GET",
    pattern: "/requests",
    handler: (emu) => ({ status: 200, body: { requests: emu.requests() } }),
  },
  {
    method: "DELETE",
    pattern: "/requests",
    handler: (emu) => {
      emu.clearRequests();
      return { status: 204 };
    },
  },
  { method: "GET", pattern: "/clock", handler: (emu) => clockReply(emu) },
  {
    method: "POST",
    pattern: "/clock",
    handler: (emu, _params, body) => {
      const b = objectBody(body);
      if (b.advanceMs !== undefined) {
        if (typeof b.advanceMs !== "number" || !Number.isFinite(b.advanceMs))
          throw badField("advanceMs", "must be a number");
        emu.advanceClock(b.advanceMs);
      } else if (b.setNow !== undefined) {
        const target =
          typeof b.setNow === "number" ? b.setNow : typeof b.setNow === "string" ? Date.parse(b.setNow) : NaN;
        if (!Number.isFinite(target))
          throw badField("setNow", "must be an ISO date-time or epoch milliseconds");
        emu.setClock(target);
      } else {
        throw badField("body", "needs advanceMs or setNow");
      }
      return clockReply(emu);
    },
  },
  { method: "GET", pattern: "/faults", handler: (emu) => ({ status: 200, body: emu.getFaults() }) },
  objectBodyRoute("PUT", "/faults", 200, (emu, body) => emu.setFaults(body)),
  { method: "GET", pattern: "/config", handler: (emu) => ({ status: 200, body: emu.getConfig() }) },
  objectBodyRoute("PUT", "/config", 200, (emu, body) => emu.updateConfig(body)),
  {
    method: "POST",
    pattern: "/reset",
    handler: (emu) => {
      emu.reset();
      return { status: 204 };
    },
  },
  {
    method: "POST",
    pattern: "/seed",
    handler: (emu, _params, body) => ({
      status: 201,
      // Every field of the body is checked, and the body refused whole (400) when one is wrong.
      body: emu.seed(seedRequestOf(objectBody(body))),
    }),
  },
  { method: "GET", pattern: "/state", handler: (emu) => ({ status: 200, body: emu.state() }) },
  {
    method: "GET",
    pattern: "/kaas/:id/attachments",
    handler: (emu, params) => ({ status: 200, body: { attachments: emu.attachments(params.id) } }),
  },
  {
    method: "GET",
    pattern: "/kaas/:id/nodes",
    handler: (emu, params) => ({ status: 200, body: { nodes: emu.nodes(params.id) } }),
  },
  {
    method: "POST",
    pattern: "/kaas/:id/platform-upgrade",
    handler: (emu, params, body) => {
      const version = objectBody(body).version;
      if (typeof version !== "string" || version === "")
        throw badField("version", "must be a non-empty string");
      return { status: 200, body: emu.platformUpgrade(params.id, version) };
    },
  },
  {
    method: "POST",
    pattern: "/kaas/:id/nodePools/:pool/scale",
    handler: (emu, params, body) => {
      const nodes = objectBody(body).nodes;
      if (typeof nodes !== "number" || !Number.isInteger(nodes) || nodes < 0) {
        throw badField("nodes", "must be an integer >= 0");
      }
      return { status: 200, body: emu.scaleNodePool(params.id, params.pool, nodes) };
    },
  },
  {
    method: "PATCH",
    pattern: "/resources/:kind/:id",
    handler: (emu, params, body) => {
      const kind = kindNamed(params.kind);
      if (!kind) throw badField("kind", `must be ${kindNamesText()}`);
      return { status: 200, body: emu.patchResource(kind, params.id, objectBody(body)) };
    },
  },
  {
    method: "DELETE",
    pattern: "/tokens",
    handler: (emu) => ({ status: 200, body: { revoked: emu.revokeTokens() } }),
  },
  objectBodyRoute("POST", "/holds", 201, (emu, body) => emu.hold(body).status()),
  { method: "GET", pattern: "/holds", handler: (emu) => ({ status: 200, body: { holds: emu.holds() } }) },
  {
    method: "DELETE",
    pattern: "/holds",
    handler: (emu) => ({ status: 200, body: { released: emu.releaseHolds() } }),
  },
  {
    method: "GET",
    pattern: "/holds/:id",
    handler: (emu, params) => {
      const hold = emu.holds().find((h) => h.id === params.id);
      if (!hold) throw new ApiProblem("notFound", { detail: `No hold ${params.id}.` });
      return { status: 200, body: hold };
    },
  },
  {
    method: "POST",
    pattern: "/holds/:id/release",
    handler: (emu, params) => ({ status: 200, body: emu.releaseHold(params.id) }),
  },
];

/** Handles a control API request; `path` is below `CONTROL_PREFIX`. */
export function handleControl(emu: Emulator, method: string, path: string, body: unknown): Reply {
  const match = matchRoute(CONTROL_ROUTES, method, path);
  if (match.kind === "none") {
    throw new ApiProblem("routeNotFound", {
      detail: `No control route matches ${method} ${CONTROL_PREFIX}${path}.`,
    });
  }
  if (match.kind === "method") {
    throw new ApiProblem("methodNotAllowed", {
      detail: `${method} is not allowed on ${CONTROL_PREFIX}${path}.`,
      headers: { Allow: match.allowed.join(", ") },
    });
  }
  return match.route.handler(emu, match.params, body);
}

/** Serves a request below `CONTROL_PREFIX`: a JSON body, no auth, no faults, no request log entry. */
export async function serveControl(
  emu: Emulator,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const path = url.pathname.slice(CONTROL_PREFIX.length) || "/";
  let reply: Reply;
  try {
    const raw = await readBody(req);
    const body = raw !== "too-large" && raw.length > 0 ? parseJson(raw) : undefined;
    reply = handleControl(emu, req.method ?? "GET", path, body);
  } catch (error) {
    reply = problemReply(asProblem(error), url.pathname, traceIdOf(0));
  }
  send(res, reply);
}
