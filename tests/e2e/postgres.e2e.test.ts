/**
 * The state of `examples/environments` shared on PostgreSQL, as a team shares it between CI jobs and people:
 * a real server (`scripts/postgres.sh`) and the engine in `.tools` with `PULUMI_BACKEND_URL=postgres://...`.
 * `pulumi login postgres://...` creates the state table; two environments come up at the same time from two
 * processes; the application stacks read their platform through a stack reference stored in the database; a
 * second `pulumi up` of a stack while an update holds its lock is refused and changes nothing; the lock of a
 * killed run stays until `pulumi cancel` removes it, after which the same `pulumi up` finishes the update; both
 * environments are destroyed at the same time, leaving no stack in the database and an empty emulator.
 *
 * Then the same server goes away during a create: it stops while `pulumi up` creates two clusters, and stays
 * down until the CLI gives up saving the state (`failed to save snapshot`). The clusters exist in the service,
 * the state holds neither. After the server is back, `pulumi cancel` and the same `pulumi up` track exactly the
 * two clusters the program declares, with no second create request, and the next preview shows no change. The
 * lookup that finds them depends on how the service reads filters: here under the emulator's strictest readings
 * (published interface only: filters refused, so the lookup reads the whole list); a lookup after a lost state
 * write under every filter reading is the integration projects'
 * (tests/integration/filter-readings-provider.test.ts). Last, the server is stopped and its folder removed.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { STRICT_WIRE } from "../../emulator";
import type { KaasResponse } from "../../schemas";
import { escapeRegExp as literal } from "../support/expressions";
import { BIN } from "./support/engine";
import {
  copyEnvironmentsExample,
  environmentsCommand,
  exampleStack,
  runCommand,
} from "./support/environments";
import { startPostgres, type PostgresServer } from "./support/postgres";
import { killWhen, waitFor } from "./support/processes";
import { cluster } from "./support/args";
import {
  POLL_MS,
  PROJECT,
  TOKEN,
  openSuite,
  trackedOf,
  values,
  type CliRun,
  type Suite,
} from "./support/suite";

/** How long a cluster update takes while a run holds the lock: far longer than the test, until the clock moves. */
const LONG_MS = 10 * 60 * 1000;
const PLATFORM = "vendor-environments-platform";
const APP = "vendor-environments-app";
/** The stack files of the database: the DIY backend's keys, below the database name as a prefix. */
const STACK_KEYS =
  "select key from pulumi_state where key like 'state/.pulumi/stacks/%' and key not like '%.bak' order by key";
const LOCK_KEYS = "select key from pulumi_state where key like 'state/.pulumi/locks/%' order by key";
/** Long enough for the CLI to give up saving the state: it retries for about a minute. */
const CLI_GIVES_UP_MS = 5 * 60 * 1000;

let s: Suite;
let pg: PostgresServer;
/** The example's copy, where its stacks' config files go. */
let example: string;
let platformDir: string;

beforeAll(async () => {
  s = await openSuite("postgres");
  pg = startPostgres();
  // Every CLI run of this file, the example's included, uses the database (the suite's file backend stays
  // empty), and the provider reads the service settings from the environment, as the example documents.
  Object.assign(s.env, {
    PULUMI_BACKEND_URL: pg.url,
    VENDOR_BASE_URL: s.emulator.url,
    VENDOR_PROJECT_ID: PROJECT,
    VENDOR_TOKEN: TOKEN,
    VENDOR_POLL_INTERVAL_MS: POLL_MS,
  });
  example = copyEnvironmentsExample(s);
  platformDir = path.join(example, "platform");
});
afterAll(async () => {
  pg?.stop();
  await s?.close();
});

/** Runs `command` with `args` as a user does, in the suite's environment; resolves once it exits. */
const run = (command: string, args: string[], cwd: string, env?: Record<string, string>) =>
  runCommand(s, command, args, cwd, env);

/** The example's command line, built with its own tsconfig, run with Node 22. */
const environments = (...args: string[]) => environmentsCommand(s, example)(...args);

/** The lines of `environments up` and `destroy` that sum each stack up. */
const summaries = (stdout: string) =>
  stdout.split("\n").filter((line) => /^[\w-]+: (platform|app): /.test(line));

