#!/usr/bin/env node
// npm's `prepare` script: npm runs it when the package is installed from a git URL (in its clone, after
// installing the dev dependencies), before `npm pack` and `npm publish`, after `npm install` and `npm ci` in the
// repository, and when a program installs the repository folder as a copy (`scripts/install-example.sh`,
// `--install-links`). The package's entry points are in dist/, which is not committed, so a git install must
// build it here.
//
// It builds only when dist/ does not match its sources: `npm test` runs it before jest, the demo builds first,
// both then pack, and other processes (tests reading dist/, a running emulator) may use dist/ meanwhile, so
// rebuilding an up-to-date dist/ (the build empties it first) would only cost time and pull files from under
// them. dist/ matches when every source file of the build (tsconfig.build.json's `include`) has its compiled
// file, the validators and the package schema the build generates are there, no other compiled file is left
// without its source, and no source or build configuration is newer than the oldest compiled file. Messages go
// to stderr: `npm pack --json` writes its JSON to stdout.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");
// What the build's output depends on besides the sources: the TypeScript settings and the generators of the
// validators and of the plugin's package schema.
const CONFIGS = [
  "tsconfig.json",
  "tsconfig.build.json",
  "scripts/validators.mjs",
  "scripts/package-schema.mjs",
].map((file) => path.join(ROOT, file));

/** Every file below `dir` (none when it does not exist). */
function filesBelow(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

/** Why dist/ must be built, or undefined when it matches its sources. */
function staleness() {
  const folders = JSON.parse(fs.readFileSync(path.join(ROOT, "tsconfig.build.json"), "utf8")).include;
  const sources = folders.flatMap((folder) =>
    filesBelow(path.join(ROOT, folder)).filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts")),
  );
  // Only the build's own folders count: dist/ also holds what later steps write there (the SDKs of
  // scripts/sdks.sh in dist/sdks, the release in dist/release), which has no source here and is no reason to
  // rebuild (a rebuild would empty dist/ under the tests reading it).
  const compiled = [...folders, "validators"]
    .flatMap((folder) => filesBelow(path.join(DIST, folder)))
    .filter((file) => file.endsWith(".js"));
  if (compiled.length === 0) return "dist/ is missing";
  const expected = new Set(sources.map((file) => path.relative(ROOT, file).replace(/\.ts$/, ".js")));
  const present = new Set(compiled.map((file) => path.relative(DIST, file)));
  const missing = [...expected].filter((file) => !present.has(file));
  if (missing.length > 0) return `dist/ lacks ${missing[0]}`;
  // The validators the build generates after tsc (scripts/validators.mjs) have no source of their own.
  const generated = [...present].filter((file) => file.startsWith(`validators${path.sep}`));
  if (generated.length === 0) return "dist/ lacks the generated validators";
  const orphan = [...present].find((file) => !expected.has(file) && !generated.includes(file));
  if (orphan) return `dist/${orphan} has no source`;
  const oldestOutput = Math.min(...compiled.map((file) => fs.statSync(file).mtimeMs));
  const newer = [...sources, ...CONFIGS].find((file) => fs.statSync(file).mtimeMs > oldestOutput);
  if (newer) return `${path.relative(ROOT, newer)} is newer than dist/`;
  // The package schema (scripts/package-schema.mjs) is the build's last step: there, the build completed.
  if (!fs.existsSync(path.join(DIST, "plugin", "schema.json"))) return "dist/ lacks the package schema";
  return undefined;
}

const reason = staleness();
if (reason === undefined) {
  process.stderr.write("prepare: dist/ matches its sources, not rebuilt\n");
} else {
  process.stderr.write(`prepare: building dist/ (${reason})\n`);
  const build = spawnSync("npm", ["run", "--silent", "build"], {
    cwd: ROOT,
    stdio: ["ignore", process.stderr, "inherit"],
    shell: process.platform === "win32",
  });
  process.exit(build.status ?? 1);
}
