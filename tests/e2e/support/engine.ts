/**
 * Where the end-to-end suite finds the real Pulumi engine and the programs it runs. The engine is the one
 * `scripts/engine.sh` puts in `.tools/bin` (the CLI, the Node.js language host, the dynamic-provider launcher
 * and Node 22); the programs run this package as users get it: packed with `npm pack` and installed, not
 * linked, into `.tools/e2e/node_modules` next to `@pulumi/pulumi`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** The repository root. */
export const ROOT = path.resolve(__dirname, "../../..");
/** Root of the engine install, as `PulumiCommand.get({ root })` expects it (`<root>/bin/pulumi`). */
export const TOOLS = path.join(ROOT, ".tools");
/**
 * `pulumi`, its Node.js, Python, YAML and Go language hosts, `pulumi-resource-pulumi-nodejs`, the SDK generator
 * (`pulumi-sdkgen-vendor-container`) and `node` (22).
 */
export const BIN = path.join(TOOLS, "bin");
/**
 * Folder whose `node_modules` every test program resolves: programs live in folders below it.
 * `VENDOR_E2E_ROOT` moves it, so that two checkouts' or two people's runs do not share one install.
 */
export const E2E_ROOT = process.env.VENDOR_E2E_ROOT
  ? path.resolve(process.env.VENDOR_E2E_ROOT)
  : path.join(TOOLS, "e2e");
/** Version of `@pulumi/pulumi` the programs use (the package's own dev dependency). */
export const PULUMI_SDK_VERSION: string = JSON.parse(
  fs.readFileSync(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
).version;

const ENGINE_PARTS = [
  "pulumi",
  "pulumi-language-nodejs",
  "pulumi-language-python",
  "pulumi-language-python-exec",
  "pulumi-language-yaml",
  "pulumi-language-go",
  "pulumi-resource-pulumi-nodejs",
  "pulumi-sdkgen-vendor-container",
  "node",
];

/** The Python that runs Python programs: the virtualenv with the `pulumi` package scripts/engine.sh installs. */
export const PYTHON = path.join(TOOLS, "python", "bin", "python");

/**
 * Where the global setup installs the provider plugin's generated Python SDK (`pulumi_vendor_container`); Python
 * programs find it on `PYTHONPATH`. Below `E2E_ROOT` rather than in the engine's virtualenv, so that runs with
 * roots of their own do not share it.
 */
export const PYTHON_SDK_DIR = path.join(E2E_ROOT, "python-sdk");

/** Throws, saying how to get it, when a part of the engine is missing. Nothing is skipped without it. */
export function assertEngine(): void {
  const missing = ENGINE_PARTS.filter((name) => {
    try {
      fs.accessSync(path.join(BIN, name), fs.constants.X_OK);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0) {
    throw new Error(
      `The Pulumi engine is missing from .tools/bin (${missing.join(", ")}). ` +
        "Build it with `bash scripts/engine.sh` (the demo, `./scripts/demo.sh`, runs it first), then run the tests again.",
    );
  }
}

/** `pulumi version` of the engine in `.tools/bin`. */
export function engineVersion(): string {
  return execFileSync(path.join(BIN, "pulumi"), ["version"], { encoding: "utf8" }).trim();
}

/**
 * The environment every CLI run gets: the engine first on PATH (so programs run on its Node 22), offline
 * settings, and none of the `VENDOR_*` variables of the test process, so a test proves what stack config does.
 */
export function engineEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("VENDOR_") && !key.startsWith("PULUMI_")) env[key] = value;
  }
  return {
    ...env,
    PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
    PULUMI_PYTHON_CMD: PYTHON,
    // Every run starts two or three Node processes (the program, the dynamic provider, the policy pack) that
    // load the same modules: Node 22 keeps their compiled code on disk, which saves a third of each start.
    NODE_COMPILE_CACHE: path.join(TOOLS, "node-compile-cache"),
    ...extra,
  };
}