/** A stack of the example, opened through the Automation API (to read outputs with their secret marks). */
const stackOf = (program: "platform" | "app", env: string) => exampleStack(s, example, program, env);

/** The live clusters of the emulator: name, id and Kubernetes version. */
const clusters = () =>
  (s.emulator.emulator.state().kaas as KaasResponse[])
    .filter((k) => k.status?.state !== "Deleted")
    .map((k) => `${k.metadata.name} ${k.metadata.id} ${k.properties.kubernetesVersion?.value ?? ""}`)
    .sort();

/** `pulumi up` of the platform stack `env`, as the CI sample runs it. */
const platformUp = (env: string): CliRun =>
  s.cli(["up", "--yes", "--skip-preview", "--stack", env], platformDir, { detached: true });

/**
 * What the CLI prints when a run finds the stack locked in the database (checked against v3.274.1): the lock's
 * key as a URL, the user and password masked, and who holds it.
 */
const lockedBy = (key: string, pid: number) =>
  new RegExp(
    "^error: the stack is currently locked by 1 lock\\(s\\)\\. Either wait for the other process\\(es\\) to end " +
      "or delete the lock file with `pulumi cancel`\\.\n" +
      `  ${literal(pg.url.replace("pulumi@", "****:****@").replace("/state?", `/${key}?`))}: ` +
      `created by ${literal(os.userInfo().username)}@${literal(os.hostname())} \\(pid ${pid}\\) ` +
      "at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(Z|[+-]\\d\\d:\\d\\d)\n$",
  );

it("logs in with pulumi login postgres://..., which creates the state table", async () => {
  // A home of its own: the login is recorded there, and PULUMI_BACKEND_URL would override it.
  const env: Record<string, string> = { ...s.env, PULUMI_HOME: path.join(s.dir, "login-home") };
  delete env.PULUMI_BACKEND_URL;
  const pulumi = (...args: string[]) =>
    run(path.join(BIN, "pulumi"), [...args, "--non-interactive"], platformDir, env);
  const login = await pulumi("login", pg.url);
  expect(login).toEqual({
    code: 0,
    stdout: `Logged in to ${os.hostname()} as ${os.userInfo().username} (${pg.url})\n`,
    stderr: "",
  });
  expect((await pulumi("whoami", "--verbose")).stdout).toContain(`Backend URL: ${pg.url}\n`);
  // The CLI creates its table on first use. Two first uses at the same time may both try to, and one then fails
  // (`duplicate key value violates unique constraint "pg_type_typname_nsp_index"`): log in once first.
  expect(pg.sql("select key from pulumi_state")).toEqual(["state/.pulumi/meta.yaml"]);
});

it("brings two environments up at the same time from two processes, their stacks in the database", async () => {
  const runs = await Promise.all([environments("up", "dev"), environments("up", "pr-7")]);
  expect(runs.map((r) => ({ code: r.code, stderr: r.stderr }))).toEqual([
    { code: 0, stderr: "" },
    { code: 0, stderr: "" },
  ]);
  expect(runs.map((r) => summaries(r.stdout))).toEqual([
    ["dev: platform: 3 create", "dev: app: 2 create"],
    ["pr-7: platform: 3 create", "pr-7: app: 2 create"],
  ]);
  // At the same time: both clusters were requested before either application stack made its backup.
  const calls = s.mutations();
  const firstBackup = calls.findIndex((call) => /^POST \/kaas\/[^/]+\/backups$/.test(call));
  expect(calls.slice(0, firstBackup).filter((call) => call === "POST /kaas")).toHaveLength(2);
  expect(clusters()).toEqual([
    expect.stringMatching(/^dev-cluster kaas-\d+ 1\.32\.5$/),
    expect.stringMatching(/^pr-7-cluster kaas-\d+ 1\.32\.5$/),
  ]);
  expect(pg.sql(STACK_KEYS)).toEqual([
    `state/.pulumi/stacks/${APP}/dev.json`,
    `state/.pulumi/stacks/${APP}/pr-7.json`,
    `state/.pulumi/stacks/${PLATFORM}/dev.json`,
    `state/.pulumi/stacks/${PLATFORM}/pr-7.json`,
  ]);
  expect(pg.sql(LOCK_KEYS)).toEqual([]);
  expect(fs.readdirSync(path.join(s.dir, "backend"))).toEqual([]);
  // The list reads both from the database, from a third process.
  const list = await environments("list", "--json");
  expect(list.code).toBe(0);
  expect((JSON.parse(list.stdout) as { environment: string }[]).map((e) => e.environment)).toEqual([
    "dev",
    "pr-7",
  ]);
});

