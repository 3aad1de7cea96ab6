/**
 * `node:http` plumbing of the emulator: reading bodies, writing replies, rendering problems and trace ids.
 * No framework (the package adds no dependencies); the request pipelines compose these.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { WireReadings } from "./config";
import { ApiProblem, PROBLEMS, type ProblemBody } from "./problems";
import type { Reply } from "./api";
import { errorMessage } from "./errors";

/** Largest request body accepted (413 beyond). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Media types of JSON request bodies (spec §4: `application/json`, `text/json`, `application/*+json`). */
export const JSON_TYPES = /^(application\/json|text\/json|application\/[\w.+-]+\+json)\s*(;|$)/i;

/** Reads the whole request body; `too-large` beyond `MAX_BODY_BYTES` (the rest is drained, not kept). */
export function readBody(req: IncomingMessage): Promise<Buffer | "too-large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(tooLarge ? "too-large" : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Parses a JSON request body; a 400 `malformedJson` problem when it is not JSON. */
export function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (error) {
    throw new ApiProblem("malformedJson", { detail: errorMessage(error) });
  }
}

/** A W3C-traceparent-shaped trace id derived from the request sequence number (deterministic). */
export function traceIdOf(seq: number): string {
  const hex = seq.toString(16);
  return `00-${hex.padStart(32, "0")}-${hex.padStart(16, "0")}-01`;
}

/** Writes `reply`: JSON for objects, plain text for strings, an empty body when there is none. */
export function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  if (reply.body === undefined) {
    res.writeHead(reply.status, { ...headers, "Content-Length": "0" });
    res.end();
    return;
  }
  const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
  headers["Content-Type"] ??=
    typeof reply.body === "string" ? "text/plain; charset=utf-8" : "application/json; charset=utf-8";
  res.writeHead(reply.status, { ...headers, "Content-Length": String(Buffer.byteLength(text)) });
  res.end(text);
}

/**
 * The reply of a problem: problem-details JSON, or plain text for the gateway faults that answer so. `errors`
 * is the reading `wire.errors` (default `array`), read by the caller for each answer since the configuration
 * can change at run time.
 */
export function problemReply(
  problem: ApiProblem,
  instance: string,
  traceId: string,
  errors: WireReadings["errors"] = "array",
): Reply {
  const entry = PROBLEMS[problem.code];
  if ("plainText" in entry && entry.plainText)
    return { status: problem.status, body: problem.title, headers: problem.headers };
  // spec §7: problem details are answered as `application/json` (not `application/problem+json`).
  const body: ProblemBody = problem.toBody(instance, traceId, errors);
  return { status: problem.status, body, headers: problem.headers };
}

/** Any error as a problem: `ApiProblem`s as they are, anything else as a 500 naming the error. */
export function asProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  return new ApiProblem("internal", {
    detail: `Emulator error: ${errorMessage(error)}`,
  });
}
