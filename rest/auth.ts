/**
 * Authentication of the REST layer (api-notes "Conventions on the wire"): a static bearer token, or an
 * OAuth2 client-credentials exchange against a token URL with caching, refresh before expiry, and one
 * forced refresh when the service answers 401.
 */
import { isRecord, messageOf } from "../schemas/typed";
import { VendorApiError } from "./errors";
import { registerSecret } from "./redact";
import type { Transport, WireResponse } from "./transport";

/** Supplies the bearer token of every request. */
export interface TokenSource {
  /** A valid token, fetched or refreshed when needed. */
  getToken(): Promise<string>;
  /** Drops `token` after a 401 so the next `getToken` fetches a new one (no-op for a static token). */
  invalidate(token: string): void;
  /** True when `invalidate` can produce a different token. */
  readonly refreshable: boolean;
  /**
   * The settings that supplied the credentials, as a user names them (never their values), e.g.
   * `stack config vendor:token (or VENDOR_TOKEN)`: a 401 tells the user which ones to check
   * (api-notes "Errors").
   */
  readonly credentialSettings?: string;
}

/** The settings of a static token, named in the error of a 401. */
export const TOKEN_SETTINGS = "stack config vendor:token (or VENDOR_TOKEN)";

/** The settings of the OAuth2 client credentials, named in the error of a 401 or a refused exchange. */
export const CLIENT_CREDENTIAL_SETTINGS =
  "stack config vendor:clientId, vendor:clientSecret and vendor:tokenUrl " +
  "(or VENDOR_CLIENT_ID, VENDOR_CLIENT_SECRET and VENDOR_TOKEN_URL)";

/** The advice of an error that refused the credentials: the settings to check, or nothing when unknown. */
export function credentialHint(source: Pick<TokenSource, "credentialSettings">): string | undefined {
  return source.credentialSettings ? `Check the credentials in ${source.credentialSettings}` : undefined;
}

/** A fixed token from configuration. Trimmed: a trailing newline from a file breaks the header. */
export class StaticTokenSource implements TokenSource {
  readonly refreshable = false;
  private readonly token: string;
  /**
   * @param token The bearer token.
   * @param credentialSettings The settings it came from, named by the error of a 401.
   */
  constructor(
    token: string,
    readonly credentialSettings: string = TOKEN_SETTINGS,
  ) {
    this.token = token.trim();
    registerSecret(this.token);
  }
  async getToken(): Promise<string> {
    return this.token;
  }
  invalidate(): void {}
}

export interface ClientCredentialsOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /**
   * The most a token is refreshed before it expires, in ms; default 60 000. The margin actually used is the
   * smaller of this and a tenth of the token's lifetime (`refreshMarginMs`), so a short-lived token still
   * serves most of its life.
   */
  refreshSkewMs?: number;
  /** The settings the credentials came from, named by the error of a refusal; default the `vendor:client*` ones. */
  credentialSettings?: string;
  /** The most one exchange may take, in ms; default `DEFAULT_TOKEN_TIMEOUT_MS`. */
  timeoutMs?: number;
  now?: () => number;
}

/** Default time one token exchange may take: a token endpoint that hangs must not hang the run. */
export const DEFAULT_TOKEN_TIMEOUT_MS = 30_000;

/** Default cap of the refresh margin: a token is refreshed at most this long before it expires. */
export const DEFAULT_REFRESH_SKEW_MS = 60_000;

/**
 * How long before expiry a token of `lifetimeMs` is refreshed: a tenth of its lifetime, at most `capMs`.
 * A fixed margin equal to or longer than the lifetime (60 s against a token that lives 60 s) would make every
 * request fetch a new token; a tenth keeps a 60 s token for 54 s and a 10 s one for 9 s, while an hour-long
 * token is still refreshed a full minute early, which covers clock skew and a slow request.
 */
export function refreshMarginMs(lifetimeMs: number, capMs: number = DEFAULT_REFRESH_SKEW_MS): number {
  return Math.max(0, Math.min(capMs, lifetimeMs / 10));
}

/**
 * OAuth2 client credentials (form POST `grant_type=client_credentials`). One token serves every request of
 * the process; concurrent callers share a single in-flight exchange.
 */
export class ClientCredentialsTokenSource implements TokenSource {
  readonly refreshable = true;
  readonly credentialSettings: string;
  /** The cached token and the time (epoch ms) from which it is refreshed (`refreshMarginMs` before expiry). */
  private token?: { value: string; refreshAt: number };
  private inflight?: Promise<string>;
  private readonly now: () => number;
  private readonly skew: number;
  /** Number of token exchanges made, for tests and the benchmark. */
  exchanges = 0;

  constructor(
    private readonly transport: Transport,
    private readonly options: ClientCredentialsOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.skew = options.refreshSkewMs ?? DEFAULT_REFRESH_SKEW_MS;
    this.credentialSettings = options.credentialSettings ?? CLIENT_CREDENTIAL_SETTINGS;
    registerSecret(options.clientSecret);
  }

  async getToken(): Promise<string> {
    if (this.token && this.now() < this.token.refreshAt) return this.token.value;
    this.inflight ??= this.exchange().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  invalidate(token: string): void {
    if (this.token?.value === token) this.token = undefined;
  }

  private async exchange(): Promise<string> {
    this.exchanges++;
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
    });
    const path = new URL(this.options.tokenUrl).pathname;
    let response: WireResponse;
    try {
      response = await this.transport({
        method: "POST",
        url: this.options.tokenUrl,
        body: form.toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        timeoutMs: this.options.timeoutMs ?? DEFAULT_TOKEN_TIMEOUT_MS,
      });
    } catch (cause) {
      throw new VendorApiError({
        kind: "network",
        method: "POST",
        path,
        detail: messageOf(cause),
        retryable: true,
      });
    }
    let body: { access_token?: unknown; expires_in?: unknown } = {};
    try {
      // Its members are `unknown`: each is checked below before it is used.
      const parsed: unknown = JSON.parse(response.text);
      if (isRecord(parsed)) body = parsed;
    } catch {
      // Not JSON: handled below as a refusal.
    }
    if (response.status !== 200 || typeof body.access_token !== "string" || body.access_token.trim() === "") {
      const retryable = response.status >= 500 || response.status === 429;
      throw new VendorApiError({
        kind: "auth",
        method: "POST",
        path,
        status: response.status,
        detail: `the token endpoint refused the client credentials (HTTP ${response.status})`,
        retryable,
        // A 4xx refusal points at the settings; an outage, a rate limit or an unusable 200 is the endpoint's.
        hint: response.status >= 400 && !retryable ? credentialHint(this) : undefined,
      });
    }
    const value = body.access_token.trim();
    registerSecret(value);
    // Some token endpoints send `expires_in` as a numeric string; anything unreadable means the usual hour.
    const expiresIn = Number(body.expires_in ?? Number.NaN);
    const lifetimeMs = (Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600) * 1000;
    this.token = { value, refreshAt: this.now() + lifetimeMs - refreshMarginMs(lifetimeMs, this.skew) };
    return value;
  }
}
