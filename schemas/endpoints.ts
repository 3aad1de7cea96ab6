/**
 * Every endpoint of spec §4, listed once: the REST client sends its requests from this table and the emulator
 * builds its routes from it, so the client's paths and the emulator's routes cannot drift apart. Paths are
 * below `/projects/{projectId}/providers/{namespace}` (spec §4: `P`); `:name` segments are path parameters.
 *
 * It lives with the wire schemas rather than in `rest/` because the emulator imports the schemas and nothing
 * of the REST client. It names its schemas (`WIRE_SCHEMAS`, schemas/index.ts) instead of holding them: the
 * client sends from it and validates by those names with the validators generated at build time, so it loads
 * no schema, nor TypeBox, at run time; the types below look the names up.
 */
import { keysOf } from "./typed";
import type { Static } from "@sinclair/typebox";
import type { ListPage } from "./common";
import type { KindName, READ_ENDPOINTS } from "./kinds";
import type { WireSchemaName, WireSchemas } from "./wire";

/** The name of an endpoint that reads one object by id: a kind's read (schemas/kinds.ts `READ_ENDPOINTS`). */
export type ProbeName = NonNullable<(typeof READ_ENDPOINTS)[KindName]>;

/** The HTTP methods of the API. */
export type EndpointMethod = "GET" | "POST" | "PUT" | "DELETE";

/** One endpoint of the API. */
export interface Endpoint {
  readonly method: EndpointMethod;
  /** Path pattern below the provider prefix, e.g. `/kaas/:id/nodePools/:pool`. */
  readonly path: string;
  /** Schema of the request body, checked by the client before any I/O; absent when the endpoint takes none. */
  readonly body?: WireSchemaName;
  /** The query parameters besides `api-version`, which every endpoint takes; absent when there are none. */
  readonly query?: WireSchemaName;
  /** Schema a JSON response body must satisfy; absent when the answer has no body the client reads. */
  readonly response?: WireSchemaName;
  /** For a list endpoint: the schema of one item of the envelope's `values` (spec §2.9). */
  readonly list?: WireSchemaName;
  /**
   * False for a create: a request whose fate is unknown is not re-sent (see `RequestSpec.idempotent` in
   * `rest/http.ts`).
   */
  readonly idempotent: boolean;
  /** `text` hands back the raw body (the kubeconfig download). */
  readonly responseType: "json" | "text";
  /**
   * The GET that reads this endpoint's target: while the service refuses the call because the target is busy
   * (a 400, `rest/busy.ts`), the client reads it to tell a transitional target, worth waiting for, from a
   * settled one. Its path parameters are a subset of this endpoint's.
   */
  readonly probe?: ProbeName;
  /**
   * True where a 2xx without a body is a plausible answer although the published interface shows one (the
   * node pool update: nothing reads its answer). Elsewhere an endpoint with a `response` schema that answers
   * no body is an error of the choke point.
   */
  readonly emptyAnswer?: boolean;
}

