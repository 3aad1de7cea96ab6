/**
 * What reaches the CLI when a provider method fails. The Node.js dynamic-provider host prints
 * `${error}: ${error.stack}` for a failed check, diff, read or delete, on top of sending the message to the
 * engine: a refused token during `pulumi refresh` showed the message twice and a dozen frames of this package's
 * internals. A failure the provider raised on purpose (a refused request, a bad setting, an object it will not
 * touch) is the user's to act on, not a defect: it reaches the host as one line, `Name: message`. The errors
 * the JavaScript runtime raises for defects (`TypeError` and its kin) keep their stack, which a bug report needs.
 */
import type { KindProvider } from "./kindProvider";

/** Runtime errors that mean a defect in the code rather than a failure the user can act on. */
const DEFECTS: readonly (new (...args: never[]) => Error)[] = [
  TypeError,
  ReferenceError,
  RangeError,
  SyntaxError,
  EvalError,
  URIError,
];

/** Whether `error` is a failure raised on purpose: an `Error` that is none of the runtime's defect classes. */
export function isDeliberate(error: unknown): error is Error {
  return error instanceof Error && !DEFECTS.some((defect) => error instanceof defect);
}

/**
 * Makes a deliberate `error` print as one line through the host's `${error}: ${error.stack}`: its string form
 * is its name and its stack its message. The message, which the engine shows, and every other property (a
 * partial failure's id and outputs, an API error's status) stay as they are.
 */
export function quieted<E>(error: E): E {
  if (!isDeliberate(error)) return error;
  const name = error.name;
  Object.defineProperty(error, "stack", { value: error.message, configurable: true, writable: true });
  Object.defineProperty(error, "toString", { value: () => name, configurable: true, writable: true });
  return error;
}

/** `provider` whose methods reject with {@link quieted} errors. */
export function quietFailures(provider: KindProvider): KindProvider {
  const quiet =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await method.apply(provider, args);
      } catch (error) {
        throw quieted(error);
      }
    };
  return {
    check: quiet(provider.check),
    diff: quiet(provider.diff),
    create: quiet(provider.create),
    read: quiet(provider.read),
    update: quiet(provider.update),
    delete: quiet(provider.delete),
    importObject: quiet(provider.importObject),
  };
}
