/**
 * `scripts/prepare.mjs`, npm's `prepare`: it builds dist/ when dist/ does not match its sources (a git install's
 * fresh clone, an edited source), and leaves an up-to-date dist/ alone, since `npm test` builds before it packs
 * and other processes read dist/ meanwhile. Each case runs the script in a small project of its own whose
 * `build` script only records that it ran.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const SCRIPT = path.resolve(__dirname, "../../scripts/prepare.mjs");

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "prepare-script-"));
  fs.mkdirSync(path.join(root, "scripts"));
  fs.copyFileSync(SCRIPT, path.join(root, "scripts/prepare.mjs"));
  const build = "require('node:fs').appendFileSync('built', 'build\\n')";
  fs.writeFileSync(
    path.join(root, "package.json"),
    JSON.stringify({ name: "p", private: true, scripts: { build: `node -e "${build}"` } }),
  );
  fs.writeFileSync(path.join(root, "tsconfig.json"), "{}");
  fs.writeFileSync(path.join(root, "tsconfig.build.json"), JSON.stringify({ include: ["sdk", "rest"] }));
  for (const file of ["sdk/index.ts", "sdk/types.d.ts", "rest/client.ts"]) write(file, "export {};\n");
  write("scripts/validators.mjs", "");
  write("scripts/package-schema.mjs", "");
  // The compiled files and what the build generates (validators, package schema), newer than everything else, as right after a build.
  const built = [
    "dist/sdk/index.js",
    "dist/sdk/index.d.ts",
    "dist/rest/client.js",
    "dist/validators/getKaas.response.js",
    "dist/plugin/schema.json",
  ];
  const later = new Date(Date.now() + 60_000);
  for (const file of built) {
    write(file, "");
    age(file, later);
  }
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

function age(file: string, when: Date): void {
  fs.utimesSync(path.join(root, file), when, when);
}

/**
 * Runs the script once; its stderr and whether the build ran. Its stdout must stay empty: `npm pack --json`
 * prints its JSON there.
 */
function runPrepare(): { stderr: string; built: boolean } {
  const run = spawnSync(process.execPath, ["scripts/prepare.mjs"], { cwd: root, encoding: "utf8" });
  expect([run.status, run.stdout]).toEqual([0, ""]);
  return { stderr: run.stderr, built: fs.existsSync(path.join(root, "built")) };
}

it("leaves a dist/ that matches its sources alone", () => {
  expect(runPrepare()).toEqual({ stderr: "prepare: dist/ matches its sources, not rebuilt\n", built: false });
});

it.each([
  ["dist/ is missing", () => fs.rmSync(path.join(root, "dist"), { recursive: true })],
  ["dist/ lacks rest/retry.js", () => write("rest/retry.ts", "export {};\n")],
  ["dist/sdk/old.js has no source", () => write("dist/sdk/old.js", "")],
  [
    "dist/ lacks the generated validators",
    () => fs.rmSync(path.join(root, "dist/validators"), { recursive: true }),
  ],
  ["sdk/index.ts is newer than dist/", () => age("sdk/index.ts", new Date(Date.now() + 120_000))],
  [
    "tsconfig.build.json is newer than dist/",
    () => age("tsconfig.build.json", new Date(Date.now() + 120_000)),
  ],
  [
    "scripts/validators.mjs is newer than dist/",
    () => age("scripts/validators.mjs", new Date(Date.now() + 120_000)),
  ],
  [
    "scripts/package-schema.mjs is newer than dist/",
    () => age("scripts/package-schema.mjs", new Date(Date.now() + 120_000)),
  ],
  ["dist/ lacks the package schema", () => fs.rmSync(path.join(root, "dist/plugin/schema.json"))],
])("builds when %s", (reason, change) => {
  change();
  const { stderr, built } = runPrepare();
  expect(stderr).toBe(`prepare: building dist/ (${reason})\n`);
  expect(built).toBe(true);
  expect(fs.readFileSync(path.join(root, "built"), "utf8")).toBe("build\n");
});

it("ignores declaration files among the sources and the compiled files", () => {
  write("rest/extra.d.ts", "export {};\n");
  expect(runPrepare().built).toBe(false);
});

it("ignores what later steps write into dist/ (the SDKs in dist/sdks, the release in dist/release)", () => {
  write("dist/sdks/nodejs/bin/index.js", "");
  write("dist/release/bundle.js", "");
  expect(runPrepare()).toEqual({ stderr: "prepare: dist/ matches its sources, not rebuilt\n", built: false });
});
