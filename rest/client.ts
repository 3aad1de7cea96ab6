/**
 * Typed client of every endpoint of spec §4. The endpoints are listed once, in `schemas/endpoints.ts` (method,
 * path, query, body and response schemas, idempotency, the read that probes a busy target), which the
 * emulator's routes are built from too. One typed `call(name, params, body, query)` sends any of them through
 * the choke point (`HttpClient.request`) and answers the table's response type; what is special stays as
 * small functions on top: lookups that map "gone" to undefined (`find`), pages with unreadable items
 * (`list`, `iterate`), the kubeconfig decode, waiting.
 */
import type { ListPage, ListQuery } from "../schemas/common";
import {
  ENDPOINTS,
  expandPath,
  type BodyOf,
  type Endpoint,
  type EndpointName,
  type PathParams,
  type ProbeName,
  type QueryOf,
  type ResponseOf,
  type SchemaType,
} from "../schemas/endpoints";
import { projectedListOf, type ListedAs, type Projected } from "../schemas/projection";
import type { SchemaProblem, SchemaRef } from "../schemas/validate";
import type { WireSchemaName } from "../schemas";
import { isRecord } from "../schemas/typed";
import { ClientCredentialsTokenSource, StaticTokenSource, type TokenSource } from "./auth";
import { isNotFound } from "./errors";
import { HttpClient, type HttpResult, type QueryValue } from "./http";
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
import type { KubeconfigRefresh, VendorSettings } from "./settings";
import type { Transport } from "./transport";
import {
  DEFAULT_UNKNOWN_STATE_TIMEOUT_MS,
  classifyState,
  failureReasonOf,
  isBusyState,
  stateClassOf,
  stateNamesOf,
  judged,
  waitFor,
  waitForVerdict,
  type JudgedVerdict,
  type StateNames,
  type WaitVerdict,
} from "./waiter";

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

/** What a wait of the client reports on, and until when. */
export interface WaitArgs {
  /** The resource, as progress lines and errors name it. */
  what: string;
  /** Its path, as progress lines and errors show it. */
  path: string;
  /** The deadline of the wait (absolute epoch ms). */
  deadline: number;
  onProgress?: (line: string) => void;
  /** True right after a mutating call: the first poll waits one interval (see `WaitOptions`). */
  afterMutation?: boolean;
}

/** The endpoints of the table. */
type Endpoints = typeof ENDPOINTS;

/** The project and the path parameters of endpoint `N`, e.g. `{projectId, id, pool}`. */
export type EndpointParams<N extends EndpointName> = { projectId: string } & PathParams<Endpoints[N]["path"]>;

/** The arguments after the parameters of a call of `E`: the body (required when it takes one), the query. */
type ArgsOf<E extends Endpoint> = E["body"] extends WireSchemaName
  ? [body: BodyOf<E>, query?: QueryOf<E>]
  : [body?: undefined, query?: QueryOf<E>];

/** The arguments of `call` after the parameters, for endpoint `N`. */
export type CallArgs<N extends EndpointName> = ArgsOf<Endpoints[N]>;

/** What endpoint `N` answers (the table's response type; see `ResponseOf`). */
export type AnswerOf<N extends EndpointName> = ResponseOf<Endpoints[N]>;

/** The endpoints that answer a page of a list: those whose table entry names a list item schema. */
export type ListEndpoint = {
  [N in EndpointName]: Endpoints[N] extends { list: WireSchemaName } ? N : never;
}[EndpointName];

/**
 * The query of each list endpoint: the static type of its table entry's `query` schema (as `QueryOf`), worked
 * out once per endpoint. `ListQueryOf<N>` indexes this map rather than writing `QueryOf<Endpoints[N]>`, on
 * which the compiler gives up ("Type instantiation is excessively deep", TS2589) where `list` reads its
 * generic query as a `ListQuery`.
 */
type ListQueries = {
  [N in ListEndpoint]: Endpoints[N] extends { query: WireSchemaName }
    ? SchemaType<Endpoints[N]["query"]>
    : Record<never, never>;
};

