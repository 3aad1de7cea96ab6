/** `check` of a KaasBackup: every problem at once, before any call; defaults and the creation token. */
import type { CheckFailure, Inputs } from "../common/check";
import { checkKind } from "../common/kindProvider";
import { BACKUP } from "./descriptor";

/** Validates and normalises KaasBackup inputs, by the rules of its descriptor. */
export function checkBackup(
  olds: Inputs,
  news: Inputs,
  ctx: { defaultProjectId?: string },
): { inputs: Inputs; failures: CheckFailure[] } {
  return checkKind(BACKUP, olds, news, ctx);
}
