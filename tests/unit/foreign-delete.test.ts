/**
 * The guard of every delete against an object another stack owns (provider/common/foreignDelete.ts): it
 * compares the object's owner tag with the stack the run acts for (`currentStack`): the program's, recorded by
 * the first `check` (`noteProgramScope`), else what the process reads of its stack (`PULUMI_PROJECT` and
 * `PULUMI_STACK` here), and refuses when they differ or when the workspace's selection changed mid-run.
 */
import * as context from "../../provider/common/context";
import { noteProgramScope, resetCurrentStack } from "../../provider/common/context";
import { foreignDeleteRefusal } from "../../provider/common/foreignDelete";
import { UNKNOWN } from "../../provider/common/unknown";

const SUBJECT = { what: 'Registry "images"', noun: "registry", id: "registry-0001" };
const ANYWAY =
  "To delete it from this stack anyway, run the delete again with VENDOR_ALLOW_FOREIGN_DELETE=true in its " +
  "environment.";

/** The refusal of deleting an object owned by `owner`, a resource of stack `other`, in a run for `current`. */
const refusal = (owner: string, other: string, current: string) =>
  `Registry "images": refusing to delete registry registry-0001: its owner tag names "${owner}", a resource of ` +
  `stack "${other}", and this run is for stack "${current}". Nothing was deleted. If this stack was renamed ` +
  `from "${other}" (pulumi stack rename, or a project rename), run pulumi destroy --run-program instead: with ` +
  "the program, the provider reads this stack's state from the engine, which proves the rename, and records " +
  "the new name on the object; a copy's state proves nothing, so a copy's objects stay refused. If this stack " +
  `is a copy of "${other}" (pulumi stack export and import), the object is that stack's: pulumi state delete ` +
  `with its URN stops tracking it here and leaves it to "${other}" (only if that stack still tracks it, or no ` +
  `stack would). ${ANYWAY}`;

const VARIABLES = [
  "PULUMI_PROJECT",
  "PULUMI_NODEJS_PROJECT",
  "PULUMI_STACK",
  "VENDOR_ALLOW_FOREIGN_DELETE",
] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

/** The process reads stack `<project>/<stack>` (the engine sets PULUMI_PROJECT; PULUMI_STACK names the stack). */
function processReads(project: string, stack: string): void {
  process.env.PULUMI_PROJECT = project;
  process.env.PULUMI_STACK = stack;
  resetCurrentStack();
}

beforeEach(() => {
  for (const name of VARIABLES) delete process.env[name];
  resetCurrentStack();
});
afterEach(() => {
  jest.restoreAllMocks();
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetCurrentStack();
});

