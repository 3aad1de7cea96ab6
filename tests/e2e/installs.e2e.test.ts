/**
 * The two ways to install the package without a registry, each into a fresh project outside the repository,
 * with plain `npm install`: the release tarball (`npm pack`, the one the global setup packed for this run), and
 * a git URL, where npm clones the repository, installs its dev dependencies and runs its `prepare` script,
 * which builds dist/ (not committed). The git repository is a snapshot of the working tree committed into a
 * temporary repository, so the test installs what is in the tree now, whatever the repository's own history.
 * The copy from the tarball is used as a program uses it: every entry point required by Node 22 (the engine's),
 * the emulator's command run from `node_modules/.bin`, and a TypeScript file and every TypeScript block of
 * README.md and docs/*.md type-checked against the installed declarations under strict settings, with the
 * plugin's Node.js SDK beside it. The copy from the git URL holds, byte for byte, the files of the tarball.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { KINDS } from "../support/kinds";
import { BIN, E2E_ROOT, PULUMI_SDK_VERSION, ROOT } from "./support/engine";

const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
const POLICY_SDK_VERSION: string = JSON.parse(
  fs.readFileSync(path.join(ROOT, "node_modules/@pulumi/policy/package.json"), "utf8"),
).version.replace(/^v/, "");
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "vendor-container-installs-"));
});
afterAll(() => {
  if (work && !process.env.E2E_KEEP) fs.rmSync(work, { recursive: true, force: true });
});

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string =>
  execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/**
 * A new project in `work/<name>` with the package from `spec` installed next to the SDKs a program needs
 * (`@pulumi/policy` for the `policy` entry point). npm may use the registry for what its cache lacks.
 */
function projectWith(name: string, spec: string, ...others: string[]): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true }, null, 2));
  run(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      spec,
      ...others,
      `@pulumi/pulumi@${PULUMI_SDK_VERSION}`,
      `@pulumi/policy@${POLICY_SDK_VERSION}`,
    ],
    dir,
  );
  return dir;
}

/** Node 22 requires every entry point of the installed package; what it found, as JSON. */
function entryPointsOf(dir: string): unknown {
  const probe = `
    const kinds = ${JSON.stringify(KINDS)};
    const sdk = require("pulumi-vendor-container");
    console.log(JSON.stringify({
      version: require("pulumi-vendor-container/package.json").version,
      classes: kinds.map((kind) => typeof sdk[kind]),
      functions: ["getKaas", "getKubeconfigOutput", "listKaas"].map((name) => typeof sdk[name]),
      provider: Object.keys(require("pulumi-vendor-container/provider")).filter((key) => /^(configure|provider)$/.test(key)).sort(),
      shells: kinds.map((kind) => require("pulumi-vendor-container/shells/" + kind).kind),
      emulator: typeof require("pulumi-vendor-container/emulator").startEmulator,
      policy: typeof require("pulumi-vendor-container/policy").vendorContainerPolicies,
    }));`;
  return JSON.parse(run(path.join(BIN, "node"), ["-e", probe], dir));
}

const EXPECTED_ENTRY_POINTS = {
  version: PACKAGE.version,
  classes: ["function", "function", "function", "function"],
  functions: ["function", "function", "function"],
  provider: ["configure", "provider"],
  shells: [...KINDS],
  emulator: "function",
  policy: "function",
};

/** The documents whose TypeScript blocks are compiled: the README and every page of docs/, by name. */
const documents = (): string[] => [
  "README.md",
  ...fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((file) => file.endsWith(".md"))
    .sort()
    .map((file) => `docs/${file}`),
];

/**
 * The TypeScript blocks of the documents, each one a program of its own, by a file name that says where it
 * stands: `README-1.ts` for the README's first, `docs-languages-1.ts` for the first of docs/languages.md.
 */
const documentPrograms = (): Record<string, string> =>
  Object.fromEntries(
    documents().flatMap((document) =>
      [...fs.readFileSync(path.join(ROOT, document), "utf8").matchAll(/^```ts\n([^]*?)^```$/gm)].map(
        ([, code], i) => [`${document.replace(/\.md$/, "").replace("/", "-")}-${i + 1}.ts`, code],
      ),
    ),
  );

/**
 * Type-checks a program, and the `programs` given (by file name), against the installed declarations, strictly,
 * resolving subpaths through the package's `exports` (node16), and prints tsc's own report when it fails.
 */
