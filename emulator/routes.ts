/**
 * The routes of the API (spec §4), below `/projects/{projectId}/providers/{namespace}`, built from the endpoint
 * table the REST client sends its requests from, and a matcher that tells "no such route" (404) from "no such
 * method on this route" (405).
 */
import { ENDPOINTS, ENDPOINT_NAMES, type EndpointMethod, type EndpointName } from "../schemas/endpoints";
import * as backups from "./kaasBackups";
import * as kaas from "./kaas";
import * as registries from "./registries";
import type { ApiRequest, Reply, Service } from "./service";

/** The handler of one API endpoint. */
export type ApiHandler = (svc: Service, req: ApiRequest) => Reply;

/** One API route: the endpoint, its method and path pattern below the provider prefix (`:name` captures). */
export interface Route {
  endpoint: EndpointName;
  method: EndpointMethod;
  pattern: string;
  handler: ApiHandler;
}

/**
 * The handler of every endpoint of the table (`schemas/endpoints.ts`), by name: an endpoint without a handler,
 * or a handler of no endpoint, does not compile.
 */
const HANDLERS: { readonly [N in EndpointName]: ApiHandler } = {
  createKaas: kaas.createKaas,
  listKaas: kaas.listKaas,
  getKaas: kaas.getKaas,
  updateKaas: kaas.updateKaas,
  deleteKaas: kaas.deleteKaas,
  downloadKubeconfig: kaas.downloadKubeconfig,
  detachVolumeFromCluster: kaas.detachVolumeFromCluster,
  updateNodePool: kaas.updateNodePool,
  attachVolume: kaas.attachVolume,
  detachVolumeFromNode: kaas.detachVolumeFromNode,
  createBackup: backups.createBackup,
  listBackups: backups.listBackups,
  getBackup: backups.getBackup,
  updateBackup: backups.updateBackup,
  deleteBackup: backups.deleteBackup,
  createRegistry: registries.createRegistry,
  listRegistries: registries.listRegistries,
  getRegistry: registries.getRegistry,
  updateRegistry: registries.updateRegistry,
  deleteRegistry: registries.deleteRegistry,
  resetAdminPassword: registries.resetAdminPassword,
};

/** Every endpoint of spec §4, in the table's order (which is the order of a 405's `Allow` header). */
export const API_ROUTES: Route[] = ENDPOINT_NAMES.map((endpoint) => ({
  endpoint,
  method: ENDPOINTS[endpoint].method,
  pattern: ENDPOINTS[endpoint].path,
  handler: HANDLERS[endpoint],
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
