/**
 * `examples/environments` as a platform team runs it: its command line built with the example's own tsconfig
 * and run with Node, through the engine in `.tools` (`--pulumi-root`), against this file's emulator. Three
 * environments come up at the same time from one program, each with its preset; the application stacks read
 * their platform through a stack reference, the kubeconfig still a secret, which the command writes to a file
 * for its owner; one environment is updated and nothing else changes; the environments are listed with their
 * state and outputs; a destroy of the protected prod without `--force` is refused and changes nothing; all three
 * are destroyed, leaving no stack and an empty emulator. What the command decides without the engine (its
 * command line, an environment named twice, the line a failed run prints, the file's mode) is
 * tests/unit/environments-cli.test.ts's and environments-example.test.ts's.
 */
import fs from "node:fs";
import path from "node:path";
import type { KaasResponse } from "../../schemas";
import { copyEnvironmentsExample, environmentsCommand, exampleStack } from "./support/environments";
import { E2E_DURATIONS, POLL_MS, PROJECT, TOKEN, openSuite, values, type Suite } from "./support/suite";

const ENVS = ["dev", "staging", "prod"];

let s: Suite;
/** The example's copy, where its stacks' config files go. */
let example: string;

beforeAll(async () => {
  // A cluster takes 4 s to create here: the environments start at the same time, but on a busy machine the
  // last one's first request can come a few seconds after the first one's, later than the suite's 0.6 s create.
  s = await openSuite("environments", { durations: { ...E2E_DURATIONS, kaasCreateMs: 4000 } });
  example = copyEnvironmentsExample(s);
});
afterAll(async () => {
  await s?.close();
});

/** Runs the example's command line as a user does: Node, the service settings in the environment. */
const environments = (...args: string[]) =>
  environmentsCommand(s, example, () => ({
    ...s.env,
    VENDOR_BASE_URL: s.emulator.url,
    VENDOR_PROJECT_ID: PROJECT,
    VENDOR_TOKEN: TOKEN,
    VENDOR_POLL_INTERVAL_MS: POLL_MS,
  }))(...args);

/** `list --json`, parsed. */
async function listed(): Promise<
  { environment: string; protected: boolean; platform: Listing; app: Listing | null }[]
> {
  const run = await environments("list", "--json");
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(run.stdout);
}
interface Listing {
  resources: number | null;
  lastUpdate: string | null;
  updateInProgress: boolean;
  outputs: Record<string, unknown>;
}

/** A stack of the example, opened through the Automation API (to read outputs with their secret marks). */
const stackOf = (program: "platform" | "app", env: string) => exampleStack(s, example, program, env);

/** The state of a stack as `pulumi stack export` writes it (secrets encrypted). */
async function exported(program: "platform" | "app", env: string): Promise<string> {
  const { code, output } = await s.cli(["stack", "export", "--stack", env], path.join(example, program)).done;
  if (code !== 0) throw new Error(`pulumi stack export failed: ${output}`);
  return output;
}

/** The live clusters of the emulator by name: HA and pool sizes. */
function clusters(): Record<string, { id: string; ha: boolean; version: string; pools: string[] }> {
  return Object.fromEntries(
    (s.emulator.emulator.state().kaas as KaasResponse[])
      .filter((k) => k.status?.state !== "Deleted")
      .map((k) => [
        k.metadata.name,
        {
          id: k.metadata.id,
          ha: k.properties.ha ?? false,
          version: k.properties.kubernetesVersion?.value ?? "",
          pools: (k.properties.nodePools ?? []).map((p) => `${p.name}=${p.nodes}`),
        },
      ]),
  );
}

const LIVE = (list: { status?: { state?: string | null } | null; metadata: { name?: string | null } }[]) =>
  list
    .filter((o) => o.status?.state !== "Deleted")
    .map((o) => o.metadata.name)
    .sort();

