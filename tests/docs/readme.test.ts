/**
 * The README is a front door: at most 300 lines, and its first code block is exactly the commands CI runs
 * (.ci/run), so that what a newcomer tries first is what is tested on every change.
 */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const README = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");

/** The commands of .ci/run: its lines after the `cd` to the repository, without comments and blank lines. */
const CI_COMMANDS = (() => {
  const lines = fs.readFileSync(path.join(ROOT, ".ci/run"), "utf8").split("\n");
  const cd = lines.findIndex((line) => line.startsWith("cd "));
  return lines.slice(cd + 1).filter((line) => line.trim() !== "" && !line.trim().startsWith("#"));
})();

it("has at most 300 lines", () => {
  expect(README.split("\n").length - (README.endsWith("\n") ? 1 : 0)).toBeLessThanOrEqual(300);
});

it("shows in its first code block exactly the commands of .ci/run, each with a comment", () => {
  expect(CI_COMMANDS).toHaveLength(2);
  const first = /^```\w*\n([^]*?)^```$/m.exec(README);
  expect(first).not.toBeNull();
  const lines = first![1].split("\n").filter((line) => line !== "");
  expect(lines.map((line) => line.replace(/\s+#.*$/, ""))).toEqual(CI_COMMANDS);
});