/** The query of list endpoint `N`: the static type of its table entry's `query` schema. */
export type ListQueryOf<N extends ListEndpoint> = ListQueries[N];

/** The item type of list endpoint `N`. */
export type ItemOf<N extends ListEndpoint> = SchemaType<Endpoints[N]["list"]>;

/** The endpoints that read one object by id: those the table names as the probe of a mutation. */
export type GetEndpoint = ProbeName;

/** The object get endpoint `N` reads. */
export type ObjectOf<N extends GetEndpoint> = SchemaType<Endpoints[N]["response"]>;

/**
 * The secrets a request body carries, registered for redaction before it is sent (`rest/redact.ts`): no
 * message of the process may show them afterwards, whatever goes wrong.
 */
const BODY_SECRETS: { readonly [N in EndpointName]?: (body: BodyOf<Endpoints[N]>) => unknown[] } = {
  createKaas: (body) => [body.properties.identity?.clientSecret],
};

export interface ClientOptions {
  pollIntervalMs?: number;
  retry?: RetryPolicy;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  onRetry?: (line: string) => void;
  /** Sends each request; a test records requests with its own (`rest/transport.ts`). */
  transport?: Transport;
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
  /** When a cluster's kubeconfig is downloaded again (`vendor:kubeconfigRefresh`). */
  readonly kubeconfigRefresh: KubeconfigRefresh;
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
      transport: options.transport,
    });
    // The token source shares the keep-alive connections of the HTTP client.
    this.http.settings.tokenSource =
      tokenSource ??
      (settings.token
        ? new StaticTokenSource(settings.token)
        : new ClientCredentialsTokenSource(this.http.transport, {
            ...clientCredentialsOf(settings),
            timeoutMs: settings.requestTimeoutMs,
            now: options.now,
          }));
    this.pollIntervalMs = options.pollIntervalMs ?? settings.pollIntervalMs;
    this.stateNames = stateNamesOf(settings.stateNames);
    this.unknownStateTimeoutMs = settings.unknownStateTimeoutMs ?? DEFAULT_UNKNOWN_STATE_TIMEOUT_MS;
    this.kubeconfigRefresh = settings.kubeconfigRefresh;
    this.sleep = options.sleep;
    this.now = options.now ?? Date.now;
  }

  /**
   * Sends one request of the endpoint table (`schemas/endpoints.ts`) through the choke point and answers what
   * the table says it answers: `params` holds the project and the path parameters (encoded here), `body` is
   * checked against the endpoint's schema before any I/O, `query` values that are undefined are left out. A
   * mutation whose table entry names a `probe` reads its target with it, so that a 400 refusing a busy target
   * is retried while the target is transitional (`rest/busy.ts`).
   */
  async call<N extends EndpointName>(
    name: N,
    params: EndpointParams<N>,
    ...[body, query]: CallArgs<N>
  ): Promise<AnswerOf<N>> {
    // The entry of `name` takes the body of `name`, which `body` is (`CallArgs<N>`); the mapped table does not
    // let TypeScript relate the two.
    const secrets = BODY_SECRETS[name] as ((body: unknown) => unknown[]) | undefined;
    for (const secret of secrets?.(body) ?? []) if (typeof secret === "string") registerSecret(secret);
    return this.answer<AnswerOf<N>>(ENDPOINTS[name], params, { body, query });
  }

  /** The path of endpoint `name` for `params`, below the provider prefix, as requests and progress lines show it. */
  pathOf<N extends EndpointName>(name: N, params: PathParams<Endpoints[N]["path"]>): string {
    return expandPath(ENDPOINTS[name].path, params);
  }

  /** The object endpoint `name` reads, or undefined when it is gone (404, or a `deleted` state). */
  find<N extends GetEndpoint>(name: N, params: EndpointParams<N>): Promise<ObjectOf<N> | undefined> {
    return findLive(this.stateNames, () => this.answer<ObjectOf<N>>(ENDPOINTS[name], params, {}));
  }

  /**
   * One page of list endpoint `name`. The answer is checked against the list schema, or with a `projection`
   * against its deep-partial form (`schemas/projection.ts`: which fields a projection keeps is not
   * documented). An item that fails it does not fail the page: it is left out of `values` and described in
   * `unreadable`; a problem of the envelope itself fails the request.
   */
  async list<N extends ListEndpoint, Q extends ListQueryOf<N> = Record<never, never>>(
    name: N,
    params: EndpointParams<N>,
    // No query: every member of a list query is optional, and `Q` is the empty query unless one is given.
    query: Q = {} as Q,
  ): Promise<ReadPage<ListedItem<Q, ItemOf<N>>>> {
    const endpoint: Endpoint & { list: WireSchemaName } = ENDPOINTS[name];
    const listQuery: ListQuery = query;
    const result = await this.send<ListPage<ListedItem<Q, ItemOf<N>>>>(endpoint, params, {
      query,
      responseSchema: hasProjection(listQuery) ? projectedListOf(endpoint.list) : endpoint.response,
      tolerates: isItemProblem,
    });
    return readPage(result.data, result.tolerated ?? [], listQuery.offset ?? 0);
  }

  /** Every readable item of list endpoint `name` matching `query`, across pages. */
  iterate<N extends ListEndpoint, Q extends ListIteration & ListQueryOf<N> = Record<never, never>>(
    name: N,
    params: EndpointParams<N>,
    // No query: every member of a list query is optional, and `Q` is the empty query unless one is given.
    query: Q = {} as Q,
    pageSize = 100,
  ): AsyncGenerator<ListedItem<Q, ItemOf<N>>, void, undefined> {
    const { onUnreadable, ...listQuery } = query;
    const request = `GET ${this.pathOf(name, params)}`;
    // The pages of `list` with this query and an offset and limit, which do not change the type of the items.
    return paginate(
      (offset, limit) => this.list(name, params, { ...listQuery, offset, limit }),
      pageSize,
      onUnreadable,
      (item) => unreadableItemLine(request, item),
    ) as AsyncGenerator<ListedItem<Q, ItemOf<N>>, void, undefined>;
  }

  /**
   * The answer of one request of `endpoint`. The choke point checked it against the endpoint's response
   * schema and refused an empty one unless the table allows it (`Endpoint.emptyAnswer`), so it has the type
   * `T` the table gives that schema: the one place the client narrows a wire answer to its type.
   */
  private async answer<T>(
    endpoint: Endpoint,
    params: { projectId: string },
    spec: { body?: unknown; query?: unknown },
  ): Promise<T> {
    // Checked and refused when empty by the choke point, as said above.
    return (await this.send(endpoint, params, spec)).data as T;
  }

  /** One request of `endpoint` through the choke point, with its probe; the answer as the choke point read it. */
  private send<T = unknown>(
    endpoint: Endpoint,
    params: { projectId: string } & Record<string, string>,
    spec: {
      body?: unknown;
      query?: unknown;
      responseSchema?: SchemaRef;
      tolerates?: (problem: SchemaProblem) => boolean;
    },
  ): Promise<HttpResult<T>> {
    const { projectId, ...pathParams } = params;
    const probe = endpoint.probe;
    return this.http.request<T>({
      method: endpoint.method,
      projectId,
      path: expandPath(endpoint.path, pathParams),
      body: spec.body,
      bodySchema: endpoint.body,
      responseSchema: spec.responseSchema ?? endpoint.response,
      emptyAnswer: endpoint.emptyAnswer === true,
      tolerates: spec.tolerates,
      // The query of the endpoint's table entry: its values are text, numbers, booleans or absent.
      query: spec.query as Record<string, QueryValue> | undefined,
      idempotent: endpoint.idempotent,
      responseType: endpoint.responseType === "text" ? "text" : undefined,
      transitionalProbe: probe
        ? async () =>
            isBusyState(
              (await this.answer<WithStatus>(ENDPOINTS[probe], params, {})).status?.state,
              this.stateNames,
            )
        : undefined,
    });
  }

  /**
   * `GET P/kaas/{id}/download`: the kubeconfig, decoded. The service answers `{name, content}` with base64
   * content; a raw kubeconfig body is accepted too (api-notes).
   */
  async downloadKubeconfig(projectId: string, id: string): Promise<string> {
    const text = await this.call("downloadKubeconfig", { projectId, id });
    let kubeconfig = text;
    try {
      // Read with checks: only a string `content` is used.
      const parsed: unknown = JSON.parse(text);
      if (isRecord(parsed) && typeof parsed.content === "string") {
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

  // ---- Waiting ----

  /**
   * Polls `observe` until the resource is settled (`Active`...), failed, or the deadline passes. The
   * observation may be undefined (gone), which is a failure while waiting to settle. A custom `judge` gets
   * the client's state names (`stateNames`) to classify with; a state they do not know ends the wait after
   * `unknownStateTimeoutMs`.
   */
  waitUntilSettled<T extends WithStatus>(
    observe: () => Promise<T | undefined>,
    args: WaitArgs & {
      judge?: (t: T, states: StateNames) => WaitVerdict;
      /** What a custom `judge` waits for, for progress lines and errors. Default `Active`. */
      target?: string;
    },
  ): Promise<T> {
    // The judge fails the wait on an undefined observation: the one it ends with is a `T`.
    return waitForVerdict(
      observe,
      (t): JudgedVerdict<T> =>
        t === undefined
          ? { kind: "failed", reason: "it no longer exists" }
          : judged(t, args.judge ? args.judge(t, this.stateNames) : classifyState(t.status, this.stateNames)),
      {
        ...this.waitDefaults(args),
        target: args.target ?? "Active",
        method: "GET",
        unknownStateTimeoutMs: this.unknownStateTimeoutMs,
      },
    );
  }

  /**
   * Polls `observe` until it answers undefined (404 or a `deleted` state). Any state but a failure is waited
   * on, one the client does not know included: a deletion under way may show any name until it is gone.
   */
  async waitUntilGone<T extends WithStatus>(
    observe: () => Promise<T | undefined>,
    args: WaitArgs,
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

/**
 * The client credentials of settings without a token: `resolveSettings` refuses settings that have neither a
 * token nor all three of them.
 */
function clientCredentialsOf(settings: VendorSettings): {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
} {
  const { tokenUrl, clientId, clientSecret } = settings;
  if (tokenUrl === undefined || clientId === undefined || clientSecret === undefined)
    throw new Error("no credentials: settings without a token need tokenUrl, clientId and clientSecret");
  return { tokenUrl, clientId, clientSecret };
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
function readPage<T>(body: ListPage<T> | undefined, problems: SchemaProblem[], offset: number): ReadPage<T> {
  const page = body ?? { values: [] };
  if (problems.length === 0) return { ...page, values: page.values, unreadable: [] };
  const byIndex = new Map<number, SchemaProblem[]>();
  for (const { path, message } of problems) {
    // Every problem here matches `ITEM_PROBLEM`: `isItemProblem` is what tolerated it.
    const match = ITEM_PROBLEM.exec(path);
    if (match === null) continue;
    const [, index, inside] = match;
    const list = byIndex.get(Number(index)) ?? [];
    list.push({ path: inside ?? "/", message });
    byIndex.set(Number(index), list);
  }
  const unreadable: UnreadableItem[] = [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, itemProblems]) => {
      const item: unknown = page.values[index];
      const metadata = isRecord(item) ? item.metadata : undefined;
      const id = isRecord(metadata) ? metadata.id : undefined;
      return {
        offset: offset + index,
        ...(typeof id === "string" && id !== "" ? { id } : {}),
        problems: itemProblems,
      };
    });
  return { ...page, values: page.values.filter((_, i) => !byIndex.has(i)), unreadable };
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