it("brings dev, staging and prod up at the same time from one program, each with its preset", async () => {
  const run = await environments("up", ...ENVS);
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  expect(
    run.stdout
      .split("\n")
      .filter((line) => /^\w+: (platform|app): /.test(line))
      .sort(),
  ).toEqual([
    "dev: app: 2 create",
    "dev: platform: 3 create",
    "prod: app: 2 create",
    "prod: platform: 4 create",
    "staging: app: 2 create",
    "staging: platform: 3 create",
  ]);
  expect(clusters()).toEqual({
    "dev-cluster": { id: expect.any(String), ha: false, version: "1.32.5", pools: ["system=1"] },
    "staging-cluster": {
      id: expect.any(String),
      ha: false,
      version: "1.32.5",
      pools: ["system=2", "workers=2"],
    },
    "prod-cluster": { id: expect.any(String), ha: true, version: "1.32.5", pools: ["system=3", "workers=3"] },
  });
  const state = s.emulator.emulator.state();
  expect(LIVE(state.registries)).toEqual(["dev-images", "prod-images", "staging-images"]);
  // prod's platform keeps its own backup of the cluster (the policy pack's kaas-backup-required).
  expect(LIVE(state.backups)).toEqual(["dev-app-data", "prod-app-data", "prod-platform", "staging-app-data"]);
  // At the same time: every cluster was requested before any environment had finished its platform (a backup
  // waits for its cluster: prod's platform creates one once its cluster is up, each application stack another).
  const calls = s.mutations();
  const lastClusterCreate = calls.lastIndexOf("POST /kaas");
  const firstBackupCreate = calls.findIndex((call) => /^POST \/kaas\/[^/]+\/backups$/.test(call));
  expect(calls.filter((call) => call === "POST /kaas")).toHaveLength(3);
  expect(lastClusterCreate).toBeLessThan(firstBackupCreate);
  // Only prod's cluster carries Pulumi's protect option.
  const protectedKinds = async (env: string) =>
    (
      JSON.parse(await exported("platform", env)).deployment.resources as {
        type: string;
        protect?: boolean;
      }[]
    )
      .filter((r) => r.protect)
      .map((r) => r.type);
  expect(await protectedKinds("prod")).toEqual(["pulumi-nodejs:dynamic/vendor-container:Kaas"]);
  expect(await protectedKinds("dev")).toEqual([]);
});

it("reads the platform through a stack reference in the application stack, the kubeconfig still a secret, and writes it to a file for its owner", async () => {
  const platform = await (await stackOf("platform", "dev")).outputs();
  const app = await (await stackOf("app", "dev")).outputs();
  const kaasId = platform.kaasId.value as string;
  expect(app.kubeconfig).toEqual({ value: platform.kubeconfig.value, secret: true });
  expect(app.kubeconfig.value).toContain(s.emulator.emulator.kubeconfigToken(kaasId));
  expect(values(app).clusterName).toBe("dev-cluster");
  // The command writes that kubeconfig for its owner only (whatever a file there allowed before:
  // tests/unit/environments-example.test.ts, writeOwnerOnly).
  const file = path.join(s.dir, "dev.kubeconfig");
  const run = await environments("kubeconfig", "dev", "--out", file);
  expect(run).toEqual({ code: 0, stdout: `dev: kubeconfig written to ${file} (mode 600)\n`, stderr: "" });
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(fs.readFileSync(file, "utf8")).toBe(platform.kubeconfig.value);
  // Neither state holds the kubeconfig's credential or the API token in plain text, nor did any output.
  const secrets = [s.emulator.emulator.kubeconfigToken(kaasId), TOKEN];
  const places = {
    platformState: await exported("platform", "dev"),
    appState: await exported("app", "dev"),
    output: s.cliOutput.join("\n"),
  };
  expect(
    Object.entries(places).flatMap(([where, text]) =>
      secrets.filter((x) => text.includes(x)).map(() => where),
    ),
  ).toEqual([]);
});

it("updates one environment with a setting kept in its stack config, and changes nothing else", async () => {
  const devId = clusters()["dev-cluster"].id;
  s.clearRequests();
  const run = await environments("up", "dev", "--set", "kubernetesVersion=1.33.2");
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  expect(run.stdout.split("\n").filter((line) => /^dev: (platform|app): /.test(line))).toEqual([
    "dev: platform: 2 same, 1 update",
    "dev: app: 1 read, 2 same",
  ]);
  expect(s.mutations()).toEqual([`PUT /kaas/${devId}`]);
  expect(fs.readFileSync(path.join(example, "platform/Pulumi.dev.yaml"), "utf8")).toContain(
    "kubernetesVersion: 1.33.2",
  );
});

