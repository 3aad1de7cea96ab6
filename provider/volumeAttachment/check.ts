/**
 * `check` of a VolumeAttachment: every problem at once, before any call. Its arguments are described in one
 * table, as for the other kinds: `check`, the list of accepted arguments and the diff table derive from it.
 * An attachment has no creation token: its id is its identity (a volume is attached at most once per cluster).
 */
import { Problems, type Inputs } from "../common/check";
import {
  BOOKKEEPING,
  checkArguments,
  type ArgumentKey,
  type ArgumentTable,
  type CheckContext,
  type CheckResult,
} from "../common/arguments";
import { checkDeclaredBefore } from "./claims";
import { VOLUME_ATTACHMENT_ARGUMENTS, type CheckedVolumeAttachmentInputs } from "./types";

/**
 * The argument table of a VolumeAttachment: its schema's rules (`VOLUME_ATTACHMENT_ARGUMENTS`), in the
 * schema's order, then `creationScope`.
 */
// Not `withBookkeeping`: an attachment has no creation token (`check` computes none), so `creationToken` is
// no argument of it; with that row, `check` would accept a `creationToken` input and `diff` would compare it.
export const VOLUME_ATTACHMENT_ARGUMENT_RULES = {
  ...VOLUME_ATTACHMENT_ARGUMENTS,
  creationScope: BOOKKEEPING.creationScope,
} satisfies ArgumentTable<ArgumentKey<TableInputs>>;

/** The checked inputs the argument table covers: all but `declaredBefore`. */
type TableInputs = Omit<CheckedVolumeAttachmentInputs, "declaredBefore">;

/**
 * Validates and normalises VolumeAttachment inputs, by the rules of its table, and `declaredBefore`, which the
 * SDK class sets: kept apart from the table, like `replaceOnChanges`, since it is not an argument a program
 * writes (a program's own value is overwritten by the class) and `diff` compares it by a rule of its own.
 */
export function checkVolumeAttachment(
  olds: Inputs,
  news: Inputs,
  ctx: CheckContext,
): CheckResult<CheckedVolumeAttachmentInputs> {
  const { declaredBefore, ...declared } = news;
  const result = checkArguments<TableInputs>(VOLUME_ATTACHMENT_ARGUMENT_RULES, olds, declared, ctx, {
    creationToken: false,
  });
  const problems = new Problems();
  const checked = checkDeclaredBefore(
    declaredBefore,
    result.inputs.projectId,
    ctx.defaultProjectId,
    problems,
  );
  // In a preview `checked` may be the unknown placeholder, which the inputs carry on as they are. The checked
  // shape: `result.inputs` are checked, and `declaredBefore` is its checked value.
  const inputs = (
    checked === undefined ? result.inputs : { ...result.inputs, declaredBefore: checked }
  ) as CheckedVolumeAttachmentInputs;
  return { inputs, failures: [...result.failures, ...problems.failures] };
}
