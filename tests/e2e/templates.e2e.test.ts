/**
 * The `pulumi new` templates on the provider plugin, one per language of its generated SDKs
 * (`templates/kaas-python`, `templates/kaas-yaml`, `templates/kaas-go`; the TypeScript one on the dynamic
 * resources is published.e2e.test.ts's): each becomes a project in a fresh folder outside the repository with
 * `pulumi new <template> --yes --stack dev` and the emulator's settings as `--config`, which installs its
 * dependencies as a user's does (pip into the project's virtualenv, `go mod tidy`); the project comes up through
 * the engine against the emulator, its kubeconfig a secret output, and is destroyed.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { KaasResponse } from "../../schemas";
import { E2E_ROOT, PYTHON, ROOT } from "./support/engine";
import { GO_ENV, GO_SDK_EDIT } from "./support/golang";
import { PLUGIN_BIN } from "./support/plugin";
import { PROJECT, TOKEN, openSuite, type Suite } from "./support/suite";
import { pulumiWheels } from "./support/wheels";

type Language = "python" | "yaml" | "go";
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string })
  .version;

/**
 * LOCAL BUILDS: where each template's project gets what is on no registry here. The plugin (every language) is
 * installed into the suite's plugin cache with `pulumi plugin install --file`, at the package's version, which
 * the SDKs ask for (a script that starts the executable npm linked for the suite: support/plugin.ts). Python's
 * pip installs `pulumi_vendor_container` and `pulumi` from folders of wheels (`pythonWheels`) instead of PyPI.
 * Go's `go mod tidy` (which `pulumi new` runs) runs with the go.mod pointed at dist/sdks/go first, by a `go` on
 * PATH that applies support/golang.ts `GO_SDK_EDIT`, as the suite's Go program does. Returns the environment of
 * `pulumi new` and that of the CLI's later runs in the project.
 */
async function localBuilds(
  language: Language,
  s: Suite,
  project: string,
): Promise<{ newEnv: Record<string, string>; runEnv: Record<string, string> }> {
  const launcher = path.join(s.dir, "pulumi-resource-vendor-container");
  fs.writeFileSync(
    launcher,
    `#!/bin/sh\nexec ${JSON.stringify(path.join(PLUGIN_BIN, "pulumi-resource-vendor-container"))} "$@"\n`,
    { mode: 0o755 },
  );
  const install = ["plugin", "install", "resource", "vendor-container", VERSION, "--file", launcher];
  const installed = await s.cli(install, s.dir).done;
  if (installed.code !== 0) throw new Error(`pulumi plugin install failed: ${installed.output}`);
  const env: Record<string, string> = { ...GO_ENV };
  if (language === "python") {
    Object.assign(env, { PIP_NO_INDEX: "1", PIP_FIND_LINKS: pythonWheels() });
    // The Python host scripts/engine.sh builds (sdk/v3 v3.68.0) takes `virtualenv` only as a flag, which today's
    // CLI no longer passes (it sends runtime options with each request): it makes the virtualenv in the project
    // folder itself (with the engine's Python), and runs programs with PULUMI_PYTHON_CMD. The CLI's runs after
    // `pulumi new` use that virtualenv's Python.
    return { newEnv: env, runEnv: { ...env, PULUMI_PYTHON_CMD: path.join(project, "bin", "python") } };
  }
  if (language === "go") {
    const shims = path.join(s.dir, "go-shim");
    fs.mkdirSync(shims, { recursive: true });
    const go = execFileSync("bash", ["-c", "command -v go"], { encoding: "utf8" }).trim();
    fs.writeFileSync(
      path.join(shims, "go"),
      [
        "#!/usr/bin/env bash",
        "set -euo pipefail",
        'if [ "${1:-} ${2:-}" = "mod tidy" ]; then',
        `  "${go}" mod edit ${JSON.stringify(GO_SDK_EDIT)}`,
        "fi",
        `exec "${go}" "$@"`,
        "",
      ].join("\n"),
      { mode: 0o755 },
    );
    env.PATH = `${shims}${path.delimiter}${s.env.PATH}`;
  }
  return { newEnv: env, runEnv: env };
}

/**
 * The folders of wheels for pip without an index (`PIP_FIND_LINKS`, space-separated): `pulumi` with its
 * dependencies (support/wheels.ts) and the generated Python SDK (dist/sdks/python, built by pip into
 * `E2E_ROOT/sdk-wheel`).
 */
