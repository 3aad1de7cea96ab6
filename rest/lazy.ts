/**
 * The REST client module, loaded on first use. It once loaded the wire schemas with it (about 220 modules, 200
 * of them TypeBox's, and 150 ms on the machines of the benchmark, bench/results/latest.md); it now validates by schema name
 * and loads 14 small modules, but neither a program that only declares resources nor a provider process that
 * only checks and diffs them (every `pulumi preview`) calls the service, so the SDK's functions and the
 * provider's context still load it here, when they first need one, instead of at import.
 */
import type * as ClientModule from "./client";
import { requiredAs } from "../schemas/typed";

let loaded: typeof ClientModule | undefined;

/** `rest/client`, required on the first call. */
export function clientModule(): typeof ClientModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, see above
  loaded ??= requiredAs<typeof ClientModule>(() => require("./client"));
  return loaded;
}
