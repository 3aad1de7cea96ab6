/**
 * Typed client of every endpoint of spec §4. The endpoints are listed once, in `schemas/endpoints.ts` (method,
 * path, body and response schemas, idempotency), which the emulator's routes are built from too; each method
 * here is a thin call of `request` over that table, which hands the rest to the choke point
 * (`HttpClient.request`).
 */
import type { ListPage } from "../schemas/common";
import {
  ENDPOINTS,
  expandPath,
  type BodyOf,
  type Endpoint,
  type PathParams,
  type ResponseOf,
} from "../schemas/endpoints";
import type {
  BackupInsert,
  BackupResponse,
  BackupUpdate,
  KaasInsert,
  KaasResponse,
  KaasUpdate,
  KubeconfigDownload,
  NodePoolUpdate,
  RegistryInsert,
  RegistryPasswordReset,
  RegistryResponse,
  RegistryUpdate,
  VolumeAction,
} from "../schemas";
import { ClientCredentialsTokenSource, StaticTokenSource, type TokenSource } from "./auth";
import { isNotFound } from "./errors";
import { HttpClient, type QueryValue } from "./http";
import { paginate } from "./paginate";
import { registerSecret } from "./redact";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
import type { VendorSettings } from "./settings";
import { TRANSITIONAL_STATES, classifyState, waitFor, type WaitVerdict } from "./waiter";

/** Query of the list endpoints (spec §4.1). `filter` uses the `field:op(args)` grammar (api-notes). */
export interface ListQuery {
  filter?: string;
  sort?: string;
  projection?: string;
  offset?: number;
  limit?: number;
}

/** A resource with a status, as every response of the service is. */
interface WithStatus {
  status?: { state?: string | null } | null;
}

/** The project and the path parameters of an endpoint, e.g. `{projectId, id, pool}`. */
export type EndpointParams<E extends Endpoint> = { projectId: string } & PathParams<E["path"]>;

/** Per-request options of `VendorContainerClient.request`. */
export interface EndpointRequestOptions {
  /** Reads the target; enables the retry of a 400 refusing a busy resource (`rest/busy.ts`). */
  probe?: () => Promise<WithStatus>;
}

/** The arguments after the parameters: the body (required when the endpoint takes one), query, options. */
export type EndpointArgs<E extends Endpoint> = E["body"] extends object
  ? [body: BodyOf<E>, query?: Record<string, QueryValue>, options?: EndpointRequestOptions]
  : [body?: undefined, query?: Record<string, QueryValue>, options?: EndpointRequestOptions];

/** The body of the three volume actions: `{volume: {uri}}` (spec §2.8, §4.1). */
const volumeActionBody = (volumeUri: string): VolumeAction => ({ volume: { uri: volumeUri } });

export interface ClientOptions {
  pollIntervalMs?: number;
  retry?: RetryPolicy;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  onRetry?: (line: string) => void;
}

export class VendorContainerClient {
  readonly http: HttpClient;
  readonly pollIntervalMs: number;
  private readonly sleep?: (ms: number) => Promise<void>;
  private readonly now: () => number;

  constructor(settings: VendorSettings, options: ClientOptions = {}, tokenSource?: TokenSource) {
    this.http = new HttpClient({
      baseUrl: settings.baseUrl,
      apiVersion: settings.apiVersion,
      providerNamespace: settings.providerNamespace,
      // Replaced below. Not a StaticTokenSource: that would register "placeholder" as a secret and redact the
      // word from every later message of the process.
      tokenSource: { getToken: async () => "", invalidate: () => undefined, refreshable: false },
      requestTimeoutMs: settings.requestTimeoutMs,
      callDeadlineMs: settings.callDeadlineMs,
      retry: options.retry ?? DEFAULT_RETRY_POLICY,
      random: options.random,
      sleep: options.sleep,
      now: options.now,
      onRetry: options.onRetry,
    });
    // The token source shares the keep-alive axios instance of the HTTP client.
    this.http.settings.tokenSource =
      tokenSource ??
      (settings.token
        ? new StaticTokenSource(settings.token)
        : new ClientCredentialsTokenSource(this.http.axios, {
            tokenUrl: settings.tokenUrl as string,
            clientId: settings.clientId as string,
            clientSecret: settings.clientSecret as string,
            now: options.now,
          }));
    this.pollIntervalMs = options.pollIntervalMs ?? settings.pollIntervalMs;
    this.sleep = options.sleep;
    this.now = options.now ?? Date.now;
  }

