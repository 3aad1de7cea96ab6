/**
 * Typed client of every endpoint of spec §4. The endpoints are listed once, in `schemas/endpoints.ts` (method,
 * path, body and response schemas, idempotency), which the emulator's routes are built from too; each method
 * here is a thin call of `request` over that table, which hands the rest to the choke point
 * (`HttpClient.request`).
 */
import type { TSchema } from "@sinclair/typebox";
import type { ListPage } from "../schemas/common";
import {
  ENDPOINTS,
  expandPath,
  type BodyOf,
  type Endpoint,
  type PathParams,
  type ResponseOf,
} from "../schemas/endpoints";
import { projectedListOf, type ListedAs, type Projected } from "../schemas/projection";
import type { SchemaProblem } from "../schemas/validate";
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
import {
  hasProjection,
  paginate,
  unreadableItemLine,
  type ReadPage,
  type UnreadableItem,
  type UnreadableSink,
} from "./paginate";
import { registerSecret } from "./redact";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
import type { VendorSettings } from "./settings";
import {
  DEFAULT_UNKNOWN_STATE_TIMEOUT_MS,
  classifyState,
  failureReasonOf,
  isBusyState,
  stateClassOf,
  stateNamesOf,
  waitFor,
  type StateNames,
  type WaitVerdict,
} from "./waiter";

/** Query of the list endpoints (spec §4.1). `filter` uses the `field:op(args)` grammar (api-notes). */
export interface ListQuery {
  filter?: string;
  sort?: string;
  projection?: string;
  offset?: number;
  limit?: number;
}

/**
 * Query of an iteration over every page: the list query without paging, and where the lines about skipped
 * items go (`rest/paginate.ts`; default standard error).
 */
export type ListIteration = Omit<ListQuery, "offset" | "limit"> & { onUnreadable?: UnreadableSink };