function pythonWheels(): string {
  const sdk = path.join(E2E_ROOT, "sdk-wheel");
  fs.rmSync(sdk, { recursive: true, force: true });
  execFileSync(
    PYTHON,
    [
      ...[
        "-m",
        "pip",
        "--disable-pip-version-check",
        "--quiet",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
      ],
      ...["--no-index", "--wheel-dir", sdk, "dist/sdks/python"],
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  return `${pulumiWheels()} ${sdk}`;
}

describe.each<Language>(["python", "yaml", "go"])("`pulumi new` from templates/kaas-%s", (language) => {
  let s: Suite;
  let fresh: string;
  let project: string;
  let env: Record<string, string> = {};
  /** The CLI in the project, as a user runs it there. */
  const pulumi = async (args: string[]) => {
    const run = await s.cli(args, project, { env }).done;
    if (run.code !== 0) throw new Error(`pulumi ${args[0]} failed (${run.code}):\n${run.output}`);
    return run.output;
  };

  beforeAll(async () => {
    s = await openSuite(`template-${language}`);
    fresh = fs.mkdtempSync(path.join(os.tmpdir(), `vendor-container-${language}-`));
    project = path.join(fresh, "my-clusters");
  });
  afterAll(async () => {
    await s?.close();
    if (fresh && !process.env.E2E_KEEP) fs.rmSync(fresh, { recursive: true, force: true });
  });

  it("makes a project with the template's files and the stack config, its dependencies installed", async () => {
    const { newEnv, runEnv } = await localBuilds(language, s, project);
    env = newEnv;
    fs.mkdirSync(project, { recursive: true });
    const template = path.join(ROOT, `templates/kaas-${language}`);
    const config = {
      "vendor-container:baseUrl": s.emulator.url,
      "vendor-container:projectId": PROJECT,
      "vendor-container:token": TOKEN,
      "vendor-container:pollIntervalMs": "100",
    };
    const args = [
      ...["new", template, "--yes", "--stack", "dev", "--name", "my-clusters"],
      ...Object.entries(config).flatMap(([key, value]) => ["--config", `${key}=${value}`]),
    ];
    const made = await s.cli(args, project, { env }).done;
    env = runEnv;
    if (language === "go") {
      // The Go host scripts/engine.sh builds (sdk/v3 v3.66.0) takes every module of go.mod whose path starts with
      // github.com/pulumi/pulumi- for a provider: after `go mod tidy`, `pulumi new` asks for a plugin
      // "cloud-sdk" (github.com/pulumi/pulumi-cloud-sdk/go, which sdk/v3 requires), which exists nowhere, and
      // fails there, the project and its stack made and its dependencies installed. Today's Go host reads only
      // the modules that say they are providers (pulumi-plugin.json).
      expect(made.code).toBe(1);
      expect(made.output).toContain("Finished installing dependencies");
      expect(made.output).toContain("installing packages: failed to download plugin: cloud-sdk-1.");
    } else {
      expect({ code: made.code, output: made.output }).toEqual({
        code: 0,
        output: expect.stringContaining("Your new project is ready to go!"),
      });
    }
    const files = {
      python: [
        ".gitignore",
        "Pulumi.dev.yaml",
        "Pulumi.yaml",
        "README.md",
        "__main__.py",
        // The virtualenv, in the project folder itself (see localBuilds).
        "bin",
        "include",
        "lib",
        "lib64",
        "pyvenv.cfg",
        "requirements.txt",
      ],
      yaml: ["Pulumi.dev.yaml", "Pulumi.yaml", "README.md"],
      go: ["Pulumi.dev.yaml", "Pulumi.yaml", "README.md", "go.mod", "go.sum", "main.go"],
    }[language];
    expect(fs.readdirSync(project).sort()).toEqual(files);
    expect(fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8")).toMatch(/^name: my-clusters\n/);
    const stackConfig = fs.readFileSync(path.join(project, "Pulumi.dev.yaml"), "utf8");
    expect(stackConfig).toContain('  my-clusters:nodeCount: "2"\n');
    expect(stackConfig).toContain(`  vendor-container:baseUrl: ${s.emulator.url}\n`);
    if (language === "go")
      expect(fs.readFileSync(path.join(project, "go.mod"), "utf8")).toMatch(/^module my-clusters\n/);
  });

  it("comes up through the engine against the emulator, the kubeconfig a secret, and is destroyed", async () => {
    await pulumi(["up", "--yes", "--stack", "dev"]);
    const outputs = JSON.parse(await pulumi(["stack", "output", "--json", "--stack", "dev"]));
    expect(outputs).toEqual({
      kaasId: "kaas-0001",
      kubernetesVersion: "1.33.2",
      kubeconfig: "[secret]",
      registryUrl: "https://my-clusters-dev-images-registry-0001.cr.emulator.invalid",
    });
    const [cluster] = s.emulator.emulator.state().kaas as KaasResponse[];
    expect([cluster.metadata.name, cluster.properties.nodePools?.map((p) => [p.name, p.nodes])]).toEqual([
      "my-clusters-dev",
      [["default", 2]],
    ]);
    await pulumi(["destroy", "--yes", "--stack", "dev"]);
    s.emulator.emulator.advanceClock(60_000);
    const live = (list: { status?: { state?: string | null } | null }[]) =>
      list.filter((o) => o.status?.state !== "Deleted").length;
    const after = s.emulator.emulator.state();
    expect([live(after.kaas), live(after.registries)]).toEqual([0, 0]);
  });
});
