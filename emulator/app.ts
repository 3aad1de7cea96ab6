/**
 * The emulator app factory: `createEmulator(options)` builds the service (state, clock, rules, faults, auth)
 * and a `node:http` request listener, separate from listening (`startEmulator` in `index.ts` listens). The
 * returned `Emulator` also exposes every control operation as a method for in-process tests.
 *
 * Request pipeline of an API route, in order: request log entry, body read, fault decision (latency, dropped
 * connection, rate limit, injected status), bearer auth (401), `api-version` (spec §9: absent, `1` or `1.0`),
 * routing below `/projects/{projectId}/providers/{namespace}` (404/405), content type (415) and JSON (400),
 * lazy settling of lifecycles, the handler, then optionally a connection dropped after processing.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { KaasResponse } from "../schemas/kaas";
import { TokenIssuer, type ClientCredentials } from "./auth";
import { EmulatorClock, iso } from "./clock";
import {
  CONFIG_KEYS,
  checkConfig,
  defaultConfig,
  mergeConfig,
  mergePatch,
  type EmulatorConfig,
  type EmulatorConfigInput,
} from "./config";
import { CONTROL_PREFIX, handleControl } from "./control";
import { FaultInjector, checkFaults, defaultFaults, type FaultConfig } from "./faults";
import { kubeconfigToken, resizePool } from "./kaas";
import { JSON_TYPES, MAX_BODY_BYTES, asProblem, problemReply, readBody, send, traceIdOf } from "./http";
import { ApiProblem, FAULT_PROBLEMS } from "./problems";
import type { AnyResponse } from "./render";
import { API_ROUTES, matchRoute } from "./routes";
import { compareVersions } from "./rules";
import { Service, notFound, type Reply } from "./service";
import { Store, type AnyRecord, type Kind, type LifeState } from "./store";

/** Options of `createEmulator`; every field is optional. Configuration fields are those of `EmulatorConfig`. */
export interface EmulatorOptions extends EmulatorConfigInput {
  /** Provider namespace path segment. Default `Vendor.Container` (api-notes: keep it a setting). */
  namespace?: string;
  /** Accepted static bearer tokens. Default `["emulator-token"]`. */
  tokens?: string[];
  /** OAuth2 clients of `POST /oauth2/token`. Default one client `emulator-client` / `emulator-secret`. */
  clients?: ClientCredentials[];
  /**
   * JSON state file: loaded at start when it exists, rewritten after each mutation. Default none (memory only).
   * Issued OAuth2 tokens are not persisted: after a restart clients get a 401 and fetch a new token.
   */
  stateFile?: string;
  /** Seed of the derived secrets (issued tokens, kubeconfig tokens) and the default fault seed. Default 1. */
  seed?: number;
  /** Initial fault configuration. Default no faults. */
  faults?: Partial<FaultConfig>;
  /** Source of real time (the clock adds its offset). Default `Date.now`. */
  realNow?: () => number;
  /** Number of request log entries kept (oldest dropped first). Default 10000. */
  requestLogLimit?: number;
}

/** One request log entry: never bodies, headers or tokens. */
export interface RequestLogEntry {
  seq: number;
  /** Emulator time of receipt, ISO. */
  time: string;
  method: string;
  path: string;
  /** Query parameters; values of secret-looking names are redacted. */
  query: Record<string, string>;
  /** Status answered (or that would have been, for `dropped: "after"`); null when dropped before processing. */
  status: number | null;
  /** True for POST, PUT, DELETE and PATCH of API routes. */
  mutating: boolean;
  /** Set when the connection was destroyed: before processing, or after processing without an answer. */
  dropped?: "before" | "after";
}

/** Out-of-band change of a stored resource (`PATCH /_emulator/resources/{kind}/{id}`). */
export interface ResourcePatch {
  name?: string;
  tags?: string[];
  /** Forces the lifecycle state (settled: no further transition, except `Deleted` which still expires). */
  state?: LifeState;
  failureReason?: string | null;
  /** Disables the resource for these reasons (`status.disableStatusInfo`); an empty list enables it again. */
  disabledReasons?: string[];
  /** JSON merge patch (RFC 7396) applied to the stored properties (see `store.ts` for their shape). */
  properties?: Record<string, unknown>;
}

