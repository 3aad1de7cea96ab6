/**
 * The one HTTP choke point of the package (house style "One HTTP choke point"). Every request of every
 * resource kind goes through `HttpClient.request`, which, in order:
 *   1. validates the request body against its schema and throws before any I/O;
 *   2. expands the path under `/projects/{projectId}/providers/{namespace}` and adds `api-version`;
 *   3. adds content types and the bearer token (refreshed once on 401);
 *   4. sends it through the transport (`rest/transport.ts`) with a per-attempt timeout over keep-alive
 *      connections;
 *   5. retries 429, 5xx and dropped connections with full-jitter backoff, honouring `Retry-After` (plus a
 *      little jitter), within the call's overall deadline - 429 as often as the deadline allows, the others
 *      up to `maxAttempts` - but never re-sends a non-idempotent request whose fate is unknown (any 5xx or
 *      dropped connection after sending; only 429 and a refused connection prove a create was not processed);
 *   6. retries a 400 that is a busy refusal under the rule of `rest/busy.ts` (never a create or a validation
 *      failure; only while a probe GET sees the resource transitional, or once when it settled meanwhile);
 *   7. turns every failure into a `VendorApiError` with secrets redacted.
 */
import { isRecord } from "../schemas/typed";
import { formatProblems, validateSchema, type SchemaProblem, type SchemaRef } from "../schemas/validate";
import { credentialHint, type TokenSource } from "./auth";
import { busyVerdict, mayBeBusyRefusal } from "./busy";
import { VendorApiError, fieldProblemsOf, isVendorApiError, parseProblem } from "./errors";
import { redact } from "./redact";
import {
  DEFAULT_RETRY_POLICY,
  NOT_SENT_ERROR_CODES,
  RATE_LIMITED_STATUS,
  RETRYABLE_STATUSES,
  SAFE_FOR_CREATE_STATUSES,
  parseRetryAfter,
  retryDelay,
  type RetryPolicy,
} from "./retry";
import { keepAliveTransport, type Transport, type WireResponse } from "./transport";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";
export type QueryValue = string | number | boolean | undefined | null;

/** Connection and protocol settings shared by every request of one client. */
export interface HttpSettings {
  /** Service base URL, for example `https://api.example.com` or the emulator's URL. */
  baseUrl: string;
  /** `api-version` query parameter (spec §9; default `1`). */
  apiVersion: string;
  /** Provider namespace path segment (default `Vendor.Container`). */
  providerNamespace: string;
  tokenSource: TokenSource;
  /** Timeout of one attempt. */
  requestTimeoutMs: number;
  /** Overall deadline of one call including its retries. */
  callDeadlineMs: number;
  retry: RetryPolicy;
  /** Sends one attempt; `keepAliveTransport()` unless a test records requests instead. */
  transport?: Transport;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Called before each retry with a redacted one-line reason. */
  onRetry?: (line: string) => void;
}

export interface RequestSpec {
  method: HttpMethod;
  projectId: string;
  /** Path below the provider prefix, e.g. `/kaas/k-1`; callers encode path parameters. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Schema the body must satisfy; checked before any I/O. */
  bodySchema?: SchemaRef;
  /**
   * Schema a JSON response body must satisfy. A 2xx without a body is then an error (a create's is
   * ambiguous: it was processed, so the caller looks the object up), unless `emptyAnswer` allows it.
   */
  responseSchema?: SchemaRef;
  /** True where a 2xx without a body is a plausible answer although `responseSchema` describes one. */
  emptyAnswer?: boolean;
  /**
   * Problems of the response body that do not fail the request; they are handed back in
   * `HttpResult.tolerated`. A list tolerates those of its items (rest/client.ts, rest/paginate.ts).
   */
  tolerates?: (problem: SchemaProblem) => boolean;
  /**
   * False for a create: a failure after the request may have reached the service (timeout, dropped
   * connection, any 5xx including 503) is thrown with `ambiguous: true` instead of being retried, so the
   * caller can look the object up before trying again (api-notes "Errors": a gateway may answer 503 after
   * the service processed the create). Only a 429 or a refused connection is re-sent.
   */
  idempotent: boolean;
  /** Answers whether the target is transitional; enables the retry of a busy 400 (`rest/busy.ts`). */
  transitionalProbe?: () => Promise<boolean>;
  /** Overrides the overall deadline (absolute epoch ms). */
  deadline?: number;
  /** `text` returns the raw body (kubeconfig download). */
  responseType?: "json" | "text";
}

export interface HttpResult<T = unknown> {
  status: number;
  data: T | undefined;
  /** The problems of the body that `RequestSpec.tolerates` accepted; absent when the body is valid. */
  tolerated?: SchemaProblem[];
}

