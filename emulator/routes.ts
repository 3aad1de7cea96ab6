/**
 * The route table of the API (spec §4), below `/projects/{projectId}/providers/{namespace}`, and a matcher that
 * tells "no such route" (404) from "no such method on this route" (405).
 */
import * as backups from "./backups";
import * as kaas from "./kaas";
import * as registries from "./registries";
import type { ApiRequest, Reply, Service } from "./service";

/** One API route: method, path pattern below the provider prefix (`:name` captures), handler. */
export interface Route {
  method: "GET" | "POST" | "PUT" | "DELETE";
  pattern: string;
  handler: (svc: Service, req: ApiRequest) => Reply;
}

/** Every endpoint of spec §4. */
export const API_ROUTES: Route[] = [
  { method: "POST", pattern: "/kaas", handler: kaas.createKaas },
  { method: "GET", pattern: "/kaas", handler: kaas.listKaas },
  { method: "GET", pattern: "/kaas/:id", handler: kaas.getKaas },
  { method: "PUT", pattern: "/kaas/:id", handler: kaas.updateKaas },
  { method: "DELETE", pattern: "/kaas/:id", handler: kaas.deleteKaas },
  { method: "GET", pattern: "/kaas/:id/download", handler: kaas.downloadKubeconfig },
  { method: "POST", pattern: "/kaas/:id/detach", handler: kaas.detachVolumeFromCluster },
  { method: "PUT", pattern: "/kaas/:id/nodePools/:pool", handler: kaas.updateNodePool },
  { method: "POST", pattern: "/kaas/:id/nodePools/:pool/nodes/:node/attach", handler: kaas.attachVolume },
  {
    method: "POST",
    pattern: "/kaas/:id/nodePools/:pool/nodes/:node/detach",
    handler: kaas.detachVolumeFromNode,
  },
  { method: "POST", pattern: "/kaas/:kaasId/backups", handler: backups.createBackup },
  { method: "GET", pattern: "/kaas/:kaasId/backups", handler: backups.listBackups },
  { method: "GET", pattern: "/kaas/:kaasId/backups/:id", handler: backups.getBackup },
  { method: "PUT", pattern: "/kaas/:kaasId/backups/:id", handler: backups.updateBackup },
  { method: "DELETE", pattern: "/kaas/:kaasId/backups/:id", handler: backups.deleteBackup },
  { method: "POST", pattern: "/registries", handler: registries.createRegistry },
  { method: "GET", pattern: "/registries", handler: registries.listRegistries },
  { method: "GET", pattern: "/registries/:id", handler: registries.getRegistry },
  { method: "PUT", pattern: "/registries/:id", handler: registries.updateRegistry },
  { method: "DELETE", pattern: "/registries/:id", handler: registries.deleteRegistry },
  { method: "PUT", pattern: "/registries/:id/resetAdminPassword", handler: registries.resetAdminPassword },
];

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