describe("foreignDeleteRefusal", () => {
  it("refuses an object of another stack than the one the process reads, naming both and the ways out", () => {
    processReads("infra", "b");
    expect(foreignDeleteRefusal("infra/a/images", SUBJECT)).toEqual(
      new Error(refusal("infra/a/images", "infra/a", "infra/b")),
    );
    expect(foreignDeleteRefusal("infra/b/images", SUBJECT)).toBeUndefined();
  });

  it("acts for the program's stack once a resource was checked, whatever the process reads", () => {
    processReads("infra", "a");
    noteProgramScope("infra/b/images");
    expect(foreignDeleteRefusal("infra/a/images", SUBJECT)).toEqual(
      new Error(refusal("infra/a/images", "infra/a", "infra/b")),
    );
    expect(foreignDeleteRefusal("infra/b/team/images", SUBJECT)).toBeUndefined();
  });

  it("keeps the stack of the first resource checked, and ignores a scope that is unknown or not a scope", () => {
    processReads("infra", "a");
    noteProgramScope(UNKNOWN);
    noteProgramScope("images");
    noteProgramScope(undefined);
    expect(foreignDeleteRefusal("infra/a/images", SUBJECT)).toBeUndefined();
    noteProgramScope("infra/b/images");
    noteProgramScope("infra/c/images");
    expect(foreignDeleteRefusal("infra/b/images", SUBJECT)).toBeUndefined();
    expect(foreignDeleteRefusal("infra/c/images", SUBJECT)?.message).toContain(
      'and this run is for stack "infra/b"',
    );
  });

  it("refuses when the workspace's selection changed after the run started, saying to name the stack", () => {
    jest.spyOn(context, "currentStack").mockReturnValue({ selectionChanged: true });
    expect(foreignDeleteRefusal("infra/a/images", SUBJECT)).toEqual(
      new Error(
        'Registry "images": refusing to delete registry registry-0001: its owner tag names "infra/a/images", ' +
          "and the stack selected in this folder changed after this run started (pulumi stack select), so " +
          "which stack this run is for cannot be told. Nothing was deleted. Run the command again with " +
          `--stack <stack>. ${ANYWAY}`,
      ),
    );
  });

  it("lets an object without an owner tag go, even when the selection changed", () => {
    processReads("infra", "b");
    expect(foreignDeleteRefusal(undefined, SUBJECT)).toBeUndefined();
    jest.spyOn(context, "currentStack").mockReturnValue({ selectionChanged: true });
    expect(foreignDeleteRefusal(undefined, SUBJECT)).toBeUndefined();
  });

  it("lets any object go when the stack cannot be told", () => {
    expect(foreignDeleteRefusal("infra/a/images", SUBJECT)).toBeUndefined();
  });

  it("lets any object go with VENDOR_ALLOW_FOREIGN_DELETE=true, even when the selection changed", () => {
    processReads("infra", "b");
    process.env.VENDOR_ALLOW_FOREIGN_DELETE = "true";
    expect(foreignDeleteRefusal("infra/a/images", SUBJECT)).toBeUndefined();
    jest.spyOn(context, "currentStack").mockReturnValue({ selectionChanged: true });
    expect(foreignDeleteRefusal("infra/a/images", SUBJECT)).toBeUndefined();
  });
});

describe("foreignDeleteRefusal on the provider plugin, which knows the scope the state's URN names", () => {
  const plugin = (recorded: string, stateScope: string) => ({ ...SUBJECT, recorded, stateScope });
  const refused = (whose: string) =>
    new Error(
      'Registry "images": refusing to delete registry registry-0001: its owner tag names "infra/a/images", a ' +
        `resource of stack "infra/a", and this run is for stack "infra/b"; ${whose}. Nothing was deleted. The ` +
        `object is "infra/a"'s: pulumi state delete with this resource's URN stops tracking it here and leaves ` +
        `it to "infra/a"; to take it over on purpose, declare a resource in this stack with adoptId: ` +
        `"registry-0001" and adoptFromScope: "infra/a/images" once "infra/a" no longer tracks it. ${ANYWAY}`,
    );

  it.each([
    ["a renamed stack: the URN names this stack, the state recorded the owner's scope", "infra/b/images"],
    ["a renamed resource in a renamed stack", "infra/b/registry"],
  ])("deletes in %s", (_case, stateScope) => {
    noteProgramScope("infra/b/");
    expect(foreignDeleteRefusal("infra/a/images", plugin("infra/a/images", stateScope))).toBeUndefined();
  });

  it("refuses a copy: the state's URNs name the stack it was copied from", () => {
    noteProgramScope("infra/b/");
    expect(foreignDeleteRefusal("infra/a/images", plugin("infra/a/images", "infra/a/images"))).toEqual(
      refused(
        `this stack's state names "infra/a" in its URNs: it is a copy of that stack's state (pulumi stack ` +
          "export, then pulumi stack import --force), which tracks that stack's objects",
      ),
    );
  });

  it("refuses an object another stack took over: its owner tag is not what this state recorded", () => {
    noteProgramScope("infra/b/");
    expect(foreignDeleteRefusal("infra/a/images", plugin("infra/b/images", "infra/b/images"))).toEqual(
      refused(
        `this stack's state records it for "infra/b/images", not for the resource its owner tag names, so ` +
          "another stack took it over (adoptId and adoptFromScope)",
      ),
    );
  });
});
