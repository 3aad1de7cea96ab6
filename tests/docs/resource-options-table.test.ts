/**
 * The table of resource options in docs/resources.md quotes the refusals as the classes word them (sdk/options.ts,
 * provider/common/arguments.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { checkReplaceOnChanges } from "../../provider/common/arguments";
import { Problems } from "../../provider/common/check";
import { mergeTimeouts, refuseImport, timeoutsFromCustomTimeouts } from "../../sdk/options";

describe("the Resource options table of docs/resources.md", () => {
  const page = fs.readFileSync(path.join(__dirname, "../../docs/resources.md"), "utf8");
  // The last section of the page.
  const section = page.slice(page.indexOf("\n## Resource options\n"));
  const rows = section.split("\n").filter((line) => line.startsWith("| `") || line.startsWith("| any other"));
  const messageOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error("did not throw");
  };

  it("has a row for each option a class turns into an input, refuses or sets, and one for the rest", () => {
    expect(rows.map((row) => row.split(" | ")[0].slice(2))).toEqual([
      "`customTimeouts`",
      "`replaceOnChanges`",
      "`import`",
      "`id`",
      "`additionalSecretOutputs`",
      "`deleteBeforeReplace`",
      "any other (`dependsOn`, `protect`, `ignoreChanges`, `parent`, `aliases`, ...)",
    ]);
  });

  it("quotes the refusals as the classes word them", () => {
    const quoted = [
      messageOf(() => timeoutsFromCustomTimeouts("Registry", "timed", { create: "soon" })),
      messageOf(() => mergeTimeouts("Registry", "images", { create: "40m" }, { create: "1h" })).replace(
        'Registry "images": ',
        "",
      ),
      messageOf(() => refuseImport("Registry", "images", { import: "registry-0001" })),
    ];
    for (const message of quoted) expect(section).toContain(`\`${message}\``);
    const problems = new Problems();
    checkReplaceOnChanges(["tags[0]"], ["tags"], problems);
    expect(problems.failures[0].reason).toMatch(
      /^"tags\[0\]" is not an argument of this resource; name top-level arguments \(.*\) or "\*"$/,
    );
    expect(section).toContain(
      '`"tags[0]" is not an argument of this resource; name top-level arguments (...) or "*"`',
    );
  });
});
