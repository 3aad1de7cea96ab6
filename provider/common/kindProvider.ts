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
  /**
   * The read of `pulumi import <type> <name> <id>` (the provider plugin's, which knows the resource's `scope`,
   * `<project>/<stack>/<name>`): the object the import id names, its outputs, and its arguments as `check`
   * returns them, so that the program the engine prints from them previews with no change. Reads only: the
   * import's preview runs it too.
   */
  importObject(id: string, scope: string): Promise<{ id: string; props: Inputs; inputs: Inputs }>;
}