it("reads the platform's outputs through a stack reference stored in the database, the kubeconfig a secret", async () => {
  for (const env of ["dev", "pr-7"]) {
    const platform = await (await stackOf("platform", env)).outputs();
    const app = await (await stackOf("app", env)).outputs();
    expect(app.kubeconfig).toEqual({ value: platform.kubeconfig.value, secret: true });
    expect(values(app)).toEqual({
      kubeconfig: platform.kubeconfig.value,
      clusterName: `${env}-cluster`,
      clusterState: "Active",
      kubernetesVersion: "1.32.5",
      registryUrl: platform.registryUrl.value,
      backupId: expect.stringMatching(/^backup-/),
    });
  }
});

describe("the lock of a stack in the database", () => {
  let first: CliRun;
  let lockKey: string;
  let devId: string;

  it("refuses a second pulumi up while an update holds the lock, and changes nothing", async () => {
    devId = clusters()[0].split(" ")[1];
    const config = await s.cli(
      ["config", "set", "kubernetesVersion", "1.33.2", "--stack", "dev"],
      platformDir,
    ).done;
    expect(config.code).toBe(0);
    s.emulator.emulator.updateConfig({ durations: { kaasUpdateMs: LONG_MS } });
    s.clearRequests();
    first = platformUp("dev");
    let exited = false;
    void first.done.then(() => (exited = true));
    const updating = () =>
      s
        .requests()
        .some((r) => r.method === "PUT" && r.path.endsWith(`/kaas/${devId}`) && (r.status ?? 0) < 300);
    await waitFor("the update's PUT to be answered", updating, () => exited);
    const locks = pg.sql(LOCK_KEYS);
    expect(locks).toEqual([
      expect.stringMatching(
        new RegExp(`^state/\\.pulumi/locks/organization/${PLATFORM}/dev/[0-9a-f-]{36}\\.json$`),
      ),
    ]);
    lockKey = locks[0];
    const stateBefore = pg.sql(
      `select data from pulumi_state where key = 'state/.pulumi/stacks/${PLATFORM}/dev.json'`,
    );
    s.clearRequests();

    const second = await platformUp("dev").done;
    expect(second.code).toBe(1);
    expect(second.output).toMatch(lockedBy(lockKey, first.child.pid!));
    expect(s.mutations()).toEqual([]);
    expect(pg.sql(LOCK_KEYS)).toEqual([lockKey]);
    expect(
      pg.sql(`select data from pulumi_state where key = 'state/.pulumi/stacks/${PLATFORM}/dev.json'`),
    ).toEqual(stateBefore);
    expect(exited).toBe(false);
  });

  it("keeps a killed run's lock until pulumi cancel removes it; then the same pulumi up finishes the update", async () => {
    const killed = await killWhen(first, () => true, "the update to run");
    expect(killed.result.signal).toBe("SIGKILL");
    expect(pg.sql(LOCK_KEYS)).toEqual([lockKey]);
    const refused = await platformUp("dev").done;
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(lockedBy(lockKey, first.child.pid!));

    const cancel = await s.cli(["cancel", "--yes", "--stack", "dev"], platformDir).done;
    expect(cancel).toEqual({
      code: 0,
      signal: null,
      output: "The currently running update for 'dev' has been canceled!\n",
    });
    expect(pg.sql(LOCK_KEYS)).toEqual([]);

    // The service finishes the update the killed run asked for.
    s.emulator.emulator.updateConfig({ durations: { kaasUpdateMs: 400 } });
    s.emulator.emulator.advanceClock(LONG_MS);
    s.clearRequests();
    const again = await platformUp("dev").done;
    expect(again.code).toBe(0);
    expect(again.output).toContain("Resources:\n    ~ 1 updated\n    2 unchanged\n");
    // The killed run's request was carried out: the cluster already runs 1.33.2, so the update only records it.
    expect(s.mutations()).toEqual([]);
    expect(clusters()).toEqual([`dev-cluster ${devId} 1.33.2`, expect.stringMatching(/^pr-7-cluster /)]);
    expect(pg.sql(LOCK_KEYS)).toEqual([]);
    expect(values(await (await stackOf("platform", "dev")).outputs()).kubernetesVersion).toBe("1.33.2");
  });
});

