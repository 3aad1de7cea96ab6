/**
 * The dynamic provider interface every kind implements, minus `configure` (one per process: provider/index.ts).
 * Its own module so that the wrappers of common/ (quiet.ts, engineFailures.ts) and the entry point that wires
 * the kinds import it from below, not from each other.
 */
import type { CheckFailure, Inputs } from "./check";
import type { Tracked } from "./lifecycle";

/**
 * What a caller that knows more of the run than its inputs say tells a create or a delete: the provider
 * plugin, which has each call's URN and can read the stack's state (plugin/run.ts). The dynamic path's
 * classes pass what they know as inputs instead (`trackedId`), and old shells pass nothing.
 */
export interface RunContext {
  /**
   * The object the stack's state tracks for the resource (see `Tracked`), read only when a create's lookup
   * finds an object of this resource: a replacement the engine decided without `diff` (`pulumi up
   * --replace`, a tainted resource, `replaceOnChanges`) is told from a create whose state lost its object.
   */
  tracked?: () => Promise<Tracked>;
  /**
   * The scope (`<project>/<stack>/<name>`) the state's own record of the resource names (its URN). A state
   * whose URNs name this run's stack while an object's owner tag names another one was renamed (`pulumi
   * stack rename` rewrites URNs); a copy keeps the URNs of the stack it was copied from.
   */
  stateScope?: string;
  /**
   * The resource of this stack's state (of this resource's type) that tracks the object `id`, null when none
   * does, undefined when the state cannot be read: an import of an object whose owner tag names another
   * resource of this stack warns when that resource still tracks it, and the create of a VolumeAttachment
   * that finds its volume attached knows which resource of the stack holds it.
   */
  trackerOf?: (id: string) => Promise<StateTracker | null | undefined>;
}

/** A resource of the stack's state: its URN, and its scope (`<project>/<stack>/<name>`) as a create tags it. */
export interface StateTracker {
  urn: string;
  scope: string;
}

/** What every kind's provider implements: the dynamic provider interface minus `configure`. */
export interface KindProvider {
  check(olds: Inputs, news: Inputs): Promise<{ inputs: Inputs; failures: CheckFailure[] }>;
  diff(
    id: string,
    olds: Inputs,
    news: Inputs,
  ): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace?: boolean }>;
  create(inputs: Inputs, run?: RunContext): Promise<{ id: string; outs: Inputs }>;
  read(id: string, props: Inputs): Promise<{ id: string; props: Inputs; inputs?: Inputs }>;
  update(id: string, olds: Inputs, news: Inputs): Promise<{ outs: Inputs }>;
  delete(id: string, props: Inputs, run?: RunContext): Promise<void>;
  /**
   * The read of `pulumi import <type> <name> <id>` (the provider plugin's, which knows the resource's `scope`,
   * `<project>/<stack>/<name>`): the object the import id names, its outputs, and its arguments as `check`
   * returns them, so that the program the engine prints from them previews with no change. Reads only: the
   * import's preview runs it too.
   */
  importObject(
    id: string,
    scope: string,
    run?: RunContext,
  ): Promise<{ id: string; props: Inputs; inputs: Inputs }>;
}