  /**
   * Sends one request of the endpoint table (`schemas/endpoints.ts`) through the choke point: `params` holds
   * the project and the path parameters (encoded here), `body` is checked against the endpoint's schema
   * before any I/O, `query` values that are undefined are left out. `options.probe` reads the target, so that
   * a 400 refusing a busy resource is retried while it is transitional (`rest/busy.ts`). Answers the parsed
   * body, the raw text for a text endpoint, or undefined when the answer has no body.
   */
  async request<E extends Endpoint>(
    endpoint: E,
    params: EndpointParams<E>,
    ...[body, query, options]: EndpointArgs<E>
  ): Promise<ResponseOf<E> | undefined> {
    const probe = options?.probe;
    const { projectId, ...pathParams } = params as { projectId: string } & Record<string, string>;
    const result = await this.http.request<ResponseOf<E>>({
      method: endpoint.method,
      projectId,
      path: expandPath(endpoint.path, pathParams),
      body,
      bodySchema: endpoint.body,
      responseSchema: endpoint.response,
      query,
      idempotent: endpoint.idempotent,
      responseType: endpoint.responseType === "text" ? "text" : undefined,
      transitionalProbe: probe
        ? async () => TRANSITIONAL_STATES.has((await probe()).status?.state ?? "")
        : undefined,
    });
    return result.data;
  }

  private listQuery(q: ListQuery): Record<string, QueryValue> {
    return { filter: q.filter, sort: q.sort, projection: q.projection, offset: q.offset, limit: q.limit };
  }

  // ---- KaaS (spec §4.1) ----

  /** `POST P/kaas`. Not retried on an ambiguous failure: see the Kaas provider's idempotent create. */
  async createKaas(projectId: string, body: KaasInsert): Promise<KaasResponse> {
    registerSecret(body.properties.identity?.clientSecret);
    return (await this.request(ENDPOINTS.createKaas, { projectId }, body)) as KaasResponse;
  }

  /** `GET P/kaas`: one page. */
  async listKaas(projectId: string, query: ListQuery = {}): Promise<ListPage<KaasResponse>> {
    return (await this.request(
      ENDPOINTS.listKaas,
      { projectId },
      undefined,
      this.listQuery(query),
    )) as ListPage<KaasResponse>;
  }

  /** Every cluster matching `query`, across pages. */
  iterateKaas(projectId: string, query: Omit<ListQuery, "offset" | "limit"> = {}, pageSize = 100) {
    return paginate((offset, limit) => this.listKaas(projectId, { ...query, offset, limit }), pageSize);
  }

  /** `GET P/kaas/{id}`. */
  async getKaas(
    projectId: string,
    id: string,
    opts: { ignoreDeletedStatus?: boolean } = {},
  ): Promise<KaasResponse> {
    return (await this.request(ENDPOINTS.getKaas, { projectId, id }, undefined, {
      ignoreDeletedStatus: opts.ignoreDeletedStatus,
    })) as KaasResponse;
  }

  /** The cluster, or undefined when it is gone (404 or status `Deleted`). */
  findKaas(projectId: string, id: string): Promise<KaasResponse | undefined> {
    return findLive(() => this.getKaas(projectId, id));
  }

  /** `PUT P/kaas/{id}`: answers 200 without a body (api-notes); read the cluster afterwards. */
  async updateKaas(projectId: string, id: string, body: KaasUpdate): Promise<void> {
    await this.request(ENDPOINTS.updateKaas, { projectId, id }, body, undefined, {
      probe: () => this.getKaas(projectId, id),
    });
  }

  /** `DELETE P/kaas/{id}` (202). `deleteOnCascade` also deletes the elastic IPs the cluster used. */
  async deleteKaas(projectId: string, id: string, opts: { deleteOnCascade?: boolean } = {}): Promise<void> {
    await this.request(
      ENDPOINTS.deleteKaas,
      { projectId, id },
      undefined,
      { deleteOnCascade: opts.deleteOnCascade },
      { probe: () => this.getKaas(projectId, id) },
    );
  }

  /**
   * `GET P/kaas/{id}/download`: the kubeconfig, decoded. The service answers `{name, content}` with base64
   * content; a raw kubeconfig body is accepted too (api-notes).
   */
  async downloadKubeconfig(projectId: string, id: string): Promise<string> {
    const text = (await this.request(ENDPOINTS.downloadKubeconfig, { projectId, id })) ?? "";
    let kubeconfig = text;
    try {
      const parsed = JSON.parse(text) as KubeconfigDownload;
      if (parsed && typeof parsed.content === "string") {
        const decoded = Buffer.from(parsed.content, "base64").toString("utf8");
        // Base64 that does not round-trip was raw text all along.
        kubeconfig =
          Buffer.from(decoded, "utf8").toString("base64") === parsed.content.replace(/\s/g, "")
            ? decoded
            : parsed.content;
      }
    } catch {
      // Raw text body.
    }
    registerSecret(kubeconfig);
    return kubeconfig;
  }