/** Every endpoint of spec §4, by name. The order is the emulator's route order. */
export const ENDPOINTS = {
  // ---- KaaS (spec §4.1) ----
  /** `POST P/kaas`: 201 with the cluster. */
  createKaas: {
    method: "POST",
    path: "/kaas",
    body: "KaasInsert",
    response: "KaasResponse",
    idempotent: false,
    responseType: "json",
  },
  /** `GET P/kaas`: one page (spec §2.5, §2.9). */
  listKaas: {
    method: "GET",
    path: "/kaas",
    query: "ListQuery",
    response: "KaasList",
    list: "KaasResponse",
    idempotent: true,
    responseType: "json",
  },
  /** `GET P/kaas/{id}`. */
  getKaas: {
    method: "GET",
    path: "/kaas/:id",
    query: "GetQuery",
    response: "KaasResponse",
    idempotent: true,
    responseType: "json",
  },
  /** `PUT P/kaas/{id}`: 200 without a body. */
  updateKaas: {
    method: "PUT",
    path: "/kaas/:id",
    body: "KaasUpdate",
    idempotent: true,
    responseType: "json",
    probe: "getKaas",
  },
  /** `DELETE P/kaas/{id}`: 202 without a body. */
  deleteKaas: {
    method: "DELETE",
    path: "/kaas/:id",
    query: "KaasDeleteQuery",
    idempotent: true,
    responseType: "json",
    probe: "getKaas",
  },
  /** `GET P/kaas/{id}/download`: the kubeconfig, `{name, content}` or raw text (api-notes). */
  downloadKubeconfig: { method: "GET", path: "/kaas/:id/download", idempotent: true, responseType: "text" },
  /** `POST P/kaas/{id}/detach`: cluster-level detach (spec §2.8, §4.1). */
  detachVolumeFromCluster: {
    method: "POST",
    path: "/kaas/:id/detach",
    body: "VolumeAction",
    idempotent: true,
    responseType: "json",
    probe: "getKaas",
  },
  /** `PUT P/kaas/{id}/nodePools/{nodePoolName}`: partial update of one pool; answers the cluster. */
  updateNodePool: {
    method: "PUT",
    path: "/kaas/:id/nodePools/:pool",
    body: "NodePoolUpdate",
    response: "KaasResponse",
    idempotent: true,
    responseType: "json",
    probe: "getKaas",
    emptyAnswer: true,
  },
  /** `POST P/kaas/{id}/nodePools/{nodePoolId}/nodes/{nodeId}/attach`: success code undocumented. */
  attachVolume: {
    method: "POST",
    path: "/kaas/:id/nodePools/:pool/nodes/:node/attach",
    body: "VolumeAction",
    idempotent: true,
    responseType: "json",
    probe: "getKaas",
  },
  /** `POST P/kaas/{id}/nodePools/{nodePoolId}/nodes/{nodeId}/detach`. */
  detachVolumeFromNode: {
    method: "POST",
    path: "/kaas/:id/nodePools/:pool/nodes/:node/detach",
    body: "VolumeAction",
    idempotent: true,
    responseType: "json",
    probe: "getKaas",
  },

  // ---- Backups, below a cluster (spec §4.2: `B` is `P/kaas/{kaasId}/backups`) ----
  /** `POST B`: 201 with the backup. */
  createBackup: {
    method: "POST",
    path: "/kaas/:kaasId/backups",
    body: "BackupInsert",
    response: "BackupResponse",
    idempotent: false,
    responseType: "json",
  },
  /** `GET B`: one page. */
  listBackups: {
    method: "GET",
    path: "/kaas/:kaasId/backups",
    query: "ListQuery",
    response: "BackupList",
    list: "BackupResponse",
    idempotent: true,
    responseType: "json",
  },
  /** `GET B/{id}`. */
  getBackup: {
    method: "GET",
    path: "/kaas/:kaasId/backups/:id",
    query: "GetQuery",
    response: "BackupResponse",
    idempotent: true,
    responseType: "json",
  },
  /** `PUT B/{id}`: 200 without a body. */
  updateBackup: {
    method: "PUT",
    path: "/kaas/:kaasId/backups/:id",
    body: "BackupUpdate",
    idempotent: true,
    responseType: "json",
    probe: "getBackup",
  },
  /** `DELETE B/{id}`: 202 without a body. */
  deleteBackup: {
    method: "DELETE",
    path: "/kaas/:kaasId/backups/:id",
    idempotent: true,
    responseType: "json",
    probe: "getBackup",
  },

  // ---- Registries (spec §4.3) ----
  /** `POST R`: 201 with the registry. */
  createRegistry: {
    method: "POST",
    path: "/registries",
    body: "RegistryInsert",
    response: "RegistryResponse",
    idempotent: false,
    responseType: "json",
  },
  /** `GET R`: one page; `loadEngineVersion` fills `data.info.version`. */
  listRegistries: {
    method: "GET",
    path: "/registries",
    query: "RegistryListQuery",
    response: "RegistryList",
    list: "RegistryResponse",
    idempotent: true,
    responseType: "json",
  },
  /** `GET R/{id}`. */
  getRegistry: {
    method: "GET",
    path: "/registries/:id",
    query: "GetQuery",
    response: "RegistryResponse",
    idempotent: true,
    responseType: "json",
  },
  /** `PUT R/{id}`: 200 without a body. */
  updateRegistry: {
    method: "PUT",
    path: "/registries/:id",
    body: "RegistryUpdate",
    idempotent: true,
    responseType: "json",
    probe: "getRegistry",
  },
  /** `DELETE R/{id}`: 202 without a body. */
  deleteRegistry: {
    method: "DELETE",
    path: "/registries/:id",
    idempotent: true,
    responseType: "json",
    probe: "getRegistry",
  },
  /** `PUT R/{id}/resetAdminPassword`: 200 without a body. */
  resetAdminPassword: {
    method: "PUT",
    path: "/registries/:id/resetAdminPassword",
    body: "RegistryPasswordReset",
    idempotent: true,
    responseType: "json",
    probe: "getRegistry",
  },
} as const satisfies Record<string, Endpoint>;

