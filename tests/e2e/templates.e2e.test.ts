/**
 * The `pulumi new` templates on the provider plugin, one per language of its generated SDKs
 * (`templates/kaas-python`, `templates/kaas-yaml`, `templates/kaas-go`; the TypeScript one on the dynamic
 * resources is published.e2e.test.ts's), on the release (`npm run release`, dist/release) as a Python, YAML or Go
 * user without npm gets it: the plugin installed from the linux-amd64 archive with `pulumi plugin install
 * --file`, Python's `pulumi_vendor_container` installed by pip from the release's wheel, Go's SDK module
 * fetched from the release's GOPROXY layout, and every CLI run on a PATH that holds no `node` and no `npm`. Each
 * template becomes a project in a fresh folder outside the repository with `pulumi new <template> --yes --stack
 * dev` and the emulator's settings as `--config`, which installs its dependencies as a user's does (pip into
 * the project's virtualenv, `go mod tidy`); the project comes up through the engine against the emulator, its
 * kubeconfig a secret output, and is destroyed.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { KaasResponse } from "../../schemas";
import { BIN, PYTHON, ROOT } from "./support/engine";
import { GO_SDK_MODULE } from "./support/golang";
import { VERSION, archiveName, release } from "./support/release";
import { PROJECT, TOKEN, openSuite, type Suite } from "./support/suite";
import { pulumiWheels } from "./support/wheels";

type Language = "python" | "yaml" | "go";

/** The release's wheel of the Python SDK. */
const WHEEL = `pulumi_vendor_container-${VERSION}-py3-none-any.whl`;
/** The release's zip of the Go SDK module, below its GOPROXY layout. */
const GO_ZIP = path.join(GO_SDK_MODULE, "@v", `v${VERSION}.zip`);

const sha256 = (file: string): string => createHash("sha256").update(fs.readFileSync(file)).digest("hex");
/** `go env <name>` of the Go on the test's PATH. */
const goEnv = (name: string): string => execFileSync("go", ["env", name], { encoding: "utf8" }).trim();

/**
 * A folder of links to what the CLI's runs of `language` start, and nothing else: their PATH. `pulumi` and the
 * language host (the CLI takes the one on PATH first; the Python host finds its `-exec` script beside its own
 * file); for Python, `python3`, with which the Python host makes the project's virtualenv (the interpreter the
 * engine's virtualenv was made from); for Go, `go`, which the Go host runs for `go mod tidy` and `go build`.
 * Nothing else is started (an `strace -f -e trace=execve` of each run lists nothing more): no `git`, since a
 * local template is copied; pip's probes of `uname` and `lsb_release` for its user agent find nothing, and pip
 * goes on without them.
 */
function userPath(language: Language, s: Suite): string {
  const dir = path.join(s.dir, "path");
  fs.mkdirSync(dir);
  const links: Record<string, string> = {
    pulumi: path.join(BIN, "pulumi"),
    [`pulumi-language-${language}`]: path.join(BIN, `pulumi-language-${language}`),
  };
  if (language === "python") {
    const base = execFileSync(PYTHON, ["-c", "import sys; print(sys._base_executable)"], {
      encoding: "utf8",
    });
    links.python3 = fs.realpathSync(base.trim());
  }
  if (language === "go") links.go = path.join(goEnv("GOROOT"), "bin", "go");
  for (const [name, target] of Object.entries(links)) fs.symlinkSync(target, path.join(dir, name));
  return dir;
}

/** Every file named `name` in the folders of `PATH`. */
const onPath = (PATH: string, name: string): string[] =>
  PATH.split(path.delimiter)
    .map((dir) => path.join(dir, name))
    .filter((file) => fs.existsSync(file));

/**
 * The folders of wheels for pip without an index (`PIP_FIND_LINKS`, space-separated): `pulumi` with its
 * dependencies (support/wheels.ts) and the release's `pulumi_vendor_container`, linked alone into a folder of the
 * suite's.
 */
function pythonWheels(s: Suite, releaseDir: string): string {
  const dir = path.join(s.dir, "wheels");
  fs.mkdirSync(dir);
  fs.symlinkSync(path.join(releaseDir, WHEEL), path.join(dir, WHEEL));
  return `${pulumiWheels()} ${dir}`;
}