  /** `PUT P/kaas/{id}/nodePools/{nodePoolName}`: partial update of one pool; answers the cluster. */
  async updateNodePool(
    projectId: string,
    id: string,
    poolName: string,
    body: NodePoolUpdate,
  ): Promise<KaasResponse | undefined> {
    return this.request(ENDPOINTS.updateNodePool, { projectId, id, pool: poolName }, body, undefined, {
      probe: () => this.getKaas(projectId, id),
    });
  }

  /** `POST .../nodePools/{pool}/nodes/{node}/attach`: success code undocumented, any 2xx accepted. */
  async attachVolume(
    projectId: string,
    id: string,
    pool: string,
    nodeId: string,
    volumeUri: string,
  ): Promise<void> {
    await this.request(
      ENDPOINTS.attachVolume,
      { projectId, id, pool, node: nodeId },
      volumeActionBody(volumeUri),
      undefined,
      { probe: () => this.getKaas(projectId, id) },
    );
  }

  /** `POST .../nodePools/{pool}/nodes/{node}/detach`. */
  async detachVolumeFromNode(
    projectId: string,
    id: string,
    pool: string,
    nodeId: string,
    volumeUri: string,
  ): Promise<void> {
    await this.request(
      ENDPOINTS.detachVolumeFromNode,
      { projectId, id, pool, node: nodeId },
      volumeActionBody(volumeUri),
      undefined,
      { probe: () => this.getKaas(projectId, id) },
    );
  }

  /** `POST P/kaas/{id}/detach`: cluster-level detach, for when the node is gone. */
  async detachVolumeFromCluster(projectId: string, id: string, volumeUri: string): Promise<void> {
    await this.request(
      ENDPOINTS.detachVolumeFromCluster,
      { projectId, id },
      volumeActionBody(volumeUri),
      undefined,
      { probe: () => this.getKaas(projectId, id) },
    );
  }

  // ---- Backups (spec §4.2) ----

  async createBackup(projectId: string, kaasId: string, body: BackupInsert): Promise<BackupResponse> {
    return (await this.request(ENDPOINTS.createBackup, { projectId, kaasId }, body)) as BackupResponse;
  }

  async listBackups(
    projectId: string,
    kaasId: string,
    query: ListQuery = {},
  ): Promise<ListPage<BackupResponse>> {
    return (await this.request(
      ENDPOINTS.listBackups,
      { projectId, kaasId },
      undefined,
      this.listQuery(query),
    )) as ListPage<BackupResponse>;
  }

  iterateBackups(
    projectId: string,
    kaasId: string,
    query: Omit<ListQuery, "offset" | "limit"> = {},
    pageSize = 100,
  ) {
    return paginate(
      (offset, limit) => this.listBackups(projectId, kaasId, { ...query, offset, limit }),
      pageSize,
    );
  }

  async getBackup(
    projectId: string,
    kaasId: string,
    id: string,
    opts: { ignoreDeletedStatus?: boolean } = {},
  ): Promise<BackupResponse> {
    return (await this.request(ENDPOINTS.getBackup, { projectId, kaasId, id }, undefined, {
      ignoreDeletedStatus: opts.ignoreDeletedStatus,
    })) as BackupResponse;
  }

  findBackup(projectId: string, kaasId: string, id: string): Promise<BackupResponse | undefined> {
    return findLive(() => this.getBackup(projectId, kaasId, id));
  }

  async updateBackup(projectId: string, kaasId: string, id: string, body: BackupUpdate): Promise<void> {
    await this.request(ENDPOINTS.updateBackup, { projectId, kaasId, id }, body, undefined, {
      probe: () => this.getBackup(projectId, kaasId, id),
    });
  }

  async deleteBackup(projectId: string, kaasId: string, id: string): Promise<void> {
    await this.request(ENDPOINTS.deleteBackup, { projectId, kaasId, id }, undefined, undefined, {
      probe: () => this.getBackup(projectId, kaasId, id),
    });
  }

  // ---- Registries (spec §4.3) ----

  async createRegistry(projectId: string, body: RegistryInsert): Promise<RegistryResponse> {
    return (await this.request(ENDPOINTS.createRegistry, { projectId }, body)) as RegistryResponse;
  }

  /** `GET P/registries`; `loadEngineVersion` fills `data.info.version`. */
  async listRegistries(
    projectId: string,
    query: ListQuery & { loadEngineVersion?: boolean } = {},
  ): Promise<ListPage<RegistryResponse>> {
    return (await this.request(ENDPOINTS.listRegistries, { projectId }, undefined, {
      ...this.listQuery(query),
      loadEngineVersion: query.loadEngineVersion,
    })) as ListPage<RegistryResponse>;
  }