it("lists the environments with their state and outputs, secrets masked: dev's new version in both its stacks", async () => {
  const ids = Object.fromEntries(Object.entries(clusters()).map(([name, c]) => [name, c.id]));
  const environments = await listed();
  expect(environments.map((e) => [e.environment, e.protected])).toEqual([
    ["dev", false],
    ["prod", true],
    ["staging", false],
  ]);
  for (const e of environments) {
    const { platform, app } = e;
    const kubernetesVersion = e.environment === "dev" ? "1.33.2" : "1.32.5";
    // Each stack counts itself, the default provider of its dynamic resources and the engine's builtin provider
    // (`pulumi:providers:pulumi default`), which the program's read of its own state through an invoke brings
    // in; the application's also counts its stack reference, which uses that same builtin provider, and prod's
    // platform its backup.
    expect(platform).toEqual({
      resources: e.environment === "prod" ? 6 : 5,
      lastUpdate: expect.any(String),
      updateInProgress: false,
      outputs: {
        preset: { dev: "small", staging: "medium", prod: "ha" }[e.environment],
        protectedEnvironment: e.protected,
        location: "ITBG-Bergamo",
        kaasId: ids[`${e.environment}-cluster`],
        kubeconfig: "[secret]",
        clusterState: "Active",
        kubernetesVersion,
        ha: e.environment === "prod",
        nodePools: clusters()[`${e.environment}-cluster`].pools,
        registryId: expect.stringMatching(/^registry-/),
        registryUrl: expect.stringMatching(new RegExp(`^https://${e.environment}-images-registry-`)),
      },
    });
    expect(app).toEqual({
      resources: 5,
      lastUpdate: expect.any(String),
      updateInProgress: false,
      outputs: {
        kubeconfig: "[secret]",
        clusterName: `${e.environment}-cluster`,
        clusterState: "Active",
        kubernetesVersion,
        registryUrl: platform.outputs.registryUrl,
        backupId: expect.stringMatching(/^backup-/),
      },
    });
  }
});

it("refuses to destroy the protected prod without --force, and changes nothing", async () => {
  const before = { platform: await exported("platform", "prod"), app: await exported("app", "prod") };
  s.clearRequests();
  const run = await environments("destroy", "prod");
  expect(run).toEqual({
    code: 1,
    stdout: "",
    stderr:
      "error: prod is protected (its cluster carries Pulumi's protect option): nothing was destroyed. " +
      'Run "destroy prod --force" to destroy it.\n',
  });
  expect(s.requests()).toEqual([]);
  expect({ platform: await exported("platform", "prod"), app: await exported("app", "prod") }).toEqual(
    before,
  );
  expect(Object.keys(clusters()).sort()).toEqual(["dev-cluster", "prod-cluster", "staging-cluster"]);
});

it("destroys all three at once, prod with --force, leaving no stack and an empty emulator", async () => {
  const runs = await Promise.all([
    environments("destroy", "dev"),
    environments("destroy", "staging"),
    environments("destroy", "prod", "--force"),
  ]);
  expect(runs.map((r) => ({ code: r.code, stderr: r.stderr }))).toEqual(
    ENVS.map(() => ({ code: 0, stderr: "" })),
  );
  expect(runs.map((r) => r.stdout.split("\n").filter((line) => /^\w+: /.test(line)))).toEqual([
    ["dev: app: 2 delete, 1 discard", "dev: platform: 3 delete", "dev: destroyed, stacks removed"],
    [
      "staging: app: 2 delete, 1 discard",
      "staging: platform: 3 delete",
      "staging: destroyed, stacks removed",
    ],
    [
      "prod: app: 2 delete, 1 discard",
      "prod: removing the protect option of 1 resource(s) (--force)",
      "prod: platform: 4 delete",
      "prod: destroyed, stacks removed",
    ],
  ]);
  expect(await listed()).toEqual([]);
  for (const program of ["platform", "app"]) {
    expect(fs.readdirSync(path.join(example, program)).filter((f) => /^Pulumi\..+\.yaml$/.test(f))).toEqual(
      [],
    );
  }
  s.emulator.emulator.advanceClock(60_000);
  const state = s.emulator.emulator.state();
  expect({
    kaas: LIVE(state.kaas),
    backups: LIVE(state.backups),
    registries: LIVE(state.registries),
  }).toEqual({
    kaas: [],
    backups: [],
    registries: [],
  });
});
