/**
 * The request pipeline of everything outside the control API, in order: request log entry, body read, then
 * either the token endpoint (`oauth.ts`) or, for the API, a hold before processing (`holds.ts`), the fault
 * decision (latency, dropped connection, rate limit, injected status), the body size limit, API dispatch
 * (`dispatch.ts`), a hold after processing, and optionally a connection dropped after processing or a gateway
 * status answered instead of the real answer.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EmulatorCore } from "../composition/core";
import { dispatchApi } from "./dispatch";
import type { FaultDecision, InjectableStatus } from "../composition/faults";
import { MAX_BODY_BYTES, asProblem, problemReply, readBody, send, traceIdOf } from "../base/http";
import { TOKEN_PATH, tokenEndpointReply } from "./oauth";
import { ApiProblem, FAULT_PROBLEMS } from "../base/problems";
import type { RequestLogEntry } from "../base/requests";
import type { Reply } from "../base/api";

/** The problem of an injected status; 429 and 503 carry `Retry-After` like real ones. */
function faultProblem(core: EmulatorCore, status: InjectableStatus, detail: string): ApiProblem {
  const headers: Record<string, string> =
    status === 429 || status === 503 ? { "Retry-After": String(core.faults.retryAfterSeconds) } : {};
  return new ApiProblem(FAULT_PROBLEMS[status], { detail, headers });
}

/** Throws the problem the fault configuration answers instead of processing: rate limit, injected status. */
function throwInjectedFault(core: EmulatorCore, decision: FaultDecision): void {
  const retryAfter = core.faults.takeToken();
  if (retryAfter !== undefined) {
    throw new ApiProblem("rateLimited", {
      detail: "Rate limit exceeded.",
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  if (decision.status !== undefined) throw faultProblem(core, decision.status, "Injected fault.");
}

/**
 * The reply of an API request that was not dropped before processing: a problem for any refusal.
 * `processed` is true when the request reached API dispatch, whatever it answered.
 */
function apiReply(
  core: EmulatorCore,
  req: IncomingMessage,
  url: URL,
  raw: Buffer | "too-large",
  decision: FaultDecision,
  traceId: string,
): { reply: Reply; processed: boolean } {
  let processed = false;
  try {
    throwInjectedFault(core, decision);
    if (raw === "too-large")
      throw new ApiProblem("payloadTooLarge", { detail: `Bodies are limited to ${MAX_BODY_BYTES} bytes.` });
    processed = true;
    return { reply: dispatchApi(core, req, url, raw), processed };
  } catch (error) {
    // The reading of the moment: `PUT /_emulator/config` may have changed it since the last answer.
    const reply = problemReply(asProblem(error), url.pathname, traceId, core.svc.config.wire.errors);
    return { reply, processed };
  }
}

/** Records `entry` as dropped and destroys the connection without an answer. */
function drop(
  core: EmulatorCore,
  req: IncomingMessage,
  entry: RequestLogEntry,
  when: "before" | "after",
): void {
  entry.dropped = when;
  core.log.record(entry);
  req.socket.destroy();
}

/** The `status.state` of an answer of one object, or undefined. */
function answeredState(reply: Reply): string | undefined {
  const body: unknown = reply.body;
  const status: unknown = typeof body === "object" && body !== null ? Reflect.get(body, "status") : undefined;
  const state: unknown =
    typeof status === "object" && status !== null ? Reflect.get(status, "state") : undefined;
  return typeof state === "string" ? state : undefined;
}

/**
 * Waits while a hold of the control API holds the request at `stage` (`holds.ts`). A held request whose client
 * went away meanwhile (a killed run) goes no further: true, and the log records it dropped at that stage.
 */
async function heldAndGone(
  core: EmulatorCore,
  req: IncomingMessage,
  entry: RequestLogEntry,
  raw: Buffer | "too-large",
  stage: "before" | "after",
): Promise<boolean> {
  if (!core.holds.waiting()) return false;
  const body = raw === "too-large" ? "" : raw.toString("utf8");
  const socket = req.socket;
  const closed = () =>
    new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));
  if (!(await core.holds.pass(stage, entry, body, closed)) || !socket.destroyed) return false;
  entry.dropped = stage;
  core.log.record(entry);
  return true;
}

/** Serves a request of the API or of the token endpoint. */
export async function serveApi(
  core: EmulatorCore,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const entry = core.log.open(req.method ?? "GET", url, core.clock.now());
  const traceId = traceIdOf(entry.seq);
  let raw: Buffer | "too-large";
  try {
    raw = await readBody(req);
  } catch {
    entry.dropped = "before";
    core.log.record(entry);
    return;
  }
  if (url.pathname === TOKEN_PATH) {
    const reply = tokenEndpointReply(core, req, raw, traceId);
    entry.status = reply.status;
    core.log.record(entry);
    send(res, reply);
    return;
  }

  if (await heldAndGone(core, req, entry, raw, "before")) return;
  const decision = core.faults.decide(entry.method);
  if (decision.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, decision.latencyMs));
  if (decision.dropBefore) return drop(core, req, entry, "before");
  const { reply, processed } = apiReply(core, req, url, raw, decision, traceId);
  entry.status = reply.status;
  const state = answeredState(reply);
  if (state !== undefined) entry.state = state;
  if (await heldAndGone(core, req, entry, raw, "after")) return;
  // The request was processed (a create created); the client never learns the outcome.
  if (decision.dropAfter) return drop(core, req, entry, "after");
  if (decision.statusAfter !== undefined && processed) {
    // A gateway gave up after forwarding the request (docs/wire.md "Errors"): the real answer is lost, and the client
    // sees a gateway status that says nothing of whether the request was carried out.
    entry.processedStatus = reply.status;
    entry.status = decision.statusAfter;
    core.log.record(entry);
    const problem = faultProblem(core, decision.statusAfter, "Injected fault after processing.");
    send(res, problemReply(problem, url.pathname, traceId, core.svc.config.wire.errors));
    return;
  }
  core.log.record(entry);
  send(res, reply);
}