/**
 * A volume attachment as the emulator holds it, whatever the wire reading lets responses show
 * (`GET /_emulator/kaas/{id}/attachments`): the truth tests check against.
 */
export interface AttachmentTruth {
  uri: string;
  nodePoolName: string | null;
  /** Null once the node was removed (the volume stays attached to the cluster). */
  nodeId: string | null;
  sizeGb: number;
  /**
   * `attaching` (accepted, not yet shown), `attached`, or `detaching` (a detach was accepted; it still shows
   * until the detach duration passes). Attaching and attached count against the storage limit.
   */
  state: "attaching" | "attached" | "detaching";
}

/** Everything the emulator holds, tombstones included (`GET /_emulator/state`). */
export interface EmulatorStateSnapshot {
  now: string;
  counters: Record<Kind, number>;
  kaas: AnyResponse[];
  backups: AnyResponse[];
  registries: AnyResponse[];
}

/** The emulator: a request listener plus the control operations. */
export interface Emulator {
  /** `node:http` request listener serving the API, the token endpoint and the control API. */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  readonly namespace: string;
  readonly clock: EmulatorClock;
  /** Emulator time, epoch ms. */
  now(): number;
  /** Moves the clock by `ms`; returns the new time. */
  advanceClock(ms: number): number;
  /** Sets the clock; returns the new time. */
  setClock(epochMs: number): number;
  /** The request log (a copy). */
  requests(): RequestLogEntry[];
  clearRequests(): void;
  getFaults(): FaultConfig;
  /** Replaces the fault configuration (missing keys take defaults) and reseeds the generator. */
  setFaults(faults: Partial<FaultConfig>): FaultConfig;
  getConfig(): EmulatorConfig;
  /** Deep-merges `patch` into the configuration. */
  updateConfig(patch: EmulatorConfigInput): EmulatorConfig;
  /** Forgets every resource, request, issued token and clock offset; faults and config return to the options. */
  reset(): void;
  state(): EmulatorStateSnapshot;
  /** Simulates a platform upgrade job: the cluster's live version becomes `version`. */
  platformUpgrade(kaasId: string, version: string): KaasResponse;
  /** The volume attachments the cluster holds, in attach order, shown by the wire reading or not. */
  attachments(kaasId: string): AttachmentTruth[];
  /**
   * The node ids of each pool of the cluster, whatever the wire reading `nodeIds` lets responses show: what
   * `kubectl get nodes` shows a user of the real service, which has no endpoint listing nodes.
   */
  nodes(kaasId: string): { nodePool: string; nodeIds: string[] }[];
  /** Simulates the autoscaler (or any out-of-band scaling): the pool gets `nodes` nodes. */
  scaleNodePool(kaasId: string, poolName: string, nodes: number): KaasResponse;
  patchResource(kind: Kind, id: string, patch: ResourcePatch): AnyResponse;
  /** Revokes every issued OAuth2 token; returns how many. */
  revokeTokens(): number;
  /** The bearer token in the cluster's kubeconfig (a secret: for tests that check redaction). */
  kubeconfigToken(kaasId: string): string;
  /** Writes the state file now (no-op without one). */
  persist(): void;
}

const SECRET_NAMES = /token|secret|password|key|auth/i;
const ACCEPTED_API_VERSIONS = new Set(["1", "1.0"]);

/** The configuration fields of the options (the rest are start-up settings, not configuration). */
function configInputOf(options: EmulatorOptions): EmulatorConfigInput {
  const input: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) if (options[key] !== undefined) input[key] = structuredClone(options[key]);
  return input as EmulatorConfigInput;
}

