/** The provider's refusals that end-to-end tests assert word for word, written out here once. */

/**
 * The refusal of a delete whose object's owner tag names `owner`, a resource of another stack, in a run for
 * stack `current` (`<project>/<stack>`): provider/common/foreignDelete.ts, docs/creation-and-recovery.md "How creation works".
 * `what` is the resource as messages name it (`Kaas "cluster"`), `noun` the kind's word (`cluster`).
 */
export function foreignDeleteRefusal(args: {
  what: string;
  noun: string;
  id: string;
  owner: string;
  current: string;
}): string {
  const { what, noun, id, owner, current } = args;
  const other = owner.split("/").slice(0, 2).join("/");
  return (
    `${what}: refusing to delete ${noun} ${id}: its owner tag names "${owner}", a resource of stack ` +
    `"${other}", and this run is for stack "${current}". Nothing was deleted. If this stack was renamed from ` +
    `"${other}" (pulumi stack rename, or a project rename), run pulumi destroy --run-program instead: with the ` +
    "program, the provider reads this stack's state from the engine, which proves the rename, and records the " +
    "new name on the object; a copy's state proves nothing, so a copy's objects stay refused. If this stack is " +
    `a copy of "${other}" (pulumi stack export and import), the object is that stack's: pulumi state delete ` +
    `with its URN stops tracking it here and leaves it to "${other}" (only if that stack still tracks it, or no ` +
    "stack would). To delete it from this stack anyway, run the delete again with " +
    "VENDOR_ALLOW_FOREIGN_DELETE=true in its environment."
  );
}
