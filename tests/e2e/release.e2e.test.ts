/**
 * The provider plugin as a release ships it (`npm run release`, scripts/release/plugin.mjs): the archive for
 * this machine, a single executable, through the real engine with no Node.js on PATH, as a Python, YAML or Go
 * user without npm gets it: installed with `pulumi plugin install --file`, then a YAML program's `up` and
 * `destroy` against the emulator; and downloaded by the engine itself from a program's `pluginDownloadURL`.
 * Each run has a fresh `PULUMI_HOME`, so no plugin of an earlier run is in its cache.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { cluster, registry } from "./support/args";
import { BIN } from "./support/engine";
import { VERSION, archiveName, release } from "./support/release";
import { POLL_MS, PROJECT, TOKEN, openSuite, type Suite } from "./support/suite";

const ARCHIVE = archiveName();
let RELEASE: string;

/** A folder holding links to `pulumi` and the YAML language host only: the PATH of every run here. */
function onlyEngine(s: Suite): string {
  const dir = path.join(s.dir, "path");
  fs.mkdirSync(dir);
  for (const tool of ["pulumi", "pulumi-language-yaml"])
    fs.symlinkSync(path.join(BIN, tool), path.join(dir, tool));
  return dir;
}

/**
 * A YAML program named `project`: a cluster, a backup of it and a registry on the plugin, each with `options`
 * (the plugin's version and where to download it, for the engine to fetch it).
 */
function program(s: Suite, project: string, options: Record<string, unknown> = {}): string {
  const dir = path.join(s.dir, "programs", project);
  fs.mkdirSync(dir, { recursive: true });
  const resource = (kind: string, properties: Record<string, unknown>) => ({
    type: `vendor-container:index:${kind}`,
    properties,
    ...(Object.keys(options).length ? { options } : {}),
  });
  const yaml = {
    name: project,
    runtime: "yaml",
    resources: {
      cluster: resource("Kaas", cluster().args),
      nightly: resource("KaasBackup", {
        kaasId: "${cluster.kaasId}",
        name: "nightly",
        location: cluster().args.location,
        retentionDays: 7,
      }),
      images: resource("Registry", registry().args),
    },
    // An invoke loads the SDK's modules, which the plugin requires at the first one (plugin/functions.ts).
    variables: {
      info: {
        "fn::invoke": {
          function: "vendor-container:index:getKaas",
          arguments: { kaasId: "${cluster.kaasId}" },
          ...(Object.keys(options).length ? { options } : {}),
        },
      },
    },
    outputs: { clusterState: "${info.state}" },
  };
  // JSON, which YAML reads as it is, and which repeats the shared options rather than aliasing them.
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), JSON.stringify(yaml, null, 2));
  return dir;
}

/** Runs the CLI with `env` (over the suite's) in `dir` and returns what it printed; throws when it fails. */
async function cli(s: Suite, args: string[], dir: string, env: Record<string, string>): Promise<string> {
  const { code, output } = await s.cli(args, dir, { env }).done;
  if (code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${code}):\n${output}`);
  return output;
}

/** Makes the stack `dev` of the program in `dir` with the plugin's settings for the suite's emulator. */
async function newStack(s: Suite, dir: string, env: Record<string, string>): Promise<void> {
  await cli(s, ["stack", "init", "dev", "--secrets-provider", "passphrase"], dir, env);
  const settings = {
    "vendor-container:baseUrl": s.emulator.url,
    "vendor-container:projectId": PROJECT,
    "vendor-container:pollIntervalMs": POLL_MS,
  };
  for (const [key, value] of Object.entries(settings)) await cli(s, ["config", "set", key, value], dir, env);
  await cli(s, ["config", "set", "--secret", "vendor-container:token", TOKEN], dir, env);
}

/** The names of the objects of the emulator's state that are not deleted, by collection. */
function liveNames(s: Suite) {
  const state = s.emulator.emulator.state();
  const live = (
    objects: readonly { metadata: { name?: string | null }; status?: { state?: string | null } | null }[],
  ) => objects.filter((o) => o.status?.state !== "Deleted").map((o) => o.metadata.name);
  return { kaas: live(state.kaas), backups: live(state.backups), registries: live(state.registries) };
}

describe("the release's plugin archive", () => {
  let s: Suite;
  let bin: string;

  beforeAll(async () => {
    RELEASE = await release();
    s = await openSuite("release");
    bin = onlyEngine(s);
  });
  afterAll(() => s?.close());

  it("installed with `pulumi plugin install --file`, runs a YAML program's up and destroy with no Node.js on PATH", async () => {
    const env = { PATH: bin, PULUMI_HOME: path.join(s.dir, "home-file") };
    const installed = await cli(
      s,
      ["plugin", "install", "resource", "vendor-container", VERSION, "--file", path.join(RELEASE, ARCHIVE)],
      s.dir,
      env,
    );
    expect(installed).toBe(`[resource plugin vendor-container-${VERSION}] installing\n`);
    expect(
      fs.readdirSync(path.join(env.PULUMI_HOME, "plugins", `resource-vendor-container-v${VERSION}`)),
    ).toEqual(["pulumi-resource-vendor-container"]);
    const dir = program(s, "release-file");
    await newStack(s, dir, env);

    await cli(s, ["up", "--yes", "--skip-preview", "--stack", "dev"], dir, env);
    expect(liveNames(s)).toEqual({ kaas: ["e2e-cluster"], backups: ["nightly"], registries: ["e2e-images"] });
    expect(await cli(s, ["stack", "output", "clusterState", "--stack", "dev"], dir, env)).toBe("Active\n");

    await cli(s, ["destroy", "--yes", "--skip-preview", "--stack", "dev"], dir, env);
    expect(liveNames(s)).toEqual({ kaas: [], backups: [], registries: [] });
  });

  it("is downloaded by the engine from the program's pluginDownloadURL", async () => {
    const requested: string[] = [];
    // The engine refuses a download without Content-Length (docs/release.md).
    const server = http.createServer((request, response) => {
      requested.push(`${request.method} ${request.url}`);
      const file = path.join(RELEASE, path.basename(request.url ?? ""));
      if (!fs.existsSync(file)) return void response.writeHead(404).end();
      response.writeHead(200, { "Content-Length": fs.statSync(file).size });
      fs.createReadStream(file).pipe(response);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const env = {
        PATH: bin,
        PULUMI_HOME: path.join(s.dir, "home-download"),
        // The suite's runs never fetch a plugin; this one must.
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      };
      const dir = program(s, "release-download", {
        version: VERSION,
        pluginDownloadURL: `http://127.0.0.1:${port}/`,
      });
      await newStack(s, dir, env);

      await cli(s, ["up", "--yes", "--skip-preview", "--stack", "dev"], dir, env);
      expect(requested).toEqual([`GET /${ARCHIVE}`]);
      expect(liveNames(s)).toEqual({
        kaas: ["e2e-cluster"],
        backups: ["nightly"],
        registries: ["e2e-images"],
      });
    } finally {
      server.close();
    }
  });
});
