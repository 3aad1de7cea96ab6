/**
 * Authentication of the emulated service (spec §5 "not shown"; api-notes "Conventions on the wire"): every API
 * route needs `Authorization: Bearer <token>` with a configured static token or a token issued by the OAuth2
 * client-credentials endpoint `POST /oauth2/token` (RFC 6749 §4.4). Issued tokens expire against the emulator
 * clock, so a test can expire them by moving the clock, or revoke them through the control API.
 */
import { createHmac } from "node:crypto";

/** A client allowed to use the client-credentials grant. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** Outcome of checking an `Authorization` header. */
export type AuthCheck = { ok: true } | { ok: false; detail: string };

/** Answer of the token endpoint: status and JSON body (RFC 6749 §5.1, §5.2). */
export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Derives a deterministic secret from the emulator seed (tokens, kubeconfig credentials). */
export function deriveSecret(seed: number, purpose: string): string {
  return createHmac("sha256", `pulumi-vendor-container-emulator:${seed}`).update(purpose).digest("base64url");
}

/** Holds static tokens and OAuth2 clients, issues tokens and checks bearer headers. */
export class TokenIssuer {
  private readonly issued = new Map<string, { clientId: string; expiresAt: number }>();
  private counter = 0;

  constructor(
    private readonly staticTokens: ReadonlySet<string>,
    private readonly clients: readonly ClientCredentials[],
    private readonly seed: number,
  ) {}

  /** Checks `Authorization: Bearer <token>` at emulator time `now`. */
  check(header: string | undefined, now: number): AuthCheck {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
    if (!match) return { ok: false, detail: "A bearer token is required (Authorization: Bearer <token>)." };
    const token = match[1];
    if (this.staticTokens.has(token)) return { ok: true };
    const issued = this.issued.get(token);
    if (!issued) return { ok: false, detail: "The bearer token is not valid." };
    if (now >= issued.expiresAt) return { ok: false, detail: "The bearer token has expired." };
    return { ok: true };
  }

  /** Revokes every issued token (static tokens stay valid). Returns how many were revoked. */
  revokeAll(): number {
    const count = this.issued.size;
    this.issued.clear();
    return count;
  }

  /** Number of issued tokens still held (valid or expired). */
  get issuedCount(): number {
    return this.issued.size;
  }

  /**
   * Handles `POST /oauth2/token`: a form body with `grant_type=client_credentials` and the client's id and
   * secret in the form or in HTTP Basic auth (RFC 6749 §2.3.1).
   */
  exchange(form: string, authorization: string | undefined, now: number, ttlSeconds: number): TokenAnswer {
    const params = new URLSearchParams(form);
    let clientId = params.get("client_id") ?? undefined;
    let clientSecret = params.get("client_secret") ?? undefined;
    const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? "");
    if (basic) {
      const decoded = Buffer.from(basic[1], "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon > 0) {
        clientId = decodeURIComponent(decoded.slice(0, colon));
        clientSecret = decodeURIComponent(decoded.slice(colon + 1));
      }
    }
    const grant = params.get("grant_type");
    if (grant !== "client_credentials") {
      return {
        status: 400,
        body: {
          error: "unsupported_grant_type",
          error_description: "Only grant_type=client_credentials is supported.",
        },
      };
    }
    if (!clientId || !clientSecret) {
      return {
        status: 400,
        body: { error: "invalid_request", error_description: "client_id and client_secret are required." },
      };
    }
    const client = this.clients.find((c) => c.clientId === clientId && c.clientSecret === clientSecret);
    if (!client)
      return {
        status: 401,
        body: { error: "invalid_client", error_description: "Client authentication failed." },
      };
    this.counter += 1;
    const token = `emu_at_${deriveSecret(this.seed, `access-token:${this.counter}`).slice(0, 32)}`;
    this.issued.set(token, { clientId, expiresAt: now + ttlSeconds * 1000 });
    return { status: 200, body: { access_token: token, token_type: "Bearer", expires_in: ttlSeconds } };
  }
}
