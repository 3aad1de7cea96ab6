/**
 * The guard of every delete against an object another stack owns. A stack copied with `pulumi stack export`
 * and `pulumi stack import` (into another stack name) holds the same state as the original, so it tracks the
 * same objects, and its `pulumi destroy` would delete the original stack's objects. The provider cannot tell
 * the copy from the original by the state it is handed (it is the same), only by the stack the run is for
 * (`currentStack`), which it compares with the object's owner tag.
 */
import { ALLOW_FOREIGN_DELETE, currentStack, foreignDeleteAllowed } from "./context";
import { foreignOwner } from "./stack";

/**
 * The error that refuses deleting the object `id` whose owner tag names `owner`, or undefined when the delete
 * may go on: the owner names a resource of this run's stack, the object has no owner tag (adopted, or made
 * before owner tags), the stack cannot be told at all (no project, no `/proc`, no workspace: the check is
 * skipped), or `vendor:allowForeignDelete` is set. A renamed stack's objects are first given the new owner by
 * the program (sdk/persisted.ts), which only a run with the program does: the refusal says so.
 */
export function foreignDeleteRefusal(
  owner: string | undefined,
  { what, noun, id }: { what: string; noun: string; id: string },
): Error | undefined {
  if (owner === undefined || foreignDeleteAllowed()) return undefined;
  const current = currentStack();
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
  const [project, stack] = foreign.split("/");
  const other = `${project}/${stack}`;
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
