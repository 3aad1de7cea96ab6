/** `diff` of a KaasBackup: pure, driven by the rules of its descriptor. */
import type { DiffResult, Inputs } from "../common/diff";
import { diffKind } from "../common/kindProvider";
import { BACKUP } from "./descriptor";

/** Diffs a KaasBackup's state (`olds`) against its checked inputs. */
export function diffBackup(olds: Inputs, news: Inputs): DiffResult {
  return diffKind(BACKUP, olds, news);
}
