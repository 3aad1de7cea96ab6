/**
 * The guard of every delete against an object another stack owns. A stack copied with `pulumi stack export`
 * and `pulumi stack import` (into another stack name) holds the same state as the original, so it tracks the
 * same objects, and its `pulumi destroy` would delete the original stack's objects. The provider cannot tell
 * the copy from the original by the state it is handed (it is the same), only by the stack the run is for
 * (`currentStack`), which it compares with the object's owner tag.
 */
import { ALLOW_FOREIGN_DELETE, currentStack, foreignDeleteAllowed, warn } from "./context";
import type { RunContext } from "./kindProvider";
import { foreignOwner } from "./stack";

/** The `<project>/<stack>` part of a scope (`<project>/<stack>/<name>`). */
export const stackOfScope = (scope: string): string => scope.split("/").slice(0, 2).join("/");

/**
 * The error that refuses deleting the object `id` whose owner tag names `owner`, or undefined when the delete
 * may go on: the owner names a resource of this run's stack, the object has no owner tag (adopted, or made
 * before owner tags), the stack cannot be told at all (no project, no `/proc`, no workspace: the check is
 * skipped), or `vendor:allowForeignDelete` is set. A renamed stack's objects are first given the new owner by
 * the program (sdk/persisted.ts), which only a run with the program does: the refusal says so.
 *
 * On the provider plugin, the state's own record proves a rename: its URN (`stateScope`) names this run's
 * stack, because `pulumi stack rename` rewrites the URNs, and the scope it recorded for the object
 * (`recorded`) is the one the owner tag names. A copy keeps the URNs of the stack it was copied from; an
 * object another stack took over with `adoptFromScope` names that stack, not the recorded scope.
 */
export function foreignDeleteRefusal(
  owner: string | undefined,
  {
    what,
    noun,
    id,
    recorded,
    stateScope,
  }: { what: string; noun: string; id: string; recorded?: string; stateScope?: string },
): Error | undefined {
  if (owner === undefined || foreignDeleteAllowed()) return undefined;
  const current = currentStack();
  const renamed =
    stateScope !== undefined &&
    current.scope !== undefined &&
    stackOfScope(stateScope) === current.scope &&
    owner === recorded;
  if (renamed) return undefined;
  const subject = `${what}: refusing to delete ${noun} ${id}: its owner tag names "${owner}"`;
  const anyway =
    `To delete it from this stack anyway, run the delete again with ${ALLOW_FOREIGN_DELETE[1]}=true in its ` +
    "environment.";
  if (current.selectionChanged) {
    return new Error(
      `${subject}, and the stack selected in this folder changed after this run started (pulumi stack ` +
        "select), so which stack this run is for cannot be told. Nothing was deleted. Run the command again " +
        `with --stack <stack>. ${anyway}`,
    );
  }
  const foreign = foreignOwner(owner, current.scope);
  if (foreign === undefined) return undefined;
  const other = stackOfScope(foreign);
  if (stateScope !== undefined)
    return pluginRefusal({ subject, id, owner, other, current: current.scope ?? "", stateScope, anyway });
  return new Error(
    `${subject}, a resource of stack "${other}", and this run is for stack "${current.scope}". Nothing was ` +
      `deleted. If this stack was renamed from "${other}" (pulumi stack rename, or a project rename), run ` +
      "pulumi destroy --run-program instead: with the program, the provider reads this stack's state from the " +
      "engine, which proves the rename, and records the new name on the object; a copy's state proves nothing, " +
      `so a copy's objects stay refused. If this stack is a copy of "${other}" (pulumi stack export and ` +
      `import), the object is that stack's: pulumi state delete with its URN stops tracking it here and leaves ` +
      `it to "${other}" (only if that stack still tracks it, or no stack would). ${anyway}`,
  );
}

/**
 * The plugin's refusal: it knows what the state's URN names, so it says whether this state is a copy (its
 * URNs name another stack: `pulumi stack import --force` keeps them) and how to act on the object on purpose.
 */
function pluginRefusal({
  subject,
  id,
  owner,
  other,
  current,
  stateScope,
  anyway,
}: {
  subject: string;
  id: string;
  owner: string;
  other: string;
  current: string;
  stateScope: string;
  anyway: string;
}): Error {
  const copied = stackOfScope(stateScope);
  const whose =
    copied === current
      ? `this stack's state records it for "${stateScope}", not for the resource its owner tag names, so ` +
        `another stack took it over (adoptId and adoptFromScope)`
      : `this stack's state names "${copied}" in its URNs: it is a copy of that stack's state (pulumi stack ` +
        "export, then pulumi stack import --force), which tracks that stack's objects";
  return new Error(
    `${subject}, a resource of stack "${other}", and this run is for stack "${current}"; ${whose}. Nothing was ` +
      `deleted. The object is "${other}"'s: pulumi state delete with this resource's URN stops tracking it here ` +
      `and leaves it to "${other}"; to take it over on purpose, declare a resource in this stack with adoptId: ` +
      `"${id}" and adoptFromScope: "${owner}" once "${other}" no longer tracks it. ${anyway}`,
  );
}

/**
 * What an import (`pulumi import`, the `import` option) makes of the owner tag of the object it reads: none,
 * or this resource's, imports silently. Another resource of this stack (a resource renamed after `pulumi state
 * delete`, the usual way back for a lost one) imports too, since an explicit import is the user's decision;
 * a line warns when that resource still tracks the object, or when the state cannot be read to tell, since one
 * of the two must go. The next update records the importer as the owner. Another stack's object is refused,
 * naming that stack and how to take it over on purpose.
 */
export async function importedOwner(
  owner: string | undefined,
  { what, noun, id, scope, run }: { what: string; noun: string; id: string; scope: string; run?: RunContext },
): Promise<void> {
  if (owner === undefined || owner === scope) return;
  const stack = stackOfScope(owner);
  if (stack !== stackOfScope(scope))
    throw new Error(
      `${what}: import: the ${noun} ${id} belongs to "${owner}" (its owner tag), a resource of stack ` +
        `"${stack}", and importing it here would let two stacks act on it. If "${stack}" no longer tracks it, ` +
        `or is being retired, and taking it over is intended, declare this resource with adoptId: "${id}" and ` +
        `adoptFromScope: "${owner}" instead of importing it.`,
    );
  const tracker = await run?.trackerOf?.(id);
  if (tracker === null) return;
  const holder = tracker?.urn;
  warn(
    what,
    holder === undefined
      ? `${noun} ${id} names "${owner}" of this stack as its owner, and this stack's state could not be ` +
          `read to tell whether that resource still tracks it: if it does, remove one of the two (pulumi state ` +
          `delete with its URN), or both act on one ${noun}`
      : `${noun} ${id} is also tracked by ${holder} in this stack's state: remove one of the two ` +
          `(pulumi state delete '${holder}'), or both act on one ${noun}`,
  );
}
