/**
 * The routes of the API (spec §4), below `/projects/{projectId}/providers/{namespace}`, built from the endpoint
 * table the REST client sends its requests from, and a matcher that tells "no such route" (404) from "no such
 * method on this route" (405). A route checks the request's body against the endpoint's body schema (the
 * table's, the very objects the client checks with) and reads its query as the endpoint's query schema declares
 * it (`query.ts`) before the endpoint's handler runs, so a handler receives its body and its query options typed
 * by the table and answers the type of the endpoint's response schema.
 */
import type { TSchema } from "@sinclair/typebox";
import {
  ENDPOINTS,
  ENDPOINT_NAMES,
  type Endpoint,
  type EndpointMethod,
  type EndpointName,
} from "../../schemas/endpoints";
import { RegistryInsert } from "../../schemas/registry";
import { validateSchema } from "../../schemas/validate";
import { WIRE_SCHEMAS } from "../../schemas";
import type { WireReadings } from "../base/config";
import type { EndpointHandlers } from "../generic/kind";
import type { ApiHandler, RequestBodyOf } from "../generic/endpoint";
import { kindNames } from "../generic/tables";
import {
  KINDS,
  type Durations,
  type EmulatorService,
  type HandledEndpoint,
  type RecordByKind,
} from "../kinds";
import { schemaFieldErrors, validationProblem } from "../base/problems";
import { queryOptions } from "../base/query";
import { RegistryInsertWithVpc } from "../base/wideBodies";
import type { Reply, RoutedRequest } from "../base/api";

/** One API route: the endpoint, its method and path pattern below the provider prefix (`:name` captures). */
export interface Route {
  endpoint: EndpointName;
  method: EndpointMethod;
  pattern: string;
  /**
   * Checks the request's body against the endpoint's body schema, reads its query by the endpoint's query
   * schema, then runs the endpoint's handler.
   */
  handler: (svc: EmulatorService, req: RoutedRequest) => Reply;
}

/**
 * The handler of endpoint `name`: the one of the kind whose endpoint it is (`KindModule.handlers`). Every endpoint
 * of the table (`schemas/endpoints.ts`) must be some kind's: `serve` does not compile otherwise, and a handler
 * whose body or answer is not its endpoint's does not compile in its kind module.
 */
function handlerOf<N extends HandledEndpoint>(name: N): ApiHandler<N, RecordByKind, Durations> {
  for (const kind of kindNames(KINDS)) {
    const handlers: EndpointHandlers<RecordByKind, Durations> = KINDS[kind].handlers;
    const handler = handlers[name];
    if (handler) return handler;
  }
  throw new Error(`no kind handles the endpoint ${name}`);
}

/** A schema whose `Static` type is `B`. */
type SchemaOf<B> = TSchema & { static: B };

/**
 * Body schemas checked in place of the table's, chosen per request by a wire reading (config.ts
 * `WireReadings`), so `PUT /_emulator/config` applies to the next request. `registryVpc`: under `accepted` a
 * registry's create may carry the `vpc{uri}` real clients send (api-notes "Registry"); under `rejected` the
 * published body alone applies, so a `vpc` is refused like any unknown property (spec §2).
 */
const BODY_SCHEMA_READINGS: {
  readonly [N in EndpointName]?: (wire: WireReadings) => SchemaOf<RequestBodyOf<N>>;
} = {
  createRegistry: (wire) => (wire.registryVpc === "accepted" ? RegistryInsertWithVpc : RegistryInsert),
};

/**
 * The schema a request body of endpoint `name` must pass under the readings `wire`: the reading's, or the one
 * the table names, from which the body type of the endpoint's handler derives (`BodyOf`); none when it takes
 * none.
 */
function requestBodySchema<N extends EndpointName>(name: N, wire: WireReadings): TSchema | undefined {
  const reading = BODY_SCHEMA_READINGS[name];
  if (reading) return reading(wire);
  const endpoint: Endpoint = ENDPOINTS[name];
  return endpoint.body === undefined ? undefined : WIRE_SCHEMAS[endpoint.body];
}

/**
 * Throws the 400 that lists every problem of `body` under `schema`, one field error each (spec §7): the
 * answer of every endpoint to a body its schema refuses. A body that passes has the schema's `Static` type.
 * Without a schema the endpoint takes no body, `body` is undefined, and so is its type (`BodyOf`).
 */
function assertRequestBody<B>(schema: TSchema | undefined, body: unknown): asserts body is B {
  if (schema === undefined) return;
  const problems = validateSchema(schema, body);
  if (problems.length > 0) throw validationProblem(schemaFieldErrors(problems));
}

/**
 * Serves a request of endpoint `name`: its body is checked, then its query read, before the handler looks
 * anything up, so a bad body or query parameter answers 400 even when the object the path names is missing.
 */
function serve<N extends EndpointName>(name: N, svc: EmulatorService, req: RoutedRequest): Reply {
  const schema = requestBodySchema(name, svc.config.wire);
  // An endpoint that takes no body ignores one sent anyway; its handler is given none.
  const body = schema === undefined ? undefined : req.body;
  assertRequestBody<RequestBodyOf<N>>(schema, body);
  const options = queryOptions(name, req.query);
  const handler: ApiHandler<N, RecordByKind, Durations> = handlerOf(name);
  return handler(svc, { projectId: req.projectId, params: req.params, options, body, pageUrl: req.pageUrl });
}

/** Every endpoint of spec §4, in the table's order (which is the order of a 405's `Allow` header). */
export const API_ROUTES: Route[] = ENDPOINT_NAMES.map((endpoint) => ({
  endpoint,
  method: ENDPOINTS[endpoint].method,
  pattern: ENDPOINTS[endpoint].path,
  handler: (svc, req) => serve(endpoint, svc, req),
}));

/** Result of matching a path: the route and its parameters, or the methods the path allows (405), or nothing. */
export type RouteMatch<R> =
  | { kind: "found"; route: R; params: Record<string, string> }
  | { kind: "method"; allowed: string[] }
  | { kind: "none" };

/** Matches `segments` (already split, still encoded) against one pattern. */
function matchPattern(pattern: string, segments: string[]): Record<string, string> | undefined {
  const parts = pattern.split("/").filter((p) => p !== "");
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].startsWith(":")) {
      let value: string;
      try {
        value = decodeURIComponent(segments[i]);
      } catch {
        return undefined;
      }
      if (value === "") return undefined;
      params[parts[i].slice(1)] = value;
    } else if (parts[i] !== segments[i]) {
      return undefined;
    }
  }
  return params;
}

/** Finds the route of `method` and `path` in `routes`. */
export function matchRoute<R extends { method: string; pattern: string }>(
  routes: R[],
  method: string,
  path: string,
): RouteMatch<R> {
  const segments = path.split("/").filter((s) => s !== "");
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, segments);
    if (!params) continue;
    if (route.method === method) return { kind: "found", route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: "method", allowed } : { kind: "none" };
}
