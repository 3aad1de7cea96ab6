/**
 * What the package's tarball holds: the file list `npm pack` makes it from (`npm pack --dry-run`, its scripts
 * left out so that nothing is built), over the dist/ the build left, which is the one the end-to-end setup packs.
 * The built package, its README and changelog, and nothing of the tests or tools.
 */
import fs from "node:fs";
import path from "node:path";
import { KINDS } from "../support/kinds";
import { ROOT, runCommand } from "../support/command";

const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));

let files: string[];
beforeAll(async () => {
  const pack = await runCommand("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"]);
  expect(pack.code).toBe(0);
  const [packed] = JSON.parse(pack.output) as { files: { path: string }[] }[];
  files = packed.files.map((file) => file.path);
});

it("holds the built package, its README and changelog, and nothing of the tests or tools", () => {
  const targets = [
    PACKAGE.main,
    PACKAGE.types,
    ...Object.values(PACKAGE.bin as Record<string, string>),
    ...Object.values(PACKAGE.exports as Record<string, string | Record<string, string>>).flatMap((target) =>
      typeof target === "string" ? [target] : Object.values(target),
    ),
  ]
    .map((target) => target.replace(/^\.\//, ""))
    // `./shells/*`: the stable subpaths that serialized providers in state call, one per kind.
    .flatMap((target) => (target.includes("*") ? KINDS.map((kind) => target.replace("*", kind)) : [target]));
  const required = ["package.json", "README.md", "CHANGELOG.md", "LICENSE", ...targets];
  expect(required.filter((file) => !files.includes(file))).toEqual([]);

  const forbidden = files.filter(
    (file) =>
      /^(tests|scripts|bench|examples|templates|docs|coverage|node_modules|\.tools|\.ci|\.git)\//.test(
        file,
      ) ||
      /(^|\/)dist\/(tests|bench|examples|templates|scripts)\//.test(file) ||
      /\.test\.|\.map$|\.tgz$|(^|\/)(tsconfig[^/]*\.json|jest\.config\.js|eslint\.config\.mjs|typedoc\.json)$/.test(
        file,
      ) ||
      (/\.ts$/.test(file) && !/\.d\.ts$/.test(file)),
  );
  expect(forbidden).toEqual([]);
  // What dist/ holds comes from the build's inputs only (tsconfig.build.json), and the validators the build
  // generates from the endpoint table (scripts/validators.mjs), which the package loads instead of compiling.
  const built = [
    ...(JSON.parse(fs.readFileSync(path.join(ROOT, "tsconfig.build.json"), "utf8")).include as string[]),
    "validators",
  ];
  const distFolders = [...new Set(files.filter((f) => f.startsWith("dist/")).map((f) => f.split("/")[1]))];
  expect(distFolders.filter((folder) => !built.includes(folder))).toEqual([]);
  expect(files).toContain("dist/validators/KaasInsert.js");
});