/** The name of an endpoint of the table. */
export type EndpointName = keyof typeof ENDPOINTS;

/** A kind's read (`READ_ENDPOINTS`) that is no endpoint of the table: none, or this does not compile. */
type UnknownRead = Exclude<ProbeName, EndpointName>;
const everyReadIsAnEndpoint: [UnknownRead] extends [never] ? true : UnknownRead = true;
void everyReadIsAnEndpoint;

/** The endpoint names, in table order. */
export const ENDPOINT_NAMES: EndpointName[] = keysOf(ENDPOINTS);

/** The parameter names of a path pattern: `"/kaas/:id/nodePools/:pool"` gives `"id" | "pool"`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<Rest>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The path parameters of a pattern, as a record of strings. */
export type PathParams<P extends string> = { [K in PathParamNames<P>]: string };

/** The static type of the table's schema named `S`. */
export type SchemaType<S extends WireSchemaName> = Static<WireSchemas[S]>;

/** The type of an endpoint's query (besides `api-version`): none when it takes none. */
export type QueryOf<E extends Endpoint> = E["query"] extends WireSchemaName
  ? SchemaType<E["query"]>
  : Record<never, never>;

/** The type of an endpoint's request body: `undefined` when it takes none. */
export type BodyOf<E extends Endpoint> = E["body"] extends WireSchemaName ? SchemaType<E["body"]> : undefined;

/**
 * The type of an endpoint's answer: a page of items for a list, the response schema's type, the raw text,
 * or nothing.
 */
export type ResponseOf<E extends Endpoint> = E["list"] extends WireSchemaName
  ? ListPage<SchemaType<E["list"]>>
  : E["response"] extends WireSchemaName
    ? E["emptyAnswer"] extends true
      ? SchemaType<E["response"]> | undefined
      : SchemaType<E["response"]>
    : E["responseType"] extends "text"
      ? string
      : void;

/**
 * The path of `pattern` with each `:name` segment replaced by its parameter, encoded with
 * `encodeURIComponent` (a pool or node name may hold any character). Throws on a missing parameter.
 */
export function expandPath(pattern: string, params: Readonly<Record<string, string>>): string {
  return pattern.replace(/:(\w+)/g, (_segment, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`path ${pattern} needs the parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/**
 * The name of every request and response schema of the table, each once, in table order: the build generates
 * one validator module per name (`scripts/validators.mjs`), which `validateSchema` loads instead of compiling
 * (`schemas/validate.ts`). A list's item schema is the answer of its read endpoint, so it has one too.
 */
export function validatorNames(): WireSchemaName[] {
  const names = new Set<WireSchemaName>();
  for (const name of ENDPOINT_NAMES) {
    const endpoint: Endpoint = ENDPOINTS[name];
    for (const schema of [endpoint.body, endpoint.response]) if (schema !== undefined) names.add(schema);
  }
  return [...names];
}
