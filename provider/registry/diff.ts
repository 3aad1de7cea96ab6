/** `diff` of a Registry: pure, driven by the rules of its descriptor. */
import type { DiffResult, Inputs } from "../common/diff";
import { diffKind } from "../common/kindProvider";
import { REGISTRY } from "./descriptor";

/** Diffs a Registry's state (`olds`) against its checked inputs. */
export function diffRegistry(olds: Inputs, news: Inputs): DiffResult {
  return diffKind(REGISTRY, olds, news);
}
