/**
 * `check` of a Kaas: validates every argument before any call to the service and reports every problem at
 * once, naming the property; normalises defaults; fixes the creation token used by idempotent create. Pure:
 * the clock and the configured default project come in as arguments. The rules are the descriptor's.
 */
import type { CheckFailure, Inputs } from "../common/check";
import type { CheckContext } from "../common/kind";
import { checkKind } from "../common/kindProvider";
import { CREATION_TAG_PREFIX } from "../common/resource";
import { KAAS } from "./descriptor";

export { CREATION_TAG_PREFIX };

/** What `check` of a Kaas knows besides the inputs. */
export interface KaasCheckContext extends CheckContext {
  /** Current time (epoch ms), for `upgradeDate`. */
  now: number;
}

/** Validates and normalises Kaas inputs. `olds` are the previous inputs (`{}` on create). */
export function checkKaas(
  olds: Inputs,
  news: Inputs,
  ctx: KaasCheckContext,
): { inputs: Inputs; failures: CheckFailure[] } {
  return checkKind(KAAS, olds, news, ctx);
}
