/** The `vendor:limits` example of docs/configuration.md ("Limits at preview") declares every limit the provider knows. */
import fs from "node:fs";
import path from "node:path";
import { parseDeclaredLimits, type DeclaredLimits } from "../../provider/common/limits";

/** The `vendor:limits` value of the example in docs/configuration.md. */
const EXAMPLE = (() => {
  const readme = fs.readFileSync(path.join(__dirname, "../../docs/configuration.md"), "utf8");
  const match = /pulumi config set vendor:limits '([^']+)'/.exec(readme);
  if (!match) throw new Error("docs/configuration.md has no `pulumi config set vendor:limits` example");
  return match[1];
})();

/** Limits declared in stack config `vendor:limits`. */
const declared = (values: DeclaredLimits["values"], problems: string[] = []): DeclaredLimits => ({
  setting: "vendor:limits",
  values,
  problems,
});

describe("parseDeclaredLimits", () => {
  it("reads every limit of the example in docs/configuration.md", () => {
    expect(parseDeclaredLimits(EXAMPLE, "vendor:limits")).toEqual(
      declared({
        maxNode: 50,
        minNode: 1,
        maxNodePool: 10,
        minNodePool: 1,
        maxClusterBlockStorageSize: 1000,
        minClusterBlockStorageSize: 10,
        maxWhitelistCount: 20,
      }),
    );
  });
});
