/**
 * API dispatch: what happens to an API request once it passed the fault injection of `pipeline.ts`, in order:
 * bearer auth (401), `api-version` (spec §9: absent, `1` or `1.0`), routing below
 * `/projects/{projectId}/providers/{namespace}` (404/405), content type (415) and JSON (400), lazy settling
 * of lifecycles, then the route: the body against the endpoint's body schema (400), then the endpoint's
 * handler (`routes.ts`).
 */
import type { IncomingMessage } from "node:http";
import type { EmulatorCore } from "../composition/core";
import { JSON_TYPES, parseJson } from "../base/http";
import { ApiProblem } from "../base/problems";
import { API_ROUTES, matchRoute, type Route } from "./routes";
import type { Reply } from "../base/api";

const ACCEPTED_API_VERSIONS = new Set(["1", "1.0"]);

/** Throws a 401 unless the request carries an accepted bearer token. */
function authenticate(core: EmulatorCore, req: IncomingMessage): void {
  const auth = core.issuer.check(req.headers.authorization, core.clock.now());
  if (!auth.ok) {
    throw new ApiProblem("unauthorized", {
      detail: auth.detail,
      headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' },
    });
  }
}

/** Throws unless `api-version` is absent or supported. */
function checkApiVersion(url: URL): void {
  const apiVersion = url.searchParams.get("api-version");
  // spec §9: default `1`; api-notes: the service's own clients send `1.0`. Both are accepted.
  if (apiVersion !== null && !ACCEPTED_API_VERSIONS.has(apiVersion)) {
    throw new ApiProblem("unsupportedApiVersion", {
      detail: `api-version "${apiVersion}" is not supported; use 1 or 1.0.`,
      errors: [
        {
          fieldName: "api-version",
          errorMessage: `"${apiVersion}" is not a supported version (supported: 1, 1.0)`,
        },
      ],
    });
  }
}

/** A request's route below the provider prefix, its parameters and its project. */
interface ResolvedRoute {
  projectId: string;
  route: Route;
  params: Record<string, string>;
}

/** Finds the route of the request: 404 outside the provider prefix or without a route, 405 on another method. */
function resolveRoute(namespace: string, method: string, url: URL): ResolvedRoute {
  const segments = url.pathname.split("/").filter((s) => s !== "");
  const routeNotFound = () =>
    new ApiProblem("routeNotFound", { detail: `No route matches ${method} ${url.pathname}.` });
  if (
    segments.length < 4 ||
    segments[0] !== "projects" ||
    segments[2] !== "providers" ||
    segments[3] !== namespace
  ) {
    throw routeNotFound();
  }
  let projectId: string;
  try {
    projectId = decodeURIComponent(segments[1]);
  } catch {
    throw routeNotFound();
  }
  const match = matchRoute(API_ROUTES, method, `/${segments.slice(4).join("/")}`);
  if (match.kind === "none") throw routeNotFound();
  if (match.kind === "method") {
    throw new ApiProblem("methodNotAllowed", {
      detail: `${method} is not allowed on ${url.pathname}.`,
      headers: { Allow: match.allowed.join(", ") },
    });
  }
  return { projectId, route: match.route, params: match.params };
}

/** The JSON body of the request, undefined when it has none; 415 for another media type, 400 if not JSON. */
function jsonBody(req: IncomingMessage, raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  // spec §4: bodies are accepted as application/json, text/json or application/*+json.
  if (!JSON_TYPES.test(req.headers["content-type"] ?? "")) {
    throw new ApiProblem("unsupportedMediaType", {
      detail: `Content-Type "${req.headers["content-type"] ?? ""}" is not accepted; send application/json.`,
    });
  }
  return parseJson(raw);
}

/** Answers an API request whose body was read (`raw`); throws the problem of a refused request. */
export function dispatchApi(core: EmulatorCore, req: IncomingMessage, url: URL, raw: Buffer): Reply {
  authenticate(core, req);
  checkApiVersion(url);
  const { projectId, route, params } = resolveRoute(core.namespace, req.method ?? "GET", url);
  const body = jsonBody(req, raw);
  core.svc.settleAll();
  const host = req.headers.host ?? "127.0.0.1";
  const pageUrl = (offset: number, limit: number) => {
    const query = new URLSearchParams(url.searchParams);
    query.set("offset", String(offset));
    query.set("limit", String(limit));
    return `http://${host}${url.pathname}?${query.toString()}`;
  };
  return route.handler(core.svc, { projectId, params, query: url.searchParams, body, pageUrl });
}