/**
 * Removes the Go SDK at the release's version from Go's module cache, where an earlier run left it: `go` takes a
 * module version its cache holds from there and asks no proxy, so the project would build on that run's zip
 * rather than this release's. The rest of the cache stays (the Pulumi Go SDK the global setup compiled,
 * support/golang.ts). The module path is all lower case, which Go's cache spells as it is.
 */
function forgetCachedGoSdk(): void {
  const cache = goEnv("GOMODCACHE");
  const extracted = path.join(cache, `${GO_SDK_MODULE}@v${VERSION}`);
  // Go makes what it extracts read-only.
  if (fs.existsSync(extracted)) execFileSync("chmod", ["-R", "u+w", extracted]);
  fs.rmSync(extracted, { recursive: true, force: true });
  const downloads = path.join(cache, "cache/download", GO_SDK_MODULE, "@v");
  for (const name of fs.existsSync(downloads) ? fs.readdirSync(downloads) : [])
    if (name.startsWith(`v${VERSION}.`)) fs.rmSync(path.join(downloads, name));
}

/**
 * What the project's virtualenv holds of `pulumi_vendor_container`, as its Python reads it: the version, the
 * virtualenv and the folder in it that holds the package, its pulumi-plugin.json, and the files (with their
 * hashes) that the installed RECORD lists and the release wheel's RECORD does not, and the other way round.
 */
function installedPythonSdk(project: string, releaseDir: string): unknown {
  const script = [
    "import importlib.metadata as m, json, os, sys, zipfile",
    'dist = m.distribution("pulumi_vendor_container")',
    "wheel = zipfile.ZipFile(sys.argv[1])",
    'record = next(n for n in wheel.namelist() if n.endswith(".dist-info/RECORD"))',
    "def hashed(text):",
    '    rows = [line.split(",") for line in text.splitlines()]',
    "    return {(row[0], row[1]) for row in rows if len(row) > 1 and row[1]}",
    'installed, released = hashed(dist.read_text("RECORD")), hashed(wheel.read(record).decode())',
    "print(json.dumps({",
    '    "version": dist.version,',
    '    "prefix": sys.prefix,',
    '    "location": os.path.relpath(dist.locate_file("pulumi_vendor_container"), sys.prefix),',
    '    "plugin": json.loads(dist.locate_file("pulumi_vendor_container/pulumi-plugin.json").read_text()),',
    '    "onlyInWheel": sorted(name for name, _ in released - installed),',
    '    "onlyInstalled": sorted(name for name, _ in installed - released),',
    "}))",
  ].join("\n");
  const python = path.join(project, "bin", "python");
  return JSON.parse(execFileSync(python, ["-c", script, path.join(releaseDir, WHEEL)], { encoding: "utf8" }));
}

/**
 * The environment of the CLI's runs in the project of `language`, over the suite's: the PATH of `userPath`, and
 * where each language's package manager finds the release's SDK. Returns that of `pulumi new` and that of the
 * later runs.
 */
function userEnvironment(
  language: Language,
  s: Suite,
  releaseDir: string,
  bin: string,
  project: string,
): { newEnv: Record<string, string>; runEnv: Record<string, string> } {
  const env: Record<string, string> = { PATH: bin };
  if (language === "python") {
    // `python3` from PATH makes the virtualenv, as on a user's machine: the suite's PULUMI_PYTHON_CMD (the
    // engine's virtualenv) empty, which the Python host takes as unset.
    const newEnv = {
      ...env,
      PULUMI_PYTHON_CMD: "",
      PIP_NO_INDEX: "1",
      PIP_FIND_LINKS: pythonWheels(s, releaseDir),
    };
    // The Python host scripts/engine.sh builds (sdk/v3 v3.68.0) takes `virtualenv` only as a flag, which today's
    // CLI no longer passes (it sends runtime options with each request): it makes the virtualenv in the project
    // folder itself, and runs programs with PULUMI_PYTHON_CMD. The CLI's runs after `pulumi new` use that
    // virtualenv's Python.
    return { newEnv, runEnv: { ...env, PULUMI_PYTHON_CMD: path.join(project, "bin", "python") } };
  }
  if (language === "go") {
    forgetCachedGoSdk();
    // No GOFLAGS and no cgo setting: `go mod tidy` completes the go.mod, the project is outside any repository,
    // and with no C compiler on PATH `go` turns cgo off by itself (as GO_ENV does for the warm-up).
    Object.assign(env, {
      // The release's layout first, then the proxies the suite's `go` uses for every other module.
      GOPROXY: `file://${path.join(releaseDir, "go")},${goEnv("GOPROXY")}`,
      // The checksum database knows no version of the SDK (its lookup answers 404 Not Found), and `go` refuses
      // a module it cannot verify. GONOSUMDB skips it for these modules only; GOSUMDB=off would skip it for every module. Not GOPRIVATE,
      // which implies GONOPROXY too and sends `go` to the module's repository instead of GOPROXY.
      GONOSUMDB: "github.com/vendor-container",
    });
  }
  return { newEnv: env, runEnv: env };
}

