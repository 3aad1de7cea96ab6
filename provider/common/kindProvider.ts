/**
 * The dynamic provider interface every kind implements, minus `configure` (one per process: provider/index.ts).
 * Its own module so that the wrappers of common/ (quiet.ts, engineFailures.ts) and the entry point that wires
 * the kinds import it from below, not from each other.
 */
import type { CheckFailure, Inputs } from "./check";

/** What every kind's provider implements: the dynamic provider interface minus `configure`. */
export interface KindProvider {
  check(olds: Inputs, news: Inputs): Promise<{ inputs: Inputs; failures: CheckFailure[] }>;
  diff(
    id: string,
    olds: Inputs,
    news: Inputs,
  ): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace?: boolean }>;
  create(inputs: Inputs): Promise<{ id: string; outs: Inputs }>;
  read(id: string, props: Inputs): Promise<{ id: string; props: Inputs; inputs?: Inputs }>;
  update(id: string, olds: Inputs, news: Inputs): Promise<{ outs: Inputs }>;
  delete(id: string, props: Inputs): Promise<void>;
}
