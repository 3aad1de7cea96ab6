/**
 * Check failures as the CLI prints them. Every kind's `check` reports `{property, reason}` with the property's
 * path (`nodePools[37].name`); the engine prints a failure as `<type> resource '<name>': property <property>
 * value {<value>} has a problem: <reason>`, taking the value from the top-level input named `property` (engine
 * notes "check"). A nested path names no such input, so the engine prints `{<nil>}` whatever the value was,
 * and a top-level list or object is printed whole (3 KB on one line for fifty node pools). So the failures
 * go to the engine in two forms:
 *
 * - a top-level argument whose value is a short scalar keeps its property, and the engine prints it as ever
 *   (`property ha value {false} has a problem: ...`), redacting it if the program marked it secret;
 * - any other failure (a nested path, a list or object, a missing or long value, a secret argument) goes as a
 *   failure of the whole resource (property `""`, printed `<type> resource '<name>' has a problem: <reason>`)
 *   whose reason starts with the path and, where the reason does not quote it already, a short form of the
 *   value: `nodePools[37].name = "Pool_37": must be ...`, `nodePools[0].nodes: must be at most 50 ..., got
 *   1000`, `nodePools: must have at most 10 node pools ...`.
 *
 * The provider sees every input decrypted and cannot tell which the program marked secret (engine notes
 * "Secrets"), so a value under an argument whose name says it holds a credential (`identity`, `clientSecret`,
 * a password, a token) is never quoted, and a quoted value is cleared of every secret the package knows
 * (`redact`).
 */
import { redact } from "../../rest/redact";
import type { KindProvider } from "./kindProvider";
import { QUOTE_LIMIT, quote, type CheckFailure, type Inputs } from "./check";
import { isUnknown } from "./unknown";

/**
 * A name of an argument or field that holds a credential (`identity`, `clientSecret`, `adminPassword`,
 * `token`): its value, and any value under it, is never quoted.
 */
const SECRET_NAME = /(secret|password|token|credentials?|identity|kubeconfig)$/i;

/** What the engine would print in place of a secret value. */
const SECRET = "[secret]";

/** The names along a failure's path: `nodePools[37].name` has `nodePools`, `37` and `name`. */
const namesOf = (path: string): string[] => path.split(/[.[\]]+/).filter((name) => name !== "");

/** The value at `path` in `inputs`, or undefined when the path leads nowhere. */
function valueAt(inputs: Inputs, path: string): unknown {
  let value: unknown = inputs;
  for (const name of namesOf(path)) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, name)) return undefined;
    value = Reflect.get(value, name);
  }
  return value;
}

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/**
 * Whether the engine prints the failure of `property` well: a top-level argument whose name says nothing
 * secret, with a scalar value short enough to read on one line.
 */
function readsWell(property: string, inputs: Inputs): boolean {
  if (!/^[A-Za-z_$][\w$]*$/.test(property) || SECRET_NAME.test(property)) return false;
  const value = Object.hasOwn(inputs, property) ? inputs[property] : undefined;
  if (typeof value === "string") return value.length <= QUOTE_LIMIT;
  return typeof value === "number" || typeof value === "boolean";
}

/**
 * The short form of the value at `path` for a reason that does not quote it already (`got 1000`, `got
 * "10.0.0.0/33"`), or undefined: a missing or unknown value, a list or an object (the reason says what is
 * wrong with it), a value the reason quotes.
 */
function shownValue(path: string, inputs: Inputs, reason: string): string | undefined {
  const value = valueAt(inputs, path);
  if (value === undefined || value === null || isUnknown(value)) return undefined;
  if (namesOf(path).some((name) => SECRET_NAME.test(name))) return SECRET;
  if (!isScalar(value)) return undefined;
  const shown = quote(value);
  const quoted =
    typeof value === "string"
      ? reason.includes(shown)
      : new RegExp(`\\bgot ${shown.replace(/[.+-]/g, "\\$&")}(?![\\w.])`).test(reason);
  return quoted ? undefined : shown;
}

/**
 * One failure as the engine should get it for the inputs `news` the program declared (see the module), its
 * reason cleared of every secret the package knows, as every message it prints (`redact`).
 */
export function engineFailure(failure: CheckFailure, news: Inputs): CheckFailure {
  const { property } = failure;
  const reason = redact(failure.reason);
  if (property === "" || readsWell(property, news)) return { property, reason };
  const value = shownValue(property, news, failure.reason);
  return {
    property: "",
    reason: `${property}${value === undefined ? "" : ` = ${redact(value)}`}: ${reason}`,
  };
}

/** Every failure of a `check` of `news`, as the engine should get it (`engineFailure`), in order. */
export function engineFailures(failures: readonly CheckFailure[], news: Inputs): CheckFailure[] {
  return failures.map((failure) => engineFailure(failure, news));
}

/**
 * `provider` whose `check` hands the engine its failures in the form the CLI prints well (`engineFailures`);
 * its other methods are its own.
 */
export function readableFailures(provider: KindProvider): KindProvider {
  return {
    async check(olds, news) {
      const result = await provider.check(olds, news);
      return { ...result, failures: engineFailures(result.failures, news) };
    },
    diff: (id, olds, news) => provider.diff(id, olds, news),
    create: (inputs, run) => provider.create(inputs, run),
    read: (id, props) => provider.read(id, props),
    update: (id, olds, news) => provider.update(id, olds, news),
    delete: (id, props, run) => provider.delete(id, props, run),
    importObject: (id, scope, run) => provider.importObject(id, scope, run),
  };
}
