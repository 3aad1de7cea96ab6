/**
 * Secrets on the wire of the provider protocol. The plugin accepts secrets (`ConfigureResponse.acceptSecrets`),
 * so the engine sends a secret value as an object marked with Pulumi's secret signature, at any depth, and
 * keeps one the plugin returns marked as secret in the state. The kinds' providers work on plain values: the
 * plugin unwraps what it receives and marks, in what it returns, every value that came in secret and every
 * value its kind declares secret (`PLUGIN_KINDS[kind].secrets`), whatever the program did.
 */
import { isPlainObject } from "../provider/common/typed";

/** The property that marks a special value, and its value for a secret (Pulumi's `specialSigKey`, `specialSecretSig`). */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** `value` marked as a secret. */
const secret = (value: unknown): Record<string, unknown> => ({ [SIG_KEY]: SECRET_SIG, value });

/** Whether `value` is a secret-marked value. */
const isSecret = (value: unknown): value is { value?: unknown } =>
  isPlainObject(value) && value[SIG_KEY] === SECRET_SIG;

/**
 * `bag` with every secret mark removed, at any depth, and the names of its top-level properties that held a
 * secret anywhere inside (they are marked again when returned: `markSecrets`).
 */
export function unwrapSecrets(bag: Record<string, unknown>): {
  plain: Record<string, unknown>;
  secrets: string[];
} {
  const secrets: string[] = [];
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(bag)) {
    const found = { secret: false };
    plain[key] = reveal(value, found);
    if (found.secret) secrets.push(key);
  }
  return { plain, secrets };
}

function reveal(value: unknown, found: { secret: boolean }): unknown {
  if (isSecret(value)) {
    found.secret = true;
    return reveal(value.value, found);
  }
  if (Array.isArray(value)) return value.map((item) => reveal(item, found));
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v, found)]));
  return value;
}

/** `bag` with the properties `names` marked secret where they are set (null and absent stay as they are). */
export function markSecrets(bag: Record<string, unknown>, names: Iterable<string>): Record<string, unknown> {
  const marked = { ...bag };
  for (const name of names) {
    const value = marked[name];
    if (value !== undefined && value !== null && !isSecret(value)) marked[name] = secret(value);
  }
  return marked;
}