/** What a list asked with query `Q` holds: whole `T`s, or projected ones when `Q` carries a projection. */
export type ListedItem<Q, T> = ListedAs<Q, T, Projected<T>>;

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
  /**
   * The state names this client knows: the api-notes' and those of the `vendor:stateNames` setting. Every
   * judgement of a state by the client and the providers reads them (rest/waiter.ts `stateClassOf`).
   */
  readonly stateNames: StateNames;
  /** How long a wait gives a state it does not know (`vendor:unknownStateTimeout`). */
  readonly unknownStateTimeoutMs: number;
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
    this.stateNames = stateNamesOf(settings.stateNames);
    this.unknownStateTimeoutMs = settings.unknownStateTimeoutMs ?? DEFAULT_UNKNOWN_STATE_TIMEOUT_MS;
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
        ? async () => isBusyState((await probe()).status?.state, this.stateNames)
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

  /**
   * Reads one page of a list endpoint. The answer is checked against the list schema, or with a `projection`
   * against its deep-partial form (`schemas/projection.ts`: which fields a projection keeps is not
   * documented). An item that fails it does not fail the page: it is left out of `values` and described in
   * `unreadable` (issue 20, part 4); a problem of the envelope itself fails the request.
   */
  private async listPage<T>(
    endpoint: Endpoint & { list: TSchema },
    params: { projectId: string } & Record<string, string>,
    query: Record<string, QueryValue>,
  ): Promise<ReadPage<T>> {
    const { projectId, ...pathParams } = params;
    const result = await this.http.request<ListPage<unknown>>({
      method: endpoint.method,
      projectId,
      path: expandPath(endpoint.path, pathParams),
      responseSchema: hasProjection(query as ListQuery) ? projectedListOf(endpoint.list) : endpoint.response,
      tolerates: isItemProblem,
      query,
      idempotent: endpoint.idempotent,
    });
    return readPage<T>(result.data, result.tolerated ?? [], Number(query.offset ?? 0));
  }

  /** The iteration of `list` across pages, reporting each skipped item of `request` to `query.onUnreadable`. */
  private iterate<T>(
    request: string,
    query: ListIteration,
    pageSize: number,
    list: (offset: number, limit: number) => Promise<ReadPage<T>>,
  ): AsyncGenerator<T, void, undefined> {
    return paginate(list, pageSize, query.onUnreadable, (item) => unreadableItemLine(request, item));
  }

  /** `GET P/kaas`: one page; with a `projection`, of projected clusters. */
  async listKaas<Q extends ListQuery = Record<never, never>>(
    projectId: string,
    query: Q = {} as Q,
  ): Promise<ReadPage<ListedItem<Q, KaasResponse>>> {
    return this.listPage(ENDPOINTS.listKaas, { projectId }, this.listQuery(query));
  }

  /** Every readable cluster matching `query`, across pages. */
  iterateKaas<Q extends ListIteration = Record<never, never>>(
    projectId: string,
    query: Q = {} as Q,
    pageSize = 100,
  ): AsyncGenerator<ListedItem<Q, KaasResponse>, void, undefined> {
    return this.iterate("GET /kaas", query, pageSize, (offset, limit) =>
      this.listKaas(projectId, { ...query, offset, limit }),
    ) as AsyncGenerator<ListedItem<Q, KaasResponse>, void, undefined>;
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
    return findLive(this.stateNames, () => this.getKaas(projectId, id));
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

  /** `GET P/kaas/{kaasId}/backups`: one page; with a `projection`, of projected backups. */
  async listBackups<Q extends ListQuery = Record<never, never>>(
    projectId: string,
    kaasId: string,
    query: Q = {} as Q,
  ): Promise<ReadPage<ListedItem<Q, BackupResponse>>> {
    return this.listPage(ENDPOINTS.listBackups, { projectId, kaasId }, this.listQuery(query));
  }

  /** Every readable backup of the cluster matching `query`, across pages. */
  iterateBackups<Q extends ListIteration = Record<never, never>>(
    projectId: string,
    kaasId: string,
    query: Q = {} as Q,
    pageSize = 100,
  ): AsyncGenerator<ListedItem<Q, BackupResponse>, void, undefined> {
    const request = `GET ${expandPath(ENDPOINTS.listBackups.path, { kaasId })}`;
    return this.iterate(request, query, pageSize, (offset, limit) =>
      this.listBackups(projectId, kaasId, { ...query, offset, limit }),
    ) as AsyncGenerator<ListedItem<Q, BackupResponse>, void, undefined>;
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
    return findLive(this.stateNames, () => this.getBackup(projectId, kaasId, id));
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

  /**
   * `GET P/registries`: one page; `loadEngineVersion` fills `data.info.version`; with a `projection`, of
   * projected registries.
   */
  async listRegistries<Q extends ListQuery & { loadEngineVersion?: boolean } = Record<never, never>>(
    projectId: string,
    query: Q = {} as Q,
  ): Promise<ReadPage<ListedItem<Q, RegistryResponse>>> {
    return this.listPage(
      ENDPOINTS.listRegistries,
      { projectId },
      { ...this.listQuery(query), loadEngineVersion: query.loadEngineVersion },
    );
  }

  /** Every readable registry matching `query`, across pages. */
  iterateRegistries<Q extends ListIteration & { loadEngineVersion?: boolean } = Record<never, never>>(
    projectId: string,
    query: Q = {} as Q,
    pageSize = 100,
  ): AsyncGenerator<ListedItem<Q, RegistryResponse>, void, undefined> {
    return this.iterate("GET /registries", query, pageSize, (offset, limit) =>
      this.listRegistries(projectId, { ...query, offset, limit }),
    ) as AsyncGenerator<ListedItem<Q, RegistryResponse>, void, undefined>;
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
    return findLive(this.stateNames, () => this.getRegistry(projectId, id));
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
   * observation may be undefined (gone), which is a failure while waiting to settle. A custom `judge` gets
   * the client's state names (`stateNames`) to classify with; a state they do not know ends the wait after
   * `unknownStateTimeoutMs`.
   */
  waitUntilSettled<T extends WithStatus>(
    observe: () => Promise<T | undefined>,
    args: {
      what: string;
      path: string;
      deadline: number;
      onProgress?: (line: string) => void;
      judge?: (t: T, states: StateNames) => WaitVerdict;
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
            ? args.judge(t, this.stateNames)
            : classifyState(t.status, this.stateNames),
      {
        ...this.waitDefaults(args),
        target: args.target ?? "Active",
        method: "GET",
        unknownStateTimeoutMs: this.unknownStateTimeoutMs,
      },
    ) as Promise<T>;
  }

  /**
   * Polls `observe` until it answers undefined (404 or a `deleted` state). Any state but a failure is waited
   * on, one the client does not know included: a deletion under way may show any name until it is gone.
   */
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
          : stateClassOf(t.status?.state, this.stateNames) === "failed"
            ? { kind: "failed", reason: failureReasonOf(t.status) }
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

/** `/values/<index>` and the path inside that item, of a problem of a list answer's item. */
const ITEM_PROBLEM = /^\/values\/(\d+)(\/.*)?$/;

/** True for a problem inside one item of a list answer, which costs that item only. */
const isItemProblem = (problem: SchemaProblem): boolean => ITEM_PROBLEM.test(problem.path);

/**
 * The page of `body` as the client reads it: the items named by `problems` (every one of them inside an
 * item, see `isItemProblem`) moved out of `values` into `unreadable`, with paths inside the item. `offset`
 * is the page's, so that each item is named by its place in the whole list.
 */
function readPage<T>(
  body: ListPage<unknown> | undefined,
  problems: SchemaProblem[],
  offset: number,
): ReadPage<T> {
  const page = body ?? { values: [] };
  if (problems.length === 0) return { ...page, values: page.values as T[], unreadable: [] };
  const byIndex = new Map<number, SchemaProblem[]>();
  for (const { path, message } of problems) {
    const [, index, inside] = ITEM_PROBLEM.exec(path) as RegExpExecArray;
    const list = byIndex.get(Number(index)) ?? [];
    list.push({ path: inside ?? "/", message });
    byIndex.set(Number(index), list);
  }
  const unreadable: UnreadableItem[] = [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, itemProblems]) => {
      const id = (page.values[index] as { metadata?: { id?: unknown } } | null)?.metadata?.id;
      return {
        offset: offset + index,
        ...(typeof id === "string" && id !== "" ? { id } : {}),
        problems: itemProblems,
      };
    });
  return { ...page, values: page.values.filter((_, i) => !byIndex.has(i)) as T[], unreadable };
}

/** Runs a GET and maps "gone" (404, or a `deleted` state such as `Deleted`) to undefined. */
async function findLive<T extends WithStatus>(
  names: StateNames,
  get: () => Promise<T>,
): Promise<T | undefined> {
  try {
    const found = await get();
    return stateClassOf(found.status?.state, names) === "deleted" ? undefined : found;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
