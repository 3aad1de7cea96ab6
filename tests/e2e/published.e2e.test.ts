/**
 * The package as users get it, from the tarball `npm pack` made for this run (the global setup packs `dist/`;
 * what the tarball holds is its file list's: tests/unit/package-contents.test.ts). `pulumi new` from
 * `templates/kaas-typescript`, offline, in a fresh folder outside the repository, asks for the template's stack
 * config (the token stored encrypted) and installs the program's dependencies: `@pulumi/pulumi` and the
 * tarball. That program previews, comes up and is destroyed through the engine against the emulator.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { KaasResponse } from "../../schemas";
import { BIN, E2E_ROOT, PULUMI_SDK_VERSION, ROOT } from "./support/engine";
import { PROJECT, TOKEN, openSuite, type Suite } from "./support/suite";

const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
const TEMPLATE = path.join(ROOT, "templates/kaas-typescript");

let s: Suite;
let tarball: string;
/** A fresh folder outside the repository: nothing in it resolves the repository's or the suite's modules. */
let fresh: string;
let project: string;

beforeAll(async () => {
  s = await openSuite("published");
  const packs = fs.readdirSync(path.join(E2E_ROOT, "pack")).filter((f) => f.endsWith(".tgz"));
  expect(packs).toEqual([`${PACKAGE.name}-${PACKAGE.version}.tgz`]);
  tarball = path.join(E2E_ROOT, "pack", packs[0]);
  fresh = fs.mkdtempSync(path.join(os.tmpdir(), "vendor-container-new-"));
  project = path.join(fresh, "my-clusters");
});
afterAll(async () => {
  await s?.close();
  if (fresh && !process.env.E2E_KEEP) fs.rmSync(fresh, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  output: string;
}

/** Runs the CLI in `cwd` with the suite's environment plus `env`, writing `input` to its standard input. */
function pulumi(args: string[], cwd: string, env: Record<string, string> = {}, input = ""): Promise<Run> {
  const child = spawn(path.join(BIN, "pulumi"), [...args, "--color", "never"], {
    cwd,
    env: { ...s.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += String(chunk)));
  child.stderr.on("data", (chunk: Buffer) => (output += String(chunk)));
  child.stdin.end(input);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      s.cliOutput.push(output);
      resolve({ code, output });
    }),
  );
}