  iterateRegistries(
    projectId: string,
    query: Omit<ListQuery, "offset" | "limit"> & { loadEngineVersion?: boolean } = {},
    pageSize = 100,
  ) {
    return paginate((offset, limit) => this.listRegistries(projectId, { ...query, offset, limit }), pageSize);
  }

  async getRegistry(
    projectId: string,
    id: string,
    opts: { ignoreDeletedStatus?: boolean } = {},
  ): Promise<RegistryResponse> {
    return (await this.request(ENDPOINTS.getRegistry, { projectId, id }, undefined, {
      ignoreDeletedStatus: opts.ignoreDeletedStatus,
    })) as RegistryResponse;
  }

  findRegistry(projectId: string, id: string): Promise<RegistryResponse | undefined> {
    return findLive(() => this.getRegistry(projectId, id));
  }

  async updateRegistry(projectId: string, id: string, body: RegistryUpdate): Promise<void> {
    await this.request(ENDPOINTS.updateRegistry, { projectId, id }, body, undefined, {
      probe: () => this.getRegistry(projectId, id),
    });
  }

  async deleteRegistry(projectId: string, id: string): Promise<void> {
    await this.request(ENDPOINTS.deleteRegistry, { projectId, id }, undefined, undefined, {
      probe: () => this.getRegistry(projectId, id),
    });
  }

  /** `PUT P/registries/{id}/resetAdminPassword`. */
  async resetAdminPassword(projectId: string, id: string, body: RegistryPasswordReset = {}): Promise<void> {
    await this.request(ENDPOINTS.resetAdminPassword, { projectId, id }, body, undefined, {
      probe: () => this.getRegistry(projectId, id),
    });
  }

  // ---- Waiting ----

  /**
   * Polls `observe` until the resource is settled (`Active`...), failed, or the deadline passes. The
   * observation may be undefined (gone), which is a failure while waiting to settle.
   */
  waitUntilSettled<T extends WithStatus>(
    observe: () => Promise<T | undefined>,
    args: {
      what: string;
      path: string;
      deadline: number;
      onProgress?: (line: string) => void;
      judge?: (t: T) => WaitVerdict;
      /** What a custom `judge` waits for, for progress lines and errors. Default `Active`. */
      target?: string;
      /** True right after a mutating call: the first poll waits one interval (see `WaitOptions`). */
      afterMutation?: boolean;
    },
  ): Promise<T> {
    return waitFor(
      observe,
      (t) =>
        t === undefined
          ? { kind: "failed", reason: "it no longer exists" }
          : args.judge
            ? args.judge(t)
            : classifyState(t.status),
      { ...this.waitDefaults(args), target: args.target ?? "Active", method: "GET" },
    ) as Promise<T>;
  }

  /** Polls `observe` until it answers undefined (404 or `Deleted`). */
  async waitUntilGone<T extends WithStatus>(
    observe: () => Promise<T | undefined>,
    args: {
      what: string;
      path: string;
      deadline: number;
      onProgress?: (line: string) => void;
      afterMutation?: boolean;
    },
  ): Promise<void> {
    await waitFor(
      observe,
      (t): WaitVerdict =>
        t === undefined
          ? { kind: "done" }
          : t.status?.state === "Failed" || t.status?.state === "Error"
            ? { kind: "failed", reason: classifyFailure(t) }
            : { kind: "pending", state: t.status?.state ?? "Unknown" },
      { ...this.waitDefaults(args), target: "deleted", method: "DELETE" },
    );
  }

  private waitDefaults(args: {
    what: string;
    path: string;
    deadline: number;
    onProgress?: (line: string) => void;
    afterMutation?: boolean;
  }) {
    return {
      firstPollAfterMs: args.afterMutation ? this.pollIntervalMs : 0,
      what: args.what,
      path: args.path,
      deadline: args.deadline,
      onProgress: args.onProgress,
      intervalMs: this.pollIntervalMs,
      sleep: this.sleep,
      now: this.now,
    };
  }
}

function classifyFailure(t: WithStatus): string {
  const verdict = classifyState(t.status as never);
  return verdict.kind === "failed" ? verdict.reason : `state ${t.status?.state}`;
}

/** Runs a GET and maps "gone" (404, or status `Deleted`) to undefined. */
async function findLive<T extends WithStatus>(get: () => Promise<T>): Promise<T | undefined> {
  try {
    const found = await get();
    return found.status?.state === "Deleted" ? undefined : found;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
