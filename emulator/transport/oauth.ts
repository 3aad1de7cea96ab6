/**
 * The OAuth2 token endpoint `POST /oauth2/token` (client credentials, RFC 6749 §4.4). It is part of the
 * service but not of the API: no fault injection, no bearer auth.
 */
import type { IncomingMessage } from "node:http";
import type { EmulatorCore } from "../composition/core";
import { problemReply } from "../base/http";
import { ApiProblem } from "../base/problems";
import type { Reply } from "../base/api";

/** Path of the token endpoint. */
export const TOKEN_PATH = "/oauth2/token";

/** Answers a request of the token endpoint whose body was read (`raw`). */
export function tokenEndpointReply(
  core: EmulatorCore,
  req: IncomingMessage,
  raw: Buffer | "too-large",
  traceId: string,
): Reply {
  if (req.method !== "POST") {
    return problemReply(
      new ApiProblem("methodNotAllowed", { detail: "Use POST.", headers: { Allow: "POST" } }),
      TOKEN_PATH,
      traceId,
    );
  }
  const answer = core.issuer.exchange(
    raw === "too-large" ? "" : raw.toString("utf8"),
    req.headers.authorization,
    core.clock.now(),
    core.svc.config.tokenTtlSeconds,
  );
  return { status: answer.status, body: answer.body, headers: { "Cache-Control": "no-store" } };
}
