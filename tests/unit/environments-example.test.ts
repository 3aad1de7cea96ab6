/**
 * The parts of `examples/environments` that need no engine: the table of environments and presets, the
 * command line's refusals (exit code 2, before any Pulumi command runs) and the owner-only file write. The
 * example runs end to end through the engine in `tests/e2e/environments.e2e.test.ts`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { main, writeOwnerOnly } from "../../examples/environments/environments";
import { SIZES, environmentSettings, sizePreset } from "../../examples/environments/settings";

it.each([
  ["dev", { size: "small", protect: false, nodeCidr: "10.10.0.0/16", backupRetentionDays: null }],
  ["staging", { size: "medium", protect: false, nodeCidr: "10.20.0.0/16", backupRetentionDays: null }],
  ["prod", { size: "ha", protect: true, nodeCidr: "10.30.0.0/16", backupRetentionDays: 14 }],
  ["pr-7", { size: "small", protect: false, nodeCidr: "10.107.0.0/16", backupRetentionDays: null }],
  ["pr-1234", { size: "small", protect: false, nodeCidr: "10.134.0.0/16", backupRetentionDays: null }],
])("environment %s has its preset, protection, node range and backup", (name, expected) => {
  expect(environmentSettings(name)).toEqual({
    ...expected,
    kubernetesVersion: "1.32.5",
    location: "ITBG-Bergamo",
  });
});

it.each(["qa", "pr-", "pr-0", "pr-01", "pr-1234567", "constructor", "Prod"])(
  "refuses the unknown environment %s",
  (name) => {
    expect(() => environmentSettings(name)).toThrow(
      `unknown environment "${name}": use dev, staging, prod or pr-<number>`,
    );
  },
);

it("makes only production highly available, and refuses an unknown size", () => {
  expect(Object.entries(SIZES).map(([name, preset]) => [name, preset.ha])).toEqual([
    ["small", false],
    ["medium", false],
    ["ha", true],
  ]);
  expect(sizePreset("medium")).toBe(SIZES.medium);
  expect(() => sizePreset("toString")).toThrow('unknown size "toString": a size preset: small, medium or ha');
});

describe("the command line", () => {
  async function run(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out, firstError: err.join("\n").split("\n")[0], usage: err.join("\n").includes("usage:") };
  }

  it.each([
    [[], 'error: unknown command ""'],
    [["deploy", "dev"], 'error: unknown command "deploy"'],
    [["up"], "error: up takes at least one environment"],
    [["destroy", "dev", "staging"], "error: destroy takes one environment"],
    [["list", "dev"], "error: list takes no environment"],
    [["up", "dev", "qa"], 'error: unknown environment "qa": use dev, staging, prod or pr-<number>'],
    [["up", "dev", "--set", "size=huge"], "error: --set size: a size preset: small, medium or ha"],
    [
      ["up", "dev", "--set", "kubernetesVersion=latest"],
      "error: --set kubernetesVersion: a Kubernetes version such as 1.33.2",
    ],
    [
      ["up", "dev", "--set", "colour=red"],
      "error: --set takes key=value with a key among size, kubernetesVersion",
    ],
    [["up", "dev", "--set"], "error: --set needs a value"],
    [["destroy", "prod", "--yes"], "error: unknown option --yes"],
  ])("refuses %j with exit code 2 and the usage, before running Pulumi", async (argv, message) => {
    expect(await run(...argv)).toEqual({ code: 2, out: [], firstError: message, usage: true });
  });
});

describe("writeOwnerOnly", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "owner-only-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes a new file with mode 600", () => {
    writeOwnerOnly(path.join(dir, "kubeconfig"), "apiVersion: v1\n");
    expect(fs.statSync(path.join(dir, "kubeconfig")).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(dir, "kubeconfig"), "utf8")).toBe("apiVersion: v1\n");
  });

  it("replaces a file others could read with one they cannot, leaving nothing else behind", () => {
    const file = path.join(dir, "kubeconfig");
    fs.writeFileSync(file, "old", { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    writeOwnerOnly(file, "new");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, "utf8")).toBe("new");
    expect(fs.readdirSync(dir)).toEqual(["kubeconfig"]);
  });
});