describe.each<Language>(["python", "yaml", "go"])("`pulumi new` from templates/kaas-%s", (language) => {
  let s: Suite;
  let releaseDir: string;
  let bin: string;
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
    releaseDir = await release();
    s = await openSuite(`template-${language}`);
    bin = userPath(language, s);
    fresh = fs.mkdtempSync(path.join(os.tmpdir(), `vendor-container-${language}-`));
    project = path.join(fresh, "my-clusters");
  });
  afterAll(async () => {
    await s?.close();
    if (fresh && !process.env.E2E_KEEP) fs.rmSync(fresh, { recursive: true, force: true });
  });

  it("installs the release's plugin archive with `pulumi plugin install --file`, on a PATH with no node and no npm", async () => {
    expect({ node: onPath(bin, "node"), npm: onPath(bin, "npm") }).toEqual({ node: [], npm: [] });
    const args = ["plugin", "install", "resource", "vendor-container", VERSION];
    const installed = await s.cli([...args, "--file", path.join(releaseDir, archiveName())], s.dir, {
      env: { PATH: bin },
    }).done;
    expect(installed).toEqual({
      code: 0,
      signal: null,
      output: `[resource plugin vendor-container-${VERSION}] installing\n`,
    });
    // The archive's single executable, not a script that starts Node.js.
    const plugin = path.join(
      s.env.PULUMI_HOME,
      "plugins",
      `resource-vendor-container-v${VERSION}`,
      "pulumi-resource-vendor-container",
    );
    expect(fs.readFileSync(plugin).subarray(0, 4)).toEqual(Buffer.from("\x7fELF", "latin1"));
  });

  it("makes a project with the template's files and the stack config, its dependencies installed from the release", async () => {
    const { newEnv, runEnv } = userEnvironment(language, s, releaseDir, bin, project);
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
        // The virtualenv, in the project folder itself (see userEnvironment).
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
    if (language === "python") {
      expect(installedPythonSdk(project, releaseDir)).toEqual({
        version: VERSION,
        prefix: project,
        location: expect.stringMatching(/^lib\/python3\.\d+\/site-packages\/pulumi_vendor_container$/),
        // What the Python host reports to the engine as the plugin the program needs.
        plugin: {
          resource: true,
          name: "vendor-container",
          version: VERSION,
          server: "https://github.com/vendor-container/pulumi-vendor-container/releases/download/v${VERSION}",
        },
        // Every file of the wheel as the wheel holds it; pip adds only its own two records.
        onlyInWheel: [],
        onlyInstalled: [
          `pulumi_vendor_container-${VERSION}.dist-info/INSTALLER`,
          `pulumi_vendor_container-${VERSION}.dist-info/REQUESTED`,
        ],
      });
    }
    if (language === "go") {
      const goMod = fs.readFileSync(path.join(project, "go.mod"), "utf8");
      expect(goMod).toMatch(/^module my-clusters\n/);
      expect(goMod).not.toContain("replace");
      // `go mod tidy` downloaded the release's zip into the module cache (forgetCachedGoSdk emptied its place) and
      // recorded its hash in go.sum.
      const cached = path.join(goEnv("GOMODCACHE"), "cache/download", GO_ZIP);
      expect(sha256(cached)).toBe(sha256(path.join(releaseDir, "go", GO_ZIP)));
      const hash = fs.readFileSync(cached.replace(/\.zip$/, ".ziphash"), "utf8").trim();
      expect(fs.readFileSync(path.join(project, "go.sum"), "utf8")).toContain(
        `\n${GO_SDK_MODULE} v${VERSION} ${hash}\n`,
      );
    }
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