it("`pulumi new` from the template, offline: the README, the stack config it asks for, the tarball installed", async () => {
  // `pulumi new` installs a new project's dependencies with `npm install`. This package is on no registry
  // here, so the `npm` it finds first on PATH installs what the template's package.json names with the
  // tarball in place of the package and the SDK version under test, from npm's cache, leaving package.json
  // as the template wrote it. Every other npm command is npm's own.
  const shims = path.join(s.dir, "npm-shim");
  fs.mkdirSync(shims);
  const npm = execFileSync("bash", ["-c", "command -v npm"], { encoding: "utf8" }).trim();
  fs.writeFileSync(
    path.join(shims, "npm"),
    [
      "#!/usr/bin/env bash",
      "set -euo pipefail",
      'if [ "${1:-}" = install ]; then',
      `  exec "${npm}" install --no-save --offline --no-audit --no-fund --loglevel=error \\`,
      `    "${tarball}" "@pulumi/pulumi@${PULUMI_SDK_VERSION}"`,
      "fi",
      `exec "${npm}" "$@"`,
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  // The template's keys that no --config flag fixes are asked in key order: kubernetesVersion, location,
  // nodeCount (defaults 1.33.2, ITBG-Bergamo, 2), then the token. The answers come on standard input, as
  // from a person at a terminal.
  const run = await pulumi(
    [
      "new",
      TEMPLATE,
      "--offline",
      "--dir",
      project,
      "--name",
      "my-clusters",
      "--description",
      "Clusters of my team",
      "--stack",
      "dev",
      "--config",
      `vendor:baseUrl=${s.emulator.url}`,
      "--config",
      `vendor:projectId=${PROJECT}`,
    ],
    fresh,
    { PATH: `${shims}${path.delimiter}${s.env.PATH}`, PULUMI_TEST_INTERACTIVE: "true" },
    `\n\n1\n${TOKEN}\n`,
  );
  expect(run.code).toBe(0);
  expect(run.output).toContain(
    "Kubernetes version of the cluster (kubernetesVersion) (1.33.2): " +
      "Region of the cluster and registry (location) (ITBG-Bergamo): " +
      "Number of nodes of the cluster's pool (nodeCount) (2): " +
      "API token of the service (stored encrypted) (vendor:token): Saved config",
  );
  expect(run.output).toContain("Your new project is ready to go!");

  expect(fs.readdirSync(project).sort()).toEqual([
    ".gitignore",
    "Pulumi.dev.yaml",
    "Pulumi.yaml",
    "README.md",
    "index.ts",
    "node_modules",
    "package.json",
    "tsconfig.json",
  ]);
  expect(fs.readFileSync(path.join(project, "README.md"), "utf8")).toMatch(
    /^# my-clusters\n\nClusters of my team\n/,
  );
  const manifest = fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8");
  expect(manifest).toMatch(/^name: my-clusters\n/);
  expect(manifest).not.toMatch(/^template:/m);
  const stackConfig = fs.readFileSync(path.join(project, "Pulumi.dev.yaml"), "utf8");
  expect(stackConfig.replace(/^encryptionsalt: .*\n/, "").replace(/secure: .+/, "secure: <encrypted>")).toBe(
    [
      "config:",
      "  my-clusters:kubernetesVersion: 1.33.2",
      "  my-clusters:location: ITBG-Bergamo",
      '  my-clusters:nodeCount: "1"',
      `  vendor:baseUrl: ${s.emulator.url}`,
      `  vendor:projectId: ${PROJECT}`,
      "  vendor:token:",
      "    secure: <encrypted>",
      "",
    ].join("\n"),
  );
  expect(stackConfig).not.toContain(TOKEN);

  // The dependencies, as the template names them and as installed: the SDK and this package from the tarball.
  expect(JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8")).dependencies).toEqual({
    "@pulumi/pulumi": "^3.276.0",
    [PACKAGE.name]: `^${PACKAGE.version}`,
  });
  const installed = (name: string) =>
    JSON.parse(fs.readFileSync(path.join(project, "node_modules", name, "package.json"), "utf8")).version;
  expect([installed("@pulumi/pulumi"), installed(PACKAGE.name)]).toEqual([
    PULUMI_SDK_VERSION,
    PACKAGE.version,
  ]);
  expect(fs.existsSync(path.join(project, "node_modules", PACKAGE.name, "dist/sdk/shells/Kaas.js"))).toBe(
    true,
  );
});

it("previews, comes up and is destroyed through the engine against the emulator", async () => {
  // A short poll interval from the environment keeps the waits short; everything else is the stack config.
  const env = { VENDOR_POLL_INTERVAL_MS: "100" };
  const preview = await pulumi(["preview", "--non-interactive"], project, env);
  expect(preview.code).toBe(0);
  expect(preview.output).toContain("+ 3 to create");
  expect(s.mutations()).toEqual([]);

  const up = await pulumi(["up", "--yes", "--non-interactive"], project, env);
  expect(up.code).toBe(0);
  expect(up.output).toContain("+ 3 created");
  const outputs = await pulumi(["stack", "output", "--json"], project, env);
  expect(JSON.parse(outputs.output)).toEqual({
    kaasId: "kaas-0001",
    kubernetesVersion: "1.33.2",
    kubeconfig: "[secret]",
    registryUrl: "https://my-clusters-dev-images-registry-0001.cr.emulator.invalid",
  });
  const [cluster] = s.emulator.emulator.state().kaas as KaasResponse[];
  expect([cluster.metadata.name, cluster.properties.nodePools?.map((p) => [p.name, p.nodes])]).toEqual([
    "my-clusters-dev",
    [["default", 1]],
  ]);
  // The serialized providers in state call the installed package by its stable subpath.
  const state = await pulumi(["stack", "export"], project, env);
  const providers = (
    JSON.parse(state.output).deployment.resources as { type: string; outputs?: { __provider?: string } }[]
  )
    .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))
    .map((r) => [r.type, /require\("([^"]+)"\)/.exec(r.outputs?.__provider ?? "")?.[1]])
    .sort();
  expect(providers).toEqual([
    ["pulumi-nodejs:dynamic/vendor-container:Kaas", "pulumi-vendor-container/shells/Kaas"],
    ["pulumi-nodejs:dynamic/vendor-container:Registry", "pulumi-vendor-container/shells/Registry"],
  ]);
  expect([state.output, ...s.cliOutput].filter((text) => text.includes(TOKEN))).toEqual([]);

  const destroy = await pulumi(["destroy", "--yes", "--non-interactive"], project, env);
  expect(destroy.code).toBe(0);
  s.emulator.emulator.advanceClock(60_000);
  const live = (list: { status?: { state?: string | null } | null }[]) =>
    list.filter((o) => o.status?.state !== "Deleted").length;
  const after = s.emulator.emulator.state();
  expect([live(after.kaas), live(after.registries)]).toEqual([0, 0]);
});