/** Result of one classified attempt. */
type Attempt =
  | { outcome: "ok"; result: HttpResult }
  /** `unanswered`: the attempt went out and may have been processed (no answer came back, or a 5xx did). */
  | { outcome: "retry"; error: VendorApiError; retryAfterMs?: number; unanswered?: boolean }
  | { outcome: "fail"; error: VendorApiError }
  /** A busy refusal whose resource had settled by the time it was probed: worth exactly one more try. */
  | { outcome: "retry-once"; error: VendorApiError; retryAfterMs?: undefined };

/** A failed attempt worth retrying: its error and the wait the service asked for, if any. */
type Failure = { error: VendorApiError; retryAfterMs?: number };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class HttpClient {
  /** The wire, shared with the token source so that token exchanges reuse its connections. */
  readonly transport: Transport;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  /** Requests sent, counted per attempt; read by tests and the benchmark. */
  attempts = 0;

  constructor(readonly settings: HttpSettings) {
    this.random = settings.random ?? Math.random;
    this.sleep = settings.sleep ?? defaultSleep;
    this.now = settings.now ?? Date.now;
    this.transport = settings.transport ?? keepAliveTransport();
  }

  /** Full URL path of `spec.path` under the project and provider namespace. */
  fullPath(projectId: string, path: string): string {
    return `/projects/${encodeURIComponent(projectId)}/providers/${this.settings.providerNamespace}${path}`;
  }

  async request<T = unknown>(spec: RequestSpec): Promise<HttpResult<T>> {
    if (spec.bodySchema) {
      const problems = validateSchema(spec.bodySchema, spec.body);
      if (problems.length > 0) throw VendorApiError.validation(spec.method, spec.path, problems);
    }
    const deadline = spec.deadline ?? this.now() + this.settings.callDeadlineMs;
    const policy = this.settings.retry ?? DEFAULT_RETRY_POLICY;
    let refreshedAfter401 = false;
    let retriedSettledBusy = false;
    let lastError: VendorApiError | undefined;
    // Set once an attempt went out and no answer of the service came back (or a 5xx did, perhaps from a
    // gateway after the service processed it): a later refusal may be that attempt's doing.
    let lostAnswer = false;
    // `counted` is what `maxAttempts` bounds; `retry` numbers the waits for the backoff. A 429 raises only
    // the latter: rate-limited requests are repeated until the deadline (`RetryPolicy.maxAttempts`).
    let counted = 0;
    for (let retry = 0; counted < policy.maxAttempts; retry++) {
      const remaining = deadline - this.now();
      if (remaining <= 0) break;
      let failure: Failure;
      const token = await this.tokenOrFailure();
      if (typeof token !== "string") {
        failure = token;
      } else {
        const result = await this.attempt(
          spec,
          token,
          Math.min(this.settings.requestTimeoutMs, remaining),
          lostAnswer,
        );
        // Checked against the response schema of the request, whose type the caller names as `T`.
        if (result.outcome === "ok") return result.result as HttpResult<T>;
        if (result.error.status === 401 && this.settings.tokenSource.refreshable && !refreshedAfter401) {
          // One forced refresh on 401: the token may have been revoked or expired early.
          lastError = result.error;
          refreshedAfter401 = true;
          this.settings.tokenSource.invalidate(token);
          retry--;
          continue;
        }
        if (result.outcome === "fail") throw result.error;
        if (result.outcome === "retry-once") {
          if (retriedSettledBusy) throw result.error;
          retriedSettledBusy = true;
        }
        failure = result;
        if (result.outcome === "retry" && result.unanswered) lostAnswer = true;
      }
      lastError = failure.error;
      if (lastError.status !== RATE_LIMITED_STATUS) counted++;
      // The last allowed attempt failed: give up now rather than sleep before an attempt that never comes.
      if (counted >= policy.maxAttempts) break;
      const wait = retryDelay(retry, failure.retryAfterMs, policy, this.random);
      if (this.now() + wait >= deadline) break;
      this.settings.onRetry?.(`${lastError.message}; retrying in ${Math.round(wait)} ms`);
      await this.sleep(wait);
    }
    const reason = lastError ? lastError.message : "no attempt could be made";
    throw new VendorApiError({
      kind: "deadline",
      method: spec.method,
      path: spec.path,
      status: lastError?.status,
      problem: lastError?.problem,
      detail: `gave up after retries within the deadline; last error: ${reason}`,
      ambiguous: lastError?.ambiguous,
      retryAfterMs: lastError?.retryAfterMs,
      busy: lastError?.busy,
    });
  }

  /**
   * The bearer token, or the failure to retry when the token endpoint is down or rate-limiting (retried like
   * the service itself); any other token error is thrown.
   */
  private async tokenOrFailure(): Promise<string | Failure> {
    try {
      return await this.settings.tokenSource.getToken();
    } catch (error) {
      if (!isVendorApiError(error) || !error.retryable) throw error;
      return { error, retryAfterMs: error.retryAfterMs };
    }
  }

  /** Sends one attempt and classifies its outcome. */
  private async attempt(
    spec: RequestSpec,
    token: string,
    timeoutMs: number,
    afterLostAnswer: boolean,
  ): Promise<Attempt> {
    this.attempts++;
    const url = this.settings.baseUrl.replace(/\/+$/, "") + this.fullPath(spec.projectId, spec.path);
    const query = new URLSearchParams({ "api-version": this.settings.apiVersion });
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined && value !== null) query.set(key, String(value));
    }
    let response: WireResponse;
    try {
      response = await this.transport({
        method: spec.method,
        url: `${url}?${query.toString()}`,
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        headers: {
          Accept: "application/json",
          ...(spec.body === undefined ? {} : { "Content-Type": "application/json" }),
          Authorization: `Bearer ${token}`,
        },
        timeoutMs,
      });
    } catch (cause) {
      return this.classifyNetworkError(spec, cause);
    }
    const status = response.status;
    const text = response.text;
    if (status >= 200 && status < 300) return this.parseSuccess(spec, status, text);

    const problem = parseProblem(text);
    const fieldErrors = fieldProblemsOf(problem);
    const retryAfterMs = parseRetryAfter(response.headers["retry-after"], this.now());
    const refusal = { status, idempotent: spec.idempotent, problem, fieldErrors, text };
    let verdict: ReturnType<typeof busyVerdict> = "final";
    if (spec.transitionalProbe && mayBeBusyRefusal(refusal)) {
      let transitional: boolean | undefined;
      try {
        transitional = await spec.transitionalProbe();
      } catch {
        transitional = undefined;
      }
      verdict = busyVerdict(refusal, transitional);
    }
    const error = new VendorApiError({
      retryAfterMs,
      kind: "http",
      method: spec.method,
      path: spec.path,
      status,
      statusText: response.statusText,
      problem,
      detail: problem ? undefined : text.slice(0, 200),
      retryable: RETRYABLE_STATUSES.has(status),
      ambiguous: !spec.idempotent && !SAFE_FOR_CREATE_STATUSES.has(status) && status >= 500,
      busy: verdict === "busy",
      afterLostAnswer,
      // A 401 names the settings the credentials came from, never their values (api-notes "Errors").
      hint: status === 401 ? credentialHint(this.settings.tokenSource) : undefined,
    });
    if (RETRYABLE_STATUSES.has(status)) {
      // Only 429 proves a create was not processed; a 5xx may come from a gateway after it was (api-notes "Errors").
      if (!spec.idempotent && !SAFE_FOR_CREATE_STATUSES.has(status)) return { outcome: "fail", error };
      return { outcome: "retry", error, retryAfterMs, unanswered: status >= 500 };
    }
    // A busy refusal (e.g. DELETE while Updating) is transient while the probe sees the resource transitional.
    if (verdict === "busy") return { outcome: "retry", error };
    // The operation it named may have ended between the answer and the probe: try once more; the same
    // refusal from a settled resource is then final.
    if (verdict === "settled-since") return { outcome: "retry-once", error };
    return { outcome: "fail", error };
  }

  private parseSuccess(spec: RequestSpec, status: number, text: string): Attempt {
    if (spec.responseType === "text") return { outcome: "ok", result: { status, data: text } };
    // A 2xx whose body cannot be used: the request was processed, so a create's failure is ambiguous.
    const unusable = (detail: string): Attempt => ({
      outcome: "fail",
      error: new VendorApiError({
        kind: "http",
        method: spec.method,
        path: spec.path,
        status,
        detail,
        ambiguous: !spec.idempotent,
      }),
    });
    if (text.trim() === "") {
      if (!spec.responseSchema || spec.emptyAnswer)
        return { outcome: "ok", result: { status, data: undefined } };
      return unusable("the service answered without the body this endpoint returns");
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return unusable("the service answered a body that is not JSON");
    }
    if (spec.responseSchema) {
      const problems = validateSchema(spec.responseSchema, data);
      const tolerates = spec.tolerates;
      if (tolerates && problems.length > 0 && problems.every((p) => tolerates(p))) {
        return { outcome: "ok", result: { status, data, tolerated: problems } };
      }
      if (problems.length > 0) return unusable(`unexpected response body: ${formatProblems(problems)}`);
    }
    return { outcome: "ok", result: { status, data } };
  }

  private classifyNetworkError(spec: RequestSpec, cause: unknown): Attempt {
    const err = {
      code: isRecord(cause) && typeof cause.code === "string" ? cause.code : undefined,
      message: isRecord(cause) && typeof cause.message === "string" ? cause.message : undefined,
    };
    const timedOut = err.code === "ETIMEDOUT";
    const notSent = err.code !== undefined && NOT_SENT_ERROR_CODES.has(err.code);
    const error = new VendorApiError({
      kind: timedOut ? "timeout" : "network",
      method: spec.method,
      path: spec.path,
      detail: redact(`${err.code ?? ""} ${err.message ?? String(cause)}`.trim()),
      retryable: true,
      ambiguous: !spec.idempotent && !notSent,
    });
    if (!spec.idempotent && !notSent) return { outcome: "fail", error };
    return { outcome: "retry", error, unanswered: !notSent };
  }
}