function typeCheck(dir: string, programs: Record<string, string> = {}): string {
  for (const [file, code] of Object.entries(programs)) fs.writeFileSync(path.join(dir, file), code);
  fs.writeFileSync(
    path.join(dir, "index.ts"),
    [
      'import * as pulumi from "@pulumi/pulumi";',
      'import { Kaas, getKubeconfigOutput } from "pulumi-vendor-container";',
      'import { startEmulator } from "pulumi-vendor-container/emulator";',
      "",
      'const cluster = new Kaas("c", {',
      '  name: "c",',
      '  location: "ITBG-Bergamo",',
      '  kubernetesVersion: "1.33.2",',
      '  nodeCidr: { address: "10.20.0.0/16", name: "nodes" },',
      '  nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],',
      "});",
      "export const kubeconfig: pulumi.Output<string> = cluster.kubeconfig;",
      "export const again: pulumi.Output<string> = getKubeconfigOutput({ kaasId: cluster.kaasId });",
      "export const start: typeof startEmulator = startEmulator;",
      "",
    ].join("\n"),
  );
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        module: "node16",
        moduleResolution: "node16",
        skipLibCheck: true,
        types: [],
      },
      files: ["index.ts", ...Object.keys(programs)],
    }),
  );
  try {
    return run(process.execPath, [TSC, "-p", "tsconfig.json"], dir);
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

/** The first line of `pulumi-vendor-container-emulator --help` run from the project's `node_modules/.bin`. */
const emulatorUsage = (dir: string): string =>
  run(path.join(dir, "node_modules/.bin/pulumi-vendor-container-emulator"), ["--help"], dir).split("\n")[0];

/** The release tarball the global setup packed for this run, the one in `.tools/e2e/pack`. */
function tarball(): string {
  const packs = fs.readdirSync(path.join(E2E_ROOT, "pack")).filter((file) => file.endsWith(".tgz"));
  expect(packs).toEqual([`${PACKAGE.name}-${PACKAGE.version}.tgz`]);
  return path.join(E2E_ROOT, "pack", packs[0]);
}

/** Every file below `dir`, by its path there, with its sha256. */
function contents(dir: string): Record<string, string> {
  return Object.fromEntries(
    (fs.readdirSync(dir, { recursive: true }) as string[])
      .filter((file) => fs.statSync(path.join(dir, file)).isFile())
      .sort()
      .map((file) => [
        file,
        createHash("sha256")
          .update(fs.readFileSync(path.join(dir, file)))
          .digest("hex"),
      ]),
  );
}

it("installs from the release tarball (`npm pack`) and works from every entry point", () => {
  // With the plugin's Node.js SDK, which the snippet of a stack moved to the plugin (docs/languages.md) declares.
  const sdk = fs.readdirSync(path.join(E2E_ROOT, "pack-sdk")).filter((file) => file.endsWith(".tgz"));
  const dir = projectWith("from-tarball", tarball(), path.join(E2E_ROOT, "pack-sdk", sdk[0]));

  expect(entryPointsOf(dir)).toEqual(EXPECTED_ENTRY_POINTS);
  expect(emulatorUsage(dir)).toBe("Usage: pulumi-vendor-container-emulator [options]");
  const programs = documentPrograms();
  expect(Object.keys(programs)).toEqual(["README-1.ts", "docs-languages-1.ts"]);
  expect(typeCheck(dir, programs)).toBe("");
});

it("installs from a git URL: npm runs `prepare`, which builds dist/ in its clone", () => {
  // A snapshot of the working tree, committed into a repository of its own. Big folders that .gitignore
  // leaves out anyway are not copied; the copied .gitignore keeps out the rest (git add -A).
  const repo = path.join(work, "repo");
  const skipped = new Set(["node_modules", ".tools", ".git", "dist", "coverage"]);
  fs.cpSync(ROOT, repo, {
    recursive: true,
    filter: (source) => {
      const relative = path.relative(ROOT, source);
      return !relative.split(path.sep).some((part) => skipped.has(part)) && !relative.endsWith(".tgz");
    },
  });
  const git = (...args: string[]) =>
    run("git", ["-c", "user.name=installs test", "-c", "user.email=installs@test.invalid", ...args], repo);
  git("init", "--quiet");
  git("add", "-A");
  git("commit", "--quiet", "--no-gpg-sign", "-m", "snapshot of the working tree");
  const commit = git("rev-parse", "HEAD").trim();
  // Nothing built is committed: whatever dist/ the install has, npm built it.
  expect(
    git("ls-files")
      .split("\n")
      .filter((file) => file.startsWith("dist/")),
  ).toEqual([]);

  const url = `git+file://${repo}`;
  const dir = projectWith("from-git", url);
  const lock = JSON.parse(fs.readFileSync(path.join(dir, "package-lock.json"), "utf8"));
  expect(lock.packages["node_modules/pulumi-vendor-container"].resolved).toBe(`${url}#${commit}`);
  const installed = path.join(dir, "node_modules/pulumi-vendor-container");
  // What the clone packed is what `files` lists: the build and the documents, none of the sources or tests.
  expect(fs.readdirSync(installed).sort()).toEqual([
    "CHANGELOG.md",
    "LICENSE",
    "README.md",
    "dist",
    "package.json",
    "policy",
  ]);
  // The compiled folders, and the validators the build generates after compiling (scripts/validators.mjs).
  expect(fs.readdirSync(path.join(installed, "dist")).sort()).toEqual(
    [
      ...JSON.parse(fs.readFileSync(path.join(ROOT, "tsconfig.build.json"), "utf8")).include,
      "validators",
    ].sort(),
  );

  // Byte for byte the package the tarball holds, which the test above runs from every entry point and
  // type-checks against: npm's `prepare` in the clone built what `npm pack` packs.
  const unpacked = path.join(work, "tarball");
  fs.mkdirSync(unpacked);
  run("tar", ["-xzf", tarball(), "-C", unpacked], work);
  expect(contents(installed)).toEqual(contents(path.join(unpacked, "package")));
});