it("destroys both environments at the same time, leaving no stack in the database and an empty emulator", async () => {
  const runs = await Promise.all([environments("destroy", "dev"), environments("destroy", "pr-7")]);
  expect(runs.map((r) => ({ code: r.code, stderr: r.stderr }))).toEqual([
    { code: 0, stderr: "" },
    { code: 0, stderr: "" },
  ]);
  expect(runs.map((r) => summaries(r.stdout))).toEqual([
    ["dev: app: 2 delete, 1 discard", "dev: platform: 3 delete"],
    ["pr-7: app: 2 delete, 1 discard", "pr-7: platform: 3 delete"],
  ]);
  expect(pg.sql(STACK_KEYS)).toEqual([]);
  expect(pg.sql(LOCK_KEYS)).toEqual([]);
  s.emulator.emulator.advanceClock(60_000);
  const state = s.emulator.emulator.state();
  const live = (list: { status?: { state?: string | null } | null }[]) =>
    list.filter((o) => o.status?.state !== "Deleted").length;
  expect({
    kaas: live(state.kaas),
    backups: live(state.backups),
    registries: live(state.registries),
  }).toEqual({
    kaas: 0,
    backups: 0,
    registries: 0,
  });
});

describe("the state backend down during a create, published interface only", () => {
  const kaasPath = `/projects/${PROJECT}/providers/Vendor.Container/kaas`;
  const posts = () => s.requests().filter((r) => r.method === "POST" && r.path === kaasPath);
  /** The clusters the service holds that are not deleted: name -> id. */
  const live = () =>
    Object.fromEntries(
      s.emulator.emulator
        .state()
        .kaas.filter((k) => k.status?.state !== "Deleted")
        .map((k) => [k.metadata.name ?? "", k.metadata.id]),
    );

  it("down until the CLI gives up, then cancel and up: the two declared clusters, tracked, no second create", async () => {
    s.emulator.emulator.updateConfig({ wire: STRICT_WIRE });
    const dir = s.program("pg-outage");
    const stack = await s.stack("outage", dir);
    const declared = [
      cluster({}, "first"),
      cluster({ nodeCidr: { address: "10.21.0.0/16", name: "second-nodes" } }, "second"),
    ];
    await s.declare(stack, declared);
    s.clearRequests();
    // Provisioning outlasts the moment the server stops, so both creates return while it is down.
    s.emulator.emulator.updateConfig({ durations: { kaasCreateMs: 3000 } });

    const run = s.cli(["up", "--yes", "--skip-preview", "--stack", "outage"], dir);
    await waitFor("both create requests", () => posts().filter((r) => (r.status ?? 0) < 300).length === 2);
    pg.pause();
    let timer: NodeJS.Timeout | undefined;
    const failed = await Promise.race([
      run.done,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("the CLI never gave up")), CLI_GIVES_UP_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    pg.resume();
    expect(failed.code).not.toBe(0);
    expect(failed.output).toContain("failed to save snapshot");
    const created = live();
    expect(Object.keys(created).sort()).toEqual(["e2e-first", "e2e-second"]);

    const cancel = await s.cli(["cancel", "--yes", "--stack", "outage"], dir).done;
    expect(cancel.code).toBe(0);
    await stack.up();
    expect(await trackedOf(stack)).toEqual({ first: created["e2e-first"], second: created["e2e-second"] });
    expect(posts()).toHaveLength(2);
    expect(live()).toEqual(created);
    await stack.preview({ expectNoChanges: true });

    await stack.destroy();
    expect(live()).toEqual({});
  });
});

it("stops the server and removes its folder", async () => {
  const port = Number(new URL(pg.url).port);
  pg.stop();
  expect(fs.existsSync(pg.dir)).toBe(false);
  const refused = await new Promise<string>((resolve) =>
    net
      .connect(port, "127.0.0.1")
      .on("connect", function (this: net.Socket) {
        this.destroy();
        resolve("connected");
      })
      .on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error")),
  );
  expect(refused).toBe("ECONNREFUSED");
});