/** Builds an emulator. It does not listen: pass `emulator.handler` to `http.createServer`, or use `startEmulator`. */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const namespace = options.namespace ?? "Vendor.Container";
  const seed = options.seed ?? 1;
  const realNow = options.realNow ?? Date.now;
  const logLimit = options.requestLogLimit ?? 10_000;
  const initialConfig = () => mergeConfig(defaultConfig(), configInputOf(options));
  const initialFaults = (): FaultConfig => ({ ...defaultFaults(), seed, ...(options.faults ?? {}) });

  // Options are checked like control API input: a bad start-up configuration fails loudly, here.
  const startProblems = [...checkConfig(initialConfig()), ...checkFaults(initialFaults())];
  if (startProblems.length > 0) {
    throw new Error(
      `invalid emulator options: ${startProblems.map((p) => `${p.fieldName}: ${p.errorMessage}`).join("; ")}`,
    );
  }
  const store = new Store(options.stateFile);
  const clock = new EmulatorClock(realNow, store.loadedClockOffsetMs);
  const faults = new FaultInjector(initialFaults(), realNow);
  const svc = new Service(store, clock, initialConfig(), faults, namespace, seed);
  const issuer = new TokenIssuer(
    new Set((options.tokens ?? ["emulator-token"]).map((t) => t.trim())),
    options.clients ?? [{ clientId: "emulator-client", clientSecret: "emulator-secret" }],
    seed,
  );
  let log: RequestLogEntry[] = [];
  let seq = 0;

  const persist = () => store.persist(clock.offsetMs);

  function record(entry: RequestLogEntry): void {
    log.push(entry);
    if (log.length > logLimit) log = log.slice(log.length - logLimit);
  }

  function kaasOr404(id: string) {
    svc.settleAll();
    const rec = store.kaas.get(id);
    if (!rec) throw notFound("kaas", id);
    return rec;
  }

  function processApi(req: IncomingMessage, url: URL, raw: Buffer): Reply {
    const method = req.method ?? "GET";
    const auth = issuer.check(req.headers.authorization, clock.now());
    if (!auth.ok) {
      throw new ApiProblem("unauthorized", {
        detail: auth.detail,
        headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' },
      });
    }
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
    let body: unknown;
    if (raw.length > 0) {
      // spec §4: bodies are accepted as application/json, text/json or application/*+json.
      if (!JSON_TYPES.test(req.headers["content-type"] ?? "")) {
        throw new ApiProblem("unsupportedMediaType", {
          detail: `Content-Type "${req.headers["content-type"] ?? ""}" is not accepted; send application/json.`,
        });
      }
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch (error) {
        throw new ApiProblem("malformedJson", { detail: (error as Error).message });
      }
    }
    svc.settleAll();
    const host = req.headers.host ?? "127.0.0.1";
    const pageUrl = (offset: number, limit: number) => {
      const params = new URLSearchParams(url.searchParams);
      params.set("offset", String(offset));
      params.set("limit", String(limit));
      return `http://${host}${url.pathname}?${params.toString()}`;
    };
    return match.route.handler(svc, {
      projectId,
      params: match.params,
      query: url.searchParams,
      body,
      pageUrl,
    });
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? "GET";
    const entry: RequestLogEntry = {
      seq: ++seq,
      time: iso(clock.now()),
      method,
      path: url.pathname,
      query: Object.fromEntries(
        [...url.searchParams].map(([k, v]) => [k, SECRET_NAMES.test(k) ? "[redacted]" : v]),
      ),
      status: null,
      mutating: ["POST", "PUT", "DELETE", "PATCH"].includes(method) && url.pathname !== "/oauth2/token",
    };
    const traceId = traceIdOf(entry.seq);
    let raw: Buffer | "too-large";
    try {
      raw = await readBody(req);
    } catch {
      entry.dropped = "before";
      record(entry);
      return;
    }

    // The token endpoint is part of the service but not of the API: no faults, no bearer auth.
    if (url.pathname === "/oauth2/token") {
      let reply: Reply;
      if (method !== "POST") {
        reply = problemReply(
          new ApiProblem("methodNotAllowed", { detail: "Use POST.", headers: { Allow: "POST" } }),
          url.pathname,
          traceId,
        );
      } else {
        const answer = issuer.exchange(
          raw === "too-large" ? "" : raw.toString("utf8"),
          req.headers.authorization,
          clock.now(),
          svc.config.tokenTtlSeconds,
        );
        reply = { status: answer.status, body: answer.body, headers: { "Cache-Control": "no-store" } };
      }
      entry.status = reply.status;
      record(entry);
      send(res, reply);
      return;
    }

    const decision = faults.decide(method);
    if (decision.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, decision.latencyMs));
    if (decision.dropBefore) {
      entry.dropped = "before";
      record(entry);
      req.socket.destroy();
      return;
    }
    let reply: Reply;
    try {
      const retryAfter = faults.takeToken();
      if (retryAfter !== undefined) {
        throw new ApiProblem("rateLimited", {
          detail: "Rate limit exceeded.",
          headers: { "Retry-After": String(retryAfter) },
        });
      }
      if (decision.status !== undefined) {
        const headers: Record<string, string> =
          decision.status === 429 || decision.status === 503
            ? { "Retry-After": String(faults.retryAfterSeconds) }
            : {};
        throw new ApiProblem(FAULT_PROBLEMS[decision.status], { detail: "Injected fault.", headers });
      }
      if (raw === "too-large")
        throw new ApiProblem("payloadTooLarge", { detail: `Bodies are limited to ${MAX_BODY_BYTES} bytes.` });
      reply = processApi(req, url, raw);
    } catch (error) {
      // The reading of the moment: `PUT /_emulator/config` may have changed it since the last answer.
      reply = problemReply(asProblem(error), url.pathname, traceId, svc.config.wire.errors);
    }
    entry.status = reply.status;
    if (decision.dropAfter) {
      // The request was processed (a create created); the client never learns the outcome.
      entry.dropped = "after";
      record(entry);
      req.socket.destroy();
      return;
    }
    record(entry);
    send(res, reply);
  }

  async function handleControlRequest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.slice(CONTROL_PREFIX.length) || "/";
    let reply: Reply;
    try {
      const raw = await readBody(req);
      let body: unknown;
      if (raw !== "too-large" && raw.length > 0) {
        try {
          body = JSON.parse(raw.toString("utf8"));
        } catch (error) {
          throw new ApiProblem("malformedJson", { detail: (error as Error).message });
        }
      }
      reply = handleControl(emulator, req.method ?? "GET", path, body);
    } catch (error) {
      reply = problemReply(asProblem(error), url.pathname, traceIdOf(0));
    }
    send(res, reply);
  }

  const emulator: Emulator = {
    handler(req, res) {
      const url = new URL(req.url ?? "/", "http://emulator.invalid");
      const isControl = url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`);
      const work = isControl ? handleControlRequest(req, res, url) : handleApi(req, res, url);
      work.catch((error: unknown) => {
        send(res, {
          status: 500,
          body: {
            title: "Internal Server Error",
            status: 500,
            detail: String((error as Error)?.message ?? error),
          },
        });
      });
    },
    namespace,
    clock,
    now: () => clock.now(),
    advanceClock(ms) {
      const now = clock.advance(ms);
      persist();
      return now;
    },
    setClock(epochMs) {
      const now = clock.set(epochMs);
      persist();
      return now;
    },
    requests: () => log.map((e) => ({ ...e, query: { ...e.query } })),
    clearRequests() {
      log = [];
    },
    getFaults: () => faults.get(),
    setFaults(input) {
      const next: FaultConfig = { ...defaultFaults(), seed, ...input };
      const problems = checkFaults(next);
      if (problems.length > 0) {
        throw new ApiProblem("validation", {
          detail: problems.map((p) => `${p.fieldName}: ${p.errorMessage}`).join("; "),
          errors: problems,
        });
      }
      faults.set(next);
      return faults.get();
    },
    getConfig: () => structuredClone(svc.config),
    updateConfig(patch) {
      const unknown = Object.keys(patch).filter((k) => !(CONFIG_KEYS as string[]).includes(k));
      if (unknown.length > 0) {
        throw new ApiProblem("validation", {
          detail: `Unknown configuration key(s): ${unknown.join(", ")}.`,
          errors: unknown.map((k) => ({
            fieldName: k,
            errorMessage: `is not a configuration key (known: ${CONFIG_KEYS.join(", ")})`,
          })),
        });
      }
      const next = mergeConfig(svc.config, patch);
      const problems = checkConfig(next);
      if (problems.length > 0) {
        throw new ApiProblem("validation", {
          detail: problems.map((p) => `${p.fieldName}: ${p.errorMessage}`).join("; "),
          errors: problems,
        });
      }
      svc.config = next;
      return structuredClone(svc.config);
    },
    reset() {
      store.clear();
      clock.offsetMs = 0;
      faults.set(initialFaults());
      svc.config = initialConfig();
      issuer.revokeAll();
      log = [];
      seq = 0;
      persist();
    },
    state() {
      svc.settleAll();
      const render = (r: AnyRecord) => svc.render(r);
      return {
        now: iso(clock.now()),
        counters: { ...store.counters },
        kaas: [...store.kaas.values()].map(render),
        backups: [...store.backups.values()].map(render),
        registries: [...store.registries.values()].map(render),
      };
    },
    platformUpgrade(kaasId, version) {
      const rec = kaasOr404(kaasId);
      if (compareVersions(version, rec.props.kubernetesVersion) <= 0) {
        throw new ApiProblem("validation", {
          detail: `A platform upgrade moves the version up; KaaS "${kaasId}" runs ${rec.props.kubernetesVersion}.`,
          errors: [
            { fieldName: "version", errorMessage: `must be higher than ${rec.props.kubernetesVersion}` },
          ],
        });
      }
      rec.props.kubernetesVersion = version;
      // A scheduled upgrade to a version the platform already reached has nothing left to do.
      if (rec.props.upgradeTo && compareVersions(rec.props.upgradeTo.value, version) <= 0)
        rec.props.upgradeTo = null;
      persist();
      return svc.render(rec) as KaasResponse;
    },
    attachments(kaasId) {
      const rec = kaasOr404(kaasId);
      const now = clock.now();
      return rec.props.attachments.map((a) => ({
        uri: a.uri,
        nodePoolName: a.nodePoolName,
        nodeId: a.nodeId,
        sizeGb: a.sizeGb,
        state: a.visibleUntil !== null ? "detaching" : a.visibleFrom > now ? "attaching" : "attached",
      }));
    },
    nodes(kaasId) {
      return kaasOr404(kaasId).props.nodePools.map((pool) => ({
        nodePool: pool.name,
        nodeIds: [...pool.nodeIds],
      }));
    },
    scaleNodePool(kaasId, poolName, nodes) {
      const rec = kaasOr404(kaasId);
      const pool = rec.props.nodePools.find((p) => p.name === poolName);
      if (!pool)
        throw new ApiProblem("notFound", {
          title: "Node pool not found",
          detail: `No node pool "${poolName}".`,
        });
      resizePool(rec, pool, nodes);
      persist();
      return svc.render(rec) as KaasResponse;
    },
    patchResource(kind, id, patch) {
      svc.settleAll();
      const rec = store.mapOf(kind).get(id);
      if (!rec) throw notFound(kind, id);
      const now = clock.now();
      if (patch.name !== undefined) rec.name = patch.name;
      if (patch.tags !== undefined) rec.tags = [...patch.tags];
      if (patch.disabledReasons !== undefined) rec.disabledReasons = [...patch.disabledReasons];
      if (patch.properties !== undefined) {
        (rec as { props: unknown }).props = mergePatch(rec.props, patch.properties);
      }
      if (patch.state !== undefined) {
        const deleted = patch.state === "Deleted";
        rec.life = {
          state: patch.state,
          since: now,
          until: deleted ? now + svc.config.durations.tombstoneMs : null,
          next: deleted ? "Gone" : null,
          failureReason: patch.failureReason ?? null,
        };
        if (patch.state === "Active" && rec.provisionedAt === null) rec.provisionedAt = now;
      } else if (patch.failureReason !== undefined) {
        rec.life.failureReason = patch.failureReason;
      }
      persist();
      return svc.render(rec);
    },
    revokeTokens: () => issuer.revokeAll(),
    kubeconfigToken: (kaasId) => kubeconfigToken(seed, kaasId),
    persist,
  };
  return emulator;
}
