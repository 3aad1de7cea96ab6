/**
 * Redaction of secrets from everything the package prints or throws.
 *
 * Every secret the package learns (API token, OAuth2 client secret and access tokens, cluster identity
 * secrets, kubeconfig content, passwords) is registered here once, and every error message, progress line
 * and request-log line goes through `redact` before it leaves the package.
 */
const secrets = new Set<string>();

/** Placeholder printed instead of a secret value. */
export const REDACTED = "[redacted]";

/**
 * Registers a secret value so that `redact` removes it from any text. Values shorter than 4 characters are
 * ignored: they would blank out ordinary words and cannot meaningfully leak.
 */
export function registerSecret(value: string | undefined | null): void {
  if (typeof value !== "string") return;
  const trimmed = value.trim();
  if (trimmed.length >= 4) secrets.add(trimmed);
  // A kubeconfig travels base64-encoded on the wire (api-notes "KaaS"): register that form too.
  if (trimmed.length >= 16) secrets.add(Buffer.from(trimmed, "utf8").toString("base64"));
}

const bearer = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;
const secretKeys = "access_token|client_secret|clientSecret|password|token|content|kubeconfig";
// A JSON member (`"token": "..."`), a form or query field (`client_secret=...`) or a YAML line (`token: ...`).
// A bare `clientSecret: must be string` inside a one-line error is a schema path and its message: left alone.
const secretFields = new RegExp(
  `("(?:${secretKeys})"\\s*:\\s*"?|(?:${secretKeys})=|^[ \\t-]*(?:${secretKeys}):[ \\t]*"?)([^"&,\\s}]+)`,
  "gim",
);

/** Removes every registered secret, bearer tokens and secret-named JSON or form fields from `text`. */
export function redact(text: string): string {
  let out = text.replace(bearer, `$1${REDACTED}`).replace(secretFields, `$1${REDACTED}`);
  // Longest first, so a secret that contains another is removed whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}
