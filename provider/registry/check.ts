/** `check` of a Registry: every problem at once, before any call; defaults and the creation token. */
import type { CheckFailure, Inputs } from "../common/check";
import { checkKind } from "../common/kindProvider";
import { REGISTRY } from "./descriptor";

export { RESERVED_ADMIN_NAMES } from "./descriptor";

/** Validates and normalises Registry inputs, by the rules of its descriptor. */
export function checkRegistry(
  olds: Inputs,
  news: Inputs,
  ctx: { defaultProjectId?: string },
): { inputs: Inputs; failures: CheckFailure[] } {
  return checkKind(REGISTRY, olds, news, ctx);
}
