/**
 * `diff` of a Kaas: pure and table-driven. `olds` are the state (previous inputs and outputs), `news` the
 * checked inputs. Refusals (HA disable, downgrade) throw, so the preview stops before any call.
 */
import type { DiffResult, Inputs } from "../common/diff";
import { diffKind } from "../common/kindProvider";
import { KAAS } from "./descriptor";

export { RefusedChange } from "./descriptor";
export { nodePoolsChanged, poolsByName } from "./mapping";

/** Diffs a Kaas. */
export function diffKaas(olds: Inputs, news: Inputs): DiffResult {
  return diffKind(KAAS, olds, news);
}
