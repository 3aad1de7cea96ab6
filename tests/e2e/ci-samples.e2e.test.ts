/**
 * The CI samples of `examples/ci-pipeline` run as their CI would run them, so that neither can rot:
 * `workflow.yml` (GitHub Actions) and `gitlab-ci.yml` (GitLab CI) are parsed, the jobs an event starts are
 * chosen by their own `on:`, `if:` and `rules:`, and each job's commands run in order with bash, with the
 * variables, folders, matrix values and expressions the CI would give them, through the engine in `.tools/bin`
 * against this file's emulator. Each command runs once: GitHub's jobs run for every event, and GitLab's
 * scheduled pipeline then checks dev for drift; every other GitLab job runs the very commands of GitHub's job
 * for the same event, in the same folders, which its lines are held to. The Python variant
 * (`workflow-python.yml`) deploys the program in `python/` on the provider plugin through its Python SDK, to a
 * stack of its own (prod, the stack the policy pack's production rules apply to; dev's jobs are the same steps),
 * with both installed from the suite's release (support/release.ts); `release.yml` makes and publishes that
 * release on a tag push.
 *
 * What cannot run offline is stood in for, each with its reason in the job's result: the checkout and setup
 * actions, and the installs from the npm registry (the lockfiles those installs need are checked against their
 * package.json instead); for the Python variant, PyPI (pip installs from the release's wheel, with no index) and
 * the GitHub release (the job's `curl` fetches the archive from a loopback server); for the release workflow,
 * its build (the suite's release is copied in) and its uploads (recorded, not sent). The CLI install script
 * runs as written: it finds the pinned version already on PATH (the engine's), as it would on a runner image
 * that ships it.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { BIN, E2E_ROOT, PYTHON, ROOT, engineVersion } from "./support/engine";
import { VERSION, archiveName, release } from "./support/release";
import { PROJECT, POLL_MS, openSuite, type Suite } from "./support/suite";
import { CLIENT_ID, CLIENT_SECRET } from "../support/world";
import { pulumiPythonVersion, pulumiWheels } from "./support/wheels";
import {
  planGitHub,
  planGitLab,
  runJob,
  type GitHubEvent,
  type JobResult,
  type PlannedJob,
  type Substitutions,
} from "./support/ci-runner";

const SAMPLES = path.join(ROOT, "examples/ci-pipeline");
const WORKFLOW = path.join(SAMPLES, "workflow.yml");
const GITLAB = path.join(SAMPLES, "gitlab-ci.yml");
const PYTHON_WORKFLOW = path.join(SAMPLES, "workflow-python.yml");
const RELEASE_WORKFLOW = path.join(SAMPLES, "release.yml");
/** The folders whose dependencies the samples install with `npm ci`. */
const NPM_CI_FOLDERS = [".", "examples/ci-pipeline", "examples/environments"];
/** The Python variant's program. */
const PYTHON_FOLDER = "examples/ci-pipeline/python";
/** The folder where the Python variant's `up` job installs the policy pack with `npm ci`, and nothing else. */
const POLICY_PACK_FOLDER = `${PYTHON_FOLDER}/policy-pack`;

let s: Suite;
/**
 * A fresh copy of the repository's folders the samples use, for one job: as on a CI runner, every job starts
 * from a checkout, and nothing one job writes (stack files, node_modules, builds) reaches the next; what jobs
 * share is the backend. The committed stack files point at the real service; the copies at the emulator.
 */
function checkout(name: string): string {
  const workspace = path.join(s.dir, "checkouts", name);
  for (const example of ["ci-pipeline", "environments"]) {
    const source = path.join(ROOT, "examples", example);
    fs.cpSync(source, path.join(workspace, "examples", example), {
      recursive: true,
      // What installs, builds and runs leave in a folder is not part of the example.
      filter: (src) =>
        !/node_modules|^bin$|kubeconfig-|^(app|platform)\/Pulumi\.[^/]+\.yaml$/.test(
          path.relative(source, src),
        ),
    });
  }
  for (const [folder, key] of [
    ["examples/ci-pipeline", "vendor:baseUrl"],
    [PYTHON_FOLDER, "vendor-container:baseUrl"],
  ]) {
    for (const stack of ["dev", "prod"]) {
      const file = path.join(workspace, folder, `Pulumi.${stack}.yaml`);
      const setting = new RegExp(`^( {2}${key}: ).*$`, "m");
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(setting, `$1${s.emulator.url}`));
    }
  }
  return workspace;
}
/** What the jobs' environment holds before the CI adds its variables: the runner machine. */
let runnerEnv: Record<string, string>;
/** The CI's secrets and variables (GitHub), or the project's CI/CD variables (GitLab). */
let secrets: Record<string, string>;
let vars: Record<string, string>;
let substitutions: Substitutions;

beforeAll(async () => {
  // Every version's end of support far ahead, so the policy pack's end-of-support rule has nothing to report
  // whatever the date the suite runs on.
  s = await openSuite("ci-samples", {
    kubernetesVersions: ["1.31.9", "1.32.5", "1.33.2", "1.34.1"].map((value) => ({
      value,
      endOfSupportDate: "2099-12-31T00:00:00.000Z",
      recommended: value === "1.33.2",
    })),
  });
  // What `npm ci` would install, from what global-setup installed: the packed package with @pulumi/pulumi and
  // @pulumi/policy, and the repository's TypeScript for `npm run build` of the environments tool.
  const modules = path.join(s.dir, "node_modules");
  fs.mkdirSync(path.join(modules, ".bin"), { recursive: true });
  const installed = path.join(E2E_ROOT, "node_modules");
  for (const entry of fs
    .readdirSync(installed)
    .filter((name) => !name.startsWith(".") && name !== "@types")) {
    fs.symlinkSync(path.join(installed, entry), path.join(modules, entry));
  }
  fs.mkdirSync(path.join(modules, "@types"));
  for (const [from, name] of [
    ...fs.readdirSync(path.join(installed, "@types")).map((name) => [installed, name]),
    [path.join(ROOT, "node_modules"), "node"],
  ]) {
    fs.rmSync(path.join(modules, "@types", name), { force: true });
    fs.symlinkSync(path.join(from, "@types", name), path.join(modules, "@types", name));
  }
  fs.symlinkSync(path.join(ROOT, "node_modules/typescript"), path.join(modules, "typescript"));
  fs.symlinkSync("../typescript/bin/tsc", path.join(modules, ".bin/tsc"));
  substitutions = {
    "npm ci && npm run build": {
      instead: null,
      reason:
        "builds this package for the examples' file:../.. dependency: the e2e command built it, and the " +
        "suite's setup installed it packed",
    },
    "npm ci": {
      instead: `ln -sfn ${modules} node_modules`,
      reason:
        "installs from the npm registry: node_modules links to the suite's install instead, and the lockfile " +
        "is checked against package.json",
    },
  };
  const home = path.join(s.dir, "runner-home");
  fs.mkdirSync(home);
  // The runner machine: the engine first on PATH, the suite's PULUMI_HOME and offline settings, but neither the
  // backend nor the passphrase, which only the samples' own wiring of the CI's secrets provides.
  const machineOnly = (key: string) =>
    !key.startsWith("npm_") && key !== "PULUMI_BACKEND_URL" && key !== "PULUMI_CONFIG_PASSPHRASE";
  runnerEnv = {
    ...Object.fromEntries(Object.entries(s.env).filter(([key]) => machineOnly(key))),
    HOME: home,
    CI: "true",
    // The stacks' poll interval is the service's default (10 s); against the emulator a short one is enough.
    VENDOR_POLL_INTERVAL_MS: POLL_MS,
    // Each job starts from a fresh checkout, where the SDK's ts-node finds its cache cold (the cache is keyed by
    // the program's folder) and would type-check the program in every job: seven CPU-seconds a job. The jobs
    // prove the samples' commands; the programs' types are `npm test`'s tsc (against the sources) and, for the
    // packed package's declarations, the main example's suite's (example.e2e.test.ts type-checks there). The
    // programs still run compiled by ts-node.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
  };
  secrets = {
    PULUMI_BACKEND_URL: s.env.PULUMI_BACKEND_URL,
    PULUMI_CONFIG_PASSPHRASE: s.env.PULUMI_CONFIG_PASSPHRASE,
    VENDOR_CLIENT_ID: CLIENT_ID,
    VENDOR_CLIENT_SECRET: CLIENT_SECRET,
    // The release workflow's: the job's own token (GitHub gives every run one) and the npm registry's.
    GITHUB_TOKEN: "github-job-token",
    NPM_TOKEN: "npm-publish-token",
  };
  vars = {
    VENDOR_TOKEN_URL: `${s.emulator.url}/oauth2/token`,
    VENDOR_BASE_URL: s.emulator.url,
    VENDOR_PROJECT_ID: PROJECT,
  };
});
afterAll(async () => {
  await s?.close();
});

let jobRuns = 0;

/** How `run` runs jobs. */
interface RunOptions {
  /** Jobs the CI starts at the same time (a matrix without `max-parallel: 1`, one GitLab stage's). */
  together?: boolean;
  /** The fresh workspace of a job named `name` (`checkout` by default). */
  checkout?: (name: string) => string;
  /** The runner machine's environment for a job named `name` (`runnerEnv` by default). */
  env?: (name: string) => Record<string, string>;
  substitutions?: Substitutions;
}

/** A job's result, with the workspace it ran in and the runner's environment it had. */
type JobRun = JobResult & { workspace: string; env: Record<string, string> };

/**
 * Runs jobs, keeping every line for the secret search, and resolves with their results by name. Jobs the CI
 * starts at the same time run at the same time here too (`together`); otherwise one after the other, in order.
 */
async function run(jobs: PlannedJob[], options: RunOptions = {}): Promise<Record<string, JobRun>> {
  const runOne = async (job: PlannedJob): Promise<JobRun> => {
    const name = `${++jobRuns}-${job.name.replace(/\W+/g, "-")}`;
    const workspace = (options.checkout ?? checkout)(name);
    const env = options.env?.(name) ?? runnerEnv;
    const result = await runJob(job, workspace, env, options.substitutions ?? substitutions);
    s.cliOutput.push(result.output);
    // Kept with the suite's folder (E2E_KEEP=1) to read what a job printed.
    fs.mkdirSync(path.join(s.dir, "jobs"), { recursive: true });
    fs.writeFileSync(path.join(s.dir, "jobs", `${name}.log`), result.output);
    return { ...result, workspace, env };
  };
  const results: JobRun[] = [];
  if (options.together) results.push(...(await Promise.all(jobs.map(runOne))));
  else for (const job of jobs) results.push(await runOne(job));
  return Object.fromEntries(results.map((result) => [result.job, result]));
}

/** A job's outcome in short: exit code and failed step. */
const outcome = (r: JobResult) => ({
  job: r.job,
  code: r.code,
  ...(r.failedStep ? { failedStep: r.failedStep } : {}),
});

/** The lines of `output` that match `pattern`, trimmed. */
const lines = (output: string, pattern: RegExp) =>
  output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => pattern.test(line));

/** The live clusters of the emulator by name, with their pool sizes. */
function clusters(): Record<string, string[]> {
  return Object.fromEntries(
    s.emulator.emulator
      .state()
      .kaas.filter((k) => k.status?.state !== "Deleted")
      .map((k) => [
        k.metadata.name as string,
        ((k.properties as { nodePools?: { name: string; nodes: number }[] }).nodePools ?? []).map(
          (p) => `${p.name}=${p.nodes}`,
        ),
      ]),
  );
}

/** What install-pulumi.sh prints when it finds the pinned CLI in `bin`, the first folder of PATH that has one. */
const INSTALLED = (bin = BIN) =>
  `pulumi ${engineVersion()} is already installed: ${path.join(bin, "pulumi")}`;
/** The version of the policy pack the installed package ships. */
const PACK_VERSION: string = JSON.parse(
  fs.readFileSync(path.join(E2E_ROOT, "node_modules/pulumi-vendor-container/policy/package.json"), "utf8"),
).version;
/** Where the samples' `--policy-pack` finds the package's policy pack, below the folder of `npm ci`. */
const PACK = "node_modules/pulumi-vendor-container/policy/run-policy-pack";
/**
 * Asserts that the policy pack (at `pack`) ran `times` times in a job (once for a preview, twice for an `up`:
 * its preview and the update) and reported nothing: the CLI lists the packs it ran, and prints every violation,
 * advisory or mandatory, as `[level]  rule`.
 */
function expectPolicyPassed(output: string, times: number, pack = PACK): void {
  expect(lines(output, /^vendor-container\|local\|/)).toEqual(
    Array.from({ length: times }, () => `vendor-container|local|${pack}  ${PACK_VERSION}`),
  );
  expect(lines(output, /\[(advisory|mandatory)\]/)).toEqual([]);
}

describe("what the samples install", () => {
  it("pins one Pulumi CLI in one script that every deploying job of the samples runs, at the engine's version", () => {
    const script = fs.readFileSync(path.join(SAMPLES, "install-pulumi.sh"), "utf8");
    expect(`v${/^PULUMI_VERSION=(\S+)$/m.exec(script)?.[1]}`).toBe(engineVersion());
    const github = [WORKFLOW, PYTHON_WORKFLOW].flatMap((file) =>
      (["pull_request", "push", "schedule"] as const).flatMap((name) =>
        planGitHub(file, githubEvent(name), secrets, vars).map((job) => ({ file, job })),
      ),
    );
    expect(
      github.map(({ job }) => job.steps.find((step) => step.name === "Install the Pulumi CLI")?.commands),
    ).toEqual(
      github.map(({ file, job }) => [
        file === PYTHON_WORKFLOW
          ? "sh ../install-pulumi.sh"
          : job.key === "pr-environment"
            ? "sh ../ci-pipeline/install-pulumi.sh"
            : "sh install-pulumi.sh",
      ]),
    );
    const gitlab = ["merge_request_event", "push", "schedule"].flatMap((source) =>
      planGitLab(GITLAB, gitlabVariables(source)),
    );
    expect(gitlab.map((job) => job.steps[0].commands.slice(0, 2))).toEqual(
      gitlab.map(() => [
        "sh examples/ci-pipeline/install-pulumi.sh",
        'export PATH="$HOME/.pulumi/bin:$PATH"',
      ]),
    );
  });

  it.each([...NPM_CI_FOLDERS, POLICY_PACK_FOLDER])(
    "commits the lockfile that `npm ci` in %s needs, matching its package.json",
    (folder) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, folder, "package.json"), "utf8"));
      const lock = JSON.parse(fs.readFileSync(path.join(ROOT, folder, "package-lock.json"), "utf8"));
      expect(lock.packages[""].dependencies ?? {}).toEqual(manifest.dependencies ?? {});
      expect(lock.packages[""].devDependencies ?? {}).toEqual(manifest.devDependencies ?? {});
      if (folder === ".") return;
      const root = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
      const entry = lock.packages["node_modules/pulumi-vendor-container"];
      const locked = { resolved: entry.resolved, version: entry.version, dependencies: entry.dependencies };
      const npmrc = path.join(ROOT, folder, ".npmrc");
      if (folder === POLICY_PACK_FOLDER) {
        // The Python team's pipeline installs the published package, of this version (the release its plugin and
        // its Python SDK come from).
        expect(locked).toEqual({
          resolved: `https://registry.npmjs.org/pulumi-vendor-container/-/pulumi-vendor-container-${root.version}.tgz`,
          version: root.version,
          dependencies: root.dependencies,
        });
        expect(manifest.dependencies["pulumi-vendor-container"]).toBe(root.version);
        expect(fs.existsSync(npmrc)).toBe(false);
        return;
      }
      // The package comes from the checkout, copied in (`install-links`), so one @pulumi/pulumi serves both the
      // program and the dynamic provider; the lockfile was written that way, for the package as it is now (after
      // a release, `npm install --package-lock-only` in the folder, without the old lockfile, writes it again).
      expect(locked).toEqual({
        resolved: `file:${path.relative(path.join(ROOT, folder), ROOT)}`,
        version: root.version,
        dependencies: root.dependencies,
      });
      expect(fs.readFileSync(npmrc, "utf8")).toMatch(/^install-links=true$/m);
    },
  );

  it("runs `npm ci` in exactly those folders, in both samples", () => {
    const github = (["pull_request", "push", "schedule"] as const).flatMap((name) =>
      planGitHub(WORKFLOW, githubEvent(name), secrets, vars),
    );
    const githubFolders = github.flatMap((job) =>
      job.steps
        .filter((step) => /^npm ci\b/.test(step.commands[0] ?? ""))
        .map((step) => step.workingDirectory),
    );
    // A GitLab job's lines share one shell: a `cd` line moves the later ones.
    const gitlabFolders = ["merge_request_event", "push", "schedule"]
      .flatMap((source) => planGitLab(GITLAB, gitlabVariables(source)))
      .flatMap((job) => {
        let folder = ".";
        return job.steps[0].commands.flatMap((command) => {
          if (command.startsWith("cd ")) folder = command.slice(3);
          return /^npm ci\b/.test(command) ? [folder] : [];
        });
      });
    expect([...new Set(githubFolders)].sort()).toEqual([...NPM_CI_FOLDERS].sort());
    expect([...new Set(gitlabFolders)].sort()).toEqual([...NPM_CI_FOLDERS].sort());
  });
});

/**
 * Asserts that a drift check printed the change made outside Pulumi (the refresh reads 3 nodes where the state
 * had 2, in the cluster's output `currentNodePools` and in its input `nodePools`), the update of the cluster
 * that would undo it, and the CLI's error.
 */
function expectDrift(output: string): void {
  expect(lines(output, /~ nodes\s+:|: \(update\)$/).map((line) => line.replace(/\s+/g, " "))).toEqual([
    "~ nodes : 2 => 3",
    "~ nodes : 2 => 3",
    "~ pulumi-nodejs:dynamic/vendor-container:Kaas: (update)",
    "~ nodes : 3 => 2",
  ]);
  expect(lines(output, /to update$|^error: /)).toEqual([
    "~ 1 to update",
    "error: no changes were expected for preview but changes were proposed",
  ]);
}

/** The GitHub event of each scenario: pull request 7 (or `number`) opened (or closed), a push to main, the schedule. */
function githubEvent(name: GitHubEvent["name"], action = "opened", number = 7): GitHubEvent {
  return name === "pull_request"
    ? { name, ref: `refs/pull/${number}/merge`, payload: { action, number } }
    : { name, ref: "refs/heads/main", payload: {} };
}

/** The predefined variables of a GitLab pipeline (merge request 8, or the default branch), with the project's. */
function gitlabVariables(source: string): Record<string, string> {
  const predefined: Record<string, string> =
    source === "merge_request_event"
      ? { CI_PIPELINE_SOURCE: source, CI_MERGE_REQUEST_IID: "8", CI_DEFAULT_BRANCH: "main" }
      : { CI_PIPELINE_SOURCE: source, CI_COMMIT_BRANCH: "main", CI_DEFAULT_BRANCH: "main" };
  return { ...secrets, ...vars, ...predefined };
}

const STEPS_SKIPPED = [
  "Check out: the test runs in a copy of the repository's folders instead of a fresh checkout",
  "Set up Node.js: Node.js 22 is the engine's own (.tools/bin/node, first on PATH)",
];
const INSTALLS_SKIPPED = (count: number) => [
  `npm ci && npm run build: ${substitutions["npm ci && npm run build"].reason}`,
  ...Array.from({ length: count }, () => `npm ci: ${substitutions["npm ci"].reason}`),
];

describe("workflow.yml (GitHub Actions)", () => {
  it("on a pull request: previews dev and prod with the policy pack, and creates the pull request's environment", async () => {
    const jobs = planGitHub(WORKFLOW, githubEvent("pull_request"), secrets, vars);
    expect(jobs.map((job) => job.name)).toEqual(["preview dev", "preview prod", "environment pr-7"]);
    expect(jobs.map((job) => job.expand(job.definition.concurrency.group))).toEqual([
      "preview-dev-pr-7",
      "preview-prod-pr-7",
      "pr-environment-7",
    ]);
    // The three start together, as on GitHub: no job waits for another.
    const results = await run(jobs, { together: true });
    expect(Object.values(results).map(outcome)).toEqual(jobs.map((job) => ({ job: job.name, code: 0 })));
    for (const stack of ["dev", "prod"]) {
      const result = results[`preview ${stack}`];
      expect(result.skipped).toEqual([...STEPS_SKIPPED, ...INSTALLS_SKIPPED(1)]);
      expect(result.ran).toEqual([
        "Install the Pulumi CLI",
        "Install dependencies",
        "Select the stack",
        "Preview with the policy pack",
      ]);
      expect(result.output).toContain(INSTALLED());
      expectPolicyPassed(result.output, 1);
      expect(lines(result.output, /to create$/)).toEqual(["+ 3 to create"]);
    }
    const environment = results["environment pr-7"];
    expect(environment.ran).toEqual([
      "Install the Pulumi CLI",
      "Install dependencies",
      "Build the environments tool",
      "Create or update the pull request's environment",
    ]);
    expect(lines(environment.output, /^pr-7: /)).toEqual(["pr-7: platform: 3 create", "pr-7: app: 2 create"]);
    expect(Object.keys(clusters()).sort()).toEqual(["pr-7-cluster"]);
  });

  it("on the pull request closed: destroys its environment", async () => {
    const jobs = planGitHub(WORKFLOW, githubEvent("pull_request", "closed"), secrets, vars);
    expect(jobs.map((job) => job.name)).toEqual(["environment pr-7"]);
    const [result] = Object.values(await run(jobs));
    expect(outcome(result)).toEqual({ job: "environment pr-7", code: 0 });
    expect(result.ran.at(-1)).toBe("Destroy the pull request's environment");
    expect(lines(result.output, /^pr-7: /)).toEqual([
      "pr-7: app: 2 delete, 1 discard",
      "pr-7: platform: 3 delete",
      "pr-7: destroyed, stacks removed",
    ]);
  });

  it("on a merge to main: runs `up` for dev then prod, one run per stack at a time, prod behind its environment", async () => {
    const jobs = planGitHub(WORKFLOW, githubEvent("push"), secrets, vars);
    expect(jobs.map((job) => job.name)).toEqual(["up dev", "up prod"]);
    expect(
      jobs.map((job) => ({
        environment: job.expand(job.definition.environment),
        group: job.expand(job.definition.concurrency.group),
        cancel: job.definition.concurrency["cancel-in-progress"],
        maxParallel: job.definition.strategy["max-parallel"],
      })),
    ).toEqual([
      { environment: "dev", group: "pulumi-dev", cancel: false, maxParallel: 1 },
      { environment: "prod", group: "pulumi-prod", cancel: false, maxParallel: 1 },
    ]);
    const results = await run(jobs);
    expect(Object.values(results).map(outcome)).toEqual(jobs.map((job) => ({ job: job.name, code: 0 })));
    for (const result of Object.values(results)) {
      expectPolicyPassed(result.output, 2);
      expect(lines(result.output, /created$/)).toEqual(["+ 3 created"]);
    }
    s.emulator.emulator.advanceClock(60_000);
    expect(clusters()).toEqual({ "dev-cluster": ["system=2"], "prod-cluster": ["system=2"] });
  });

  it("on the schedule: the drift check of both stacks passes", async () => {
    const jobs = planGitHub(WORKFLOW, githubEvent("schedule"), secrets, vars);
    expect(jobs.map((job) => job.name)).toEqual(["drift dev", "drift prod"]);
    const results = await run(jobs, { together: true });
    expect(Object.values(results).map(outcome)).toEqual(jobs.map((job) => ({ job: job.name, code: 0 })));
    for (const result of Object.values(results)) {
      expect(result.ran).toEqual(["Install the Pulumi CLI", "Install dependencies", "Check for drift"]);
      expect(lines(result.output, /unchanged$/)).toEqual(["3 unchanged"]);
    }
  });
});

/**
 * What a job runs once the CLI is installed and the package built, in order, each command in its folder and
 * split into the words bash gives it (the samples quote single words only): a GitHub job's steps after "Build
 * the package", a GitLab job's lines after its `cd` to the program's folder, with the job's variables expanded.
 */
function programCommands(job: PlannedJob): { folder: string; words: string[] }[] {
  const words = (command: string) =>
    job
      .expand(command)
      .split(/\s+/)
      .filter(Boolean)
      .map((word) => word.replace(/^"(.*)"$/, "$1"));
  const built = job.steps.findIndex((step) => step.name === "Build the package");
  if (built >= 0)
    return job.steps.slice(built + 1).map((step) => ({
      folder: step.workingDirectory,
      words: words(step.commands.join("\n")),
    }));
  const commands = job.steps[0].commands;
  const cd = commands.findIndex((command) => command.startsWith("cd "));
  return commands.slice(cd + 1).map((command) => ({ folder: commands[cd].slice(3), words: words(command) }));
}

describe("gitlab-ci.yml (GitLab CI)", () => {
  // Of GitLab's jobs, the scheduled pipeline's drift check of dev runs through the engine (below): its lines
  // share one shell, the CLI installed and the folder changed by the lines before. Every other job runs the very
  // commands of workflow.yml's job for the same event, which run through the engine above: held here by its
  // lines.
  it("runs in every job, after its install, the commands of workflow.yml's job for the same event, in the same folders", () => {
    const github = (event: GitHubEvent) =>
      Object.fromEntries(
        planGitHub(WORKFLOW, event, secrets, vars).map((job) => [job.name, programCommands(job)]),
      );
    const opened = github(githubEvent("pull_request", "opened", 8));
    const closed = github(githubEvent("pull_request", "closed", 8));
    const push = github(githubEvent("push"));
    const schedule = github(githubEvent("schedule"));
    const gitlab = ["merge_request_event", "push", "schedule"].flatMap((source) =>
      planGitLab(GITLAB, gitlabVariables(source)).map((job) => [job.name, programCommands(job)]),
    );
    expect(Object.fromEntries(gitlab)).toEqual({
      "preview: [dev]": opened["preview dev"],
      "preview: [prod]": opened["preview prod"],
      "pr-environment": opened["environment pr-8"],
      "pr-environment-stop": closed["environment pr-8"],
      "up:dev": push["up dev"],
      "up:prod": push["up prod"],
      "drift: [dev]": schedule["drift dev"],
      "drift: [prod]": schedule["drift prod"],
    });
    // What those commands are, in full.
    const program = (...commands: string[]) =>
      commands.map((command) => ({ folder: "examples/ci-pipeline", words: command.split(" ") }));
    const environments = (...commands: string[]) =>
      commands.map((command) => ({ folder: "examples/environments", words: command.split(" ") }));
    const pack = `--policy-pack ${PACK} --policy-pack-config policy.json`;
    expect([
      opened["preview prod"],
      opened["environment pr-8"],
      closed["environment pr-8"],
      push["up prod"],
      schedule["drift prod"],
    ]).toEqual([
      program(
        "npm ci",
        "pulumi stack select prod --create --non-interactive",
        `pulumi preview --stack prod --non-interactive --diff ${pack}`,
      ),
      environments("npm ci", "npm run build", "npm run --silent environments -- up pr-8"),
      environments("npm ci", "npm run build", "npm run --silent environments -- destroy pr-8"),
      program(
        "npm ci",
        "pulumi stack select prod --create --non-interactive",
        `pulumi up --stack prod --yes --non-interactive --diff ${pack}`,
      ),
      program("npm ci", "pulumi preview --stack prod --refresh --expect-no-changes --non-interactive --diff"),
    ]);
  });

  it("in a merge request pipeline: previews dev and prod, and creates the request's environment, stopped by a manual job", () => {
    const jobs = planGitLab(GITLAB, gitlabVariables("merge_request_event"));
    expect(jobs.map((job) => [job.name, job.manual])).toEqual([
      ["preview: [dev]", false],
      ["preview: [prod]", false],
      ["pr-environment", false],
      ["pr-environment-stop", true],
    ]);
    const environment = jobs.find((job) => job.key === "pr-environment")!;
    const stop = jobs.find((job) => job.key === "pr-environment-stop")!;
    expect({
      name: environment.expand(environment.definition.environment.name),
      onStop: environment.definition.environment.on_stop,
      stopName: stop.expand(stop.definition.environment.name),
      stopAction: stop.definition.environment.action,
      groups: [environment, stop].map((job) => job.expand(job.definition.resource_group)),
    }).toEqual({
      name: "review/pr-8",
      onStop: "pr-environment-stop",
      stopName: "review/pr-8",
      stopAction: "stop",
      groups: ["pr-environment-8", "pr-environment-8"],
    });
  });

  it("on the default branch: `up` of dev, then prod by a manual job of the protected environment, one per stack", () => {
    const jobs = planGitLab(GITLAB, gitlabVariables("push"));
    expect(
      jobs.map((job) => ({
        name: job.name,
        manual: job.manual,
        group: job.expand(job.definition.resource_group),
        environment: job.expand(job.definition.environment.name),
        allowFailure: job.definition.rules[0].allow_failure,
      })),
    ).toEqual([
      { name: "up:dev", manual: false, group: "pulumi-dev", environment: "dev", allowFailure: undefined },
      { name: "up:prod", manual: true, group: "pulumi-prod", environment: "prod", allowFailure: false },
    ]);
    expect(jobs[1].definition.needs).toEqual(["up:dev"]);
    // A push to another branch starts no pipeline at all (workflow: rules).
    expect(planGitLab(GITLAB, { ...gitlabVariables("push"), CI_COMMIT_BRANCH: "feature" })).toEqual([]);
  });

  it("in a scheduled pipeline: the drift check fails on dev after a change made outside Pulumi", async () => {
    const jobs = planGitLab(GITLAB, gitlabVariables("schedule"));
    expect(jobs.map((job) => job.name)).toEqual(["drift: [dev]", "drift: [prod]"]);
    // Someone resizes dev's pool in the service's console.
    const dev = s.emulator.emulator.state().kaas.find((k) => k.metadata.name === "dev-cluster")!;
    s.emulator.emulator.scaleNodePool(dev.metadata.id as string, "system", 3);
    // dev's job (prod's runs workflow.yml's command, which passed on prod above). 7: the CLI's exit code for
    // changes where none were expected.
    const [result] = Object.values(await run(jobs.slice(0, 1)));
    expect(outcome(result)).toEqual({ job: "drift: [dev]", code: 7, failedStep: "drift" });
    expect(result.skipped).toEqual(INSTALLS_SKIPPED(1));
    expect(result.output).toContain(INSTALLED());
    expectDrift(result.output);
  });
});

/** The command text of the step `name` of a job, as the runner matches substitutions. */
function stepCommand(job: PlannedJob, name: string): string {
  const step = job.steps.find((candidate) => candidate.name === name);
  if (!step?.commands[0]) throw new Error(`${job.name} has no step "${name}" that runs a command`);
  return step.commands[0].trim();
}

/** The GitHub event of a pushed tag. */
const tagPush = (tag: string): GitHubEvent => ({ name: "push", ref: `refs/tags/${tag}`, payload: {} });

const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/** The names SHA256SUMS in `dir` lists, with their sha256, in its order. */
function checksums(dir: string): Record<string, string> {
  const text = fs.readFileSync(path.join(dir, "SHA256SUMS"), "utf8");
  return Object.fromEntries(
    text
      .trim()
      .split("\n")
      .map((line) => {
        const [hash, name] = line.split(/ {2}/);
        return [name, hash];
      }),
  );
}

/** The folders of a PATH that hold `tool`. */
const holding = (PATH: string, tool: string) =>
  PATH.split(path.delimiter).filter((dir) => fs.existsSync(path.join(dir, tool)));

/** A folder `name` in the suite's folder of links, one per key of `targets` to its value; returns its path. */
function links(name: string, targets: Record<string, string>): string {
  const dir = path.join(s.dir, name);
  fs.mkdirSync(dir);
  for (const [link, target] of Object.entries(targets)) fs.symlinkSync(target, path.join(dir, link));
  return dir;
}

/** Where `tool` is on this machine's PATH. */
const onMachine = (tool: string) =>
  execFileSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim();

describe("workflow-python.yml (GitHub Actions, the Python variant, on the release)", () => {
  /** Where the release's assets are downloaded from, below github.com. */
  const DOWNLOADS = `/vendor-container/pulumi-vendor-container/releases/download/v${VERSION}`;
  const PLUGIN_STEPS = [
    "Install the Pulumi CLI",
    "Install the Python packages",
    "Install the provider plugin",
  ];
  let releaseDir: string;
  let server: http.Server;
  /** What the loopback stand-in of github.com was asked for. */
  const requested: string[] = [];
  /** The runner's PATH: links to the engine and to the tools the jobs run, and no Node.js. */
  let machinePath: string;
  /** What actions/setup-node puts on PATH: node and npm. */
  let nodeFolder: string;
  /** The sha256 of the executable in the release's archive for this machine. */
  let pluginSha: string;
  let pythonSubstitutions: Substitutions;
  /** The text of the plugin's install step, the same in both jobs. */
  let installPlugin: string;

  beforeAll(async () => {
    releaseDir = await release();
    server = http.createServer((request, response) => {
      const url = request.url ?? "";
      requested.push(`${request.method} ${url}`);
      const name = url.slice(DOWNLOADS.length + 1);
      const file = path.join(releaseDir, name);
      if (!url.startsWith(`${DOWNLOADS}/`) || name.includes("/") || !fs.existsSync(file))
        return void response.writeHead(404).end();
      response.writeHead(200, { "Content-Length": fs.statSync(file).size });
      fs.createReadStream(file).pipe(response);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    // The tools the steps and the engine run: bash and sh for the steps, curl and sha256sum for the download,
    // ln for `npm ci`'s stand-in, dirname for the policy pack's launcher; the CLI and its Python language host.
    machinePath = links("runner-path", {
      ...Object.fromEntries(
        ["bash", "sh", "curl", "sha256sum", "ln", "dirname"].map((t) => [t, onMachine(t)]),
      ),
      ...Object.fromEntries(
        ["pulumi", "pulumi-language-python", "pulumi-language-python-exec"].map((t) => [
          t,
          path.join(BIN, t),
        ]),
      ),
    });
    nodeFolder = links("setup-node", { node: path.join(BIN, "node"), npm: onMachine("npm") });
    const unpacked = path.join(s.dir, "archive");
    fs.mkdirSync(unpacked);
    execFileSync("tar", ["-xzf", path.join(releaseDir, archiveName()), "-C", unpacked]);
    expect(fs.readdirSync(unpacked)).toEqual(["pulumi-resource-vendor-container"]);
    pluginSha = sha256(path.join(unpacked, "pulumi-resource-vendor-container"));

    const [drift] = planGitHub(PYTHON_WORKFLOW, githubEvent("schedule"), secrets, vars);
    installPlugin = stepCommand(drift, "Install the provider plugin");
    const fromLoopback = installPlugin.replaceAll("https://github.com/", `http://127.0.0.1:${port}/`);
    expect(fromLoopback).not.toBe(installPlugin);
    pythonSubstitutions = {
      "actions/setup-python@v5": {
        instead: `${JSON.stringify(PYTHON)} -m venv "$RUNNER_TEMP/python" && echo "$RUNNER_TEMP/python/bin" >>"$GITHUB_PATH"`,
        reason:
          "a fresh virtualenv of the engine's Python goes on PATH instead, as the action puts the Python it installs",
      },
      "pip install -r requirements.txt": {
        instead: `PIP_NO_INDEX=1 PIP_FIND_LINKS=${JSON.stringify(`${releaseDir} ${pulumiWheels()}`)} pip install -r requirements.txt`,
        reason:
          "installs from PyPI: pip installs the same requirements from the release's wheel and pulumi's " +
          "(support/wheels.ts), with no index",
      },
      [installPlugin]: {
        instead: fromLoopback,
        reason:
          "downloads from github.com: the same commands run against a loopback server of the release's files",
      },
      "actions/setup-node@v4": {
        instead: `echo ${JSON.stringify(nodeFolder)} >>"$GITHUB_PATH"`,
        reason:
          "Node.js 22 is the engine's own (.tools/bin/node): a folder of node and npm goes on PATH, as the action " +
          "puts the Node.js it installs",
      },
      "npm ci": substitutions["npm ci"],
    };
  });
  afterAll(() => server?.close());

  /**
   * A runner of its own for each job, as GitHub gives: a fresh home, whose ~/.pulumi holds the engine's plugin
   * cache (PULUMI_HOME: the CLI takes its home from the user database, not from HOME), the PATH without Node.js,
   * and none of the suite's Python settings: the program runs with the Python of the job's setup-python, where
   * its requirements are installed.
   */
  const pythonRunner = (name: string) => {
    const home = path.join(s.dir, "homes", name);
    fs.mkdirSync(home, { recursive: true });
    const dropped = ["PULUMI_PYTHON_CMD", "PYTHONPATH"];
    const machine = Object.entries(runnerEnv).filter(([key]) => !dropped.includes(key));
    return {
      ...Object.fromEntries(machine),
      HOME: home,
      PULUMI_HOME: path.join(home, ".pulumi"),
      PATH: machinePath,
    };
  };
  const skippedUntilNode = () => [
    STEPS_SKIPPED[0],
    `Set up Python: ${pythonSubstitutions["actions/setup-python@v5"].reason}`,
    `pip install -r requirements.txt: ${pythonSubstitutions["pip install -r requirements.txt"].reason}`,
    `${installPlugin}: ${pythonSubstitutions[installPlugin].reason}`,
  ];
  const download = [`GET ${DOWNLOADS}/${archiveName()}`, `GET ${DOWNLOADS}/SHA256SUMS`];

  /**
   * Asserts what a job installed: the Python of its setup-python with `pulumi` and the release's SDK, from the
   * release's wheel; the release's archive, checked, its executable in the engine's plugin cache of the job's
   * HOME; the pinned CLI found on PATH.
   */
  function expectInstalled(result: JobRun): void {
    const python = path.join(result.workspace, ".runner-temp/python/bin/python");
    const probe = [
      "import importlib.metadata as m, json, sys",
      "import pulumi_vendor_container as sdk",
      'names = ["pulumi", "pulumi-vendor-container"]',
      "print(json.dumps({'python': sys.version.split()[0], 'versions': {n: m.version(n) for n in names},",
      "  'sdk': sdk.__file__}))",
    ].join("\n");
    const installed = JSON.parse(execFileSync(python, ["-c", probe], { encoding: "utf8", env: {} }));
    expect(installed).toEqual({
      python: expect.stringMatching(/^3\.11\.\d+$/),
      versions: { pulumi: pulumiPythonVersion(), "pulumi-vendor-container": VERSION },
      sdk: path.join(
        result.workspace,
        ".runner-temp/python/lib/python3.11/site-packages/pulumi_vendor_container/__init__.py",
      ),
    });
    expect(lines(result.output, /pulumi_vendor_container-/)).toEqual([
      `Processing ${path.join(releaseDir, `pulumi_vendor_container-${VERSION}-py3-none-any.whl`)} (from -r requirements.txt (line 4))`,
    ]);
    expect(lines(result.output, /: (OK|FAILED)$/)).toEqual([`${archiveName()}: OK`]);
    expect(lines(result.output, /^\[resource plugin/)).toEqual([
      `[resource plugin vendor-container-${VERSION}] installing`,
    ]);
    // The one plugin in the cache (beside the engine's .lock and .lastused files), with the archive's executable.
    const plugins = path.join(result.env.PULUMI_HOME, "plugins");
    const cached = path.join(plugins, `resource-vendor-container-v${VERSION}`);
    expect(fs.readdirSync(plugins).filter((name) => !/\.(lock|lastused)$/.test(name))).toEqual([
      path.basename(cached),
    ]);
    expect(fs.readdirSync(cached)).toEqual(["pulumi-resource-vendor-container"]);
    expect(sha256(path.join(cached, "pulumi-resource-vendor-container"))).toBe(pluginSha);
    expect(result.output).toContain(INSTALLED(machinePath));
  }

  /**
   * The steps of an instance of a matrix job, its stack's name in them as `<stack>`: two instances of one job
   * are the same steps for two stacks. The stack of prod runs through the engine, the more demanding of the two
   * (the policy pack's production rules apply to it, policy.json); dev's instance is held to the same steps.
   */
  const stepsForStack = (job: PlannedJob) =>
    job.steps.map((step) => ({
      name: step.name,
      folder: step.workingDirectory,
      commands: step.commands.map((command) =>
        command.replace(new RegExp(`\\b${job.matrix.stack}\\b`, "g"), "<stack>"),
      ),
    }));

  it("on a merge to main: installs the release and runs `up` of prod, Node.js only for the policy pack; dev's job the same steps", async () => {
    const jobs = planGitHub(PYTHON_WORKFLOW, githubEvent("push"), secrets, vars);
    expect(jobs.map((job) => job.name)).toEqual(["up dev (Python)", "up prod (Python)"]);
    expect(jobs.map((job) => job.expand(job.definition.concurrency.group))).toEqual([
      "pulumi-python-dev",
      "pulumi-python-prod",
    ]);
    const [dev, prod] = jobs;
    expect(stepsForStack(dev)).toEqual(stepsForStack(prod));
    expect(jobs.map((job) => job.steps.at(-1)?.commands)).toEqual(
      ["dev", "prod"].map((stack) => [
        `pulumi up --stack ${stack} --yes --non-interactive --diff ` +
          `--policy-pack policy-pack/${PACK} --policy-pack-config ../policy.json`,
      ]),
    );
    // npm installs the policy pack, in its folder, and nothing else.
    expect(
      prod.steps
        .filter((step) => /\bnpm\b/.test(step.commands.join("\n")))
        .map((step) => step.workingDirectory),
    ).toEqual([POLICY_PACK_FOLDER]);
    requested.length = 0;
    const { [prod.name]: result } = await run([prod], {
      env: pythonRunner,
      substitutions: pythonSubstitutions,
    });
    expect(outcome(result)).toEqual({ job: prod.name, code: 0 });
    expect(result.skipped).toEqual([
      ...skippedUntilNode(),
      `Set up Node.js: ${pythonSubstitutions["actions/setup-node@v4"].reason}`,
      `npm ci: ${substitutions["npm ci"].reason}`,
    ]);
    const withNode = ["Set up Node.js", "Install the policy pack", "Select the stack", "Up"];
    expect(result.ran).toEqual(["Set up Python", ...PLUGIN_STEPS, ...withNode]);
    expect(Object.fromEntries(result.ran.map((step) => [step, holding(result.paths[step], "node")]))).toEqual(
      {
        ...Object.fromEntries(["Set up Python", ...PLUGIN_STEPS, "Set up Node.js"].map((step) => [step, []])),
        ...Object.fromEntries(withNode.slice(1).map((step) => [step, [nodeFolder]])),
      },
    );
    expectInstalled(result);
    expectPolicyPassed(result.output, 2, `policy-pack/${PACK}`);
    expect(lines(result.output, /created$/)).toEqual(["+ 3 created"]);
    expect(requested).toEqual(download);
    s.emulator.emulator.advanceClock(60_000);
    const python = Object.entries(clusters()).filter(([name]) => name.includes("-python-"));
    expect(Object.fromEntries(python)).toEqual({ "prod-python-cluster": ["system=2"] });
  });

  it("on the schedule: the drift check of prod, with no Node.js on PATH, finds nothing to change; dev's job the same steps", async () => {
    const jobs = planGitHub(PYTHON_WORKFLOW, githubEvent("schedule"), secrets, vars);
    expect(jobs.map((job) => job.name)).toEqual(["drift dev (Python)", "drift prod (Python)"]);
    const [dev, prod] = jobs;
    expect(stepsForStack(dev)).toEqual(stepsForStack(prod));
    expect(prod.steps.at(-1)?.commands).toEqual([
      "pulumi preview --stack prod --refresh --expect-no-changes --non-interactive --diff",
    ]);
    requested.length = 0;
    const { [prod.name]: result } = await run([prod], {
      env: pythonRunner,
      substitutions: pythonSubstitutions,
    });
    expect(outcome(result)).toEqual({ job: prod.name, code: 0 });
    expect(result.skipped).toEqual(skippedUntilNode());
    expect(result.ran).toEqual(["Set up Python", ...PLUGIN_STEPS, "Check for drift"]);
    // The program, the engine and the plugin run with no node to be found.
    expect(
      Object.values(result.paths).map((PATH) => [...holding(PATH, "node"), ...holding(PATH, "npm")]),
    ).toEqual(result.ran.map(() => []));
    expectInstalled(result);
    expect(lines(result.output, /unchanged$/)).toEqual(["3 unchanged"]);
    expect(requested).toEqual(download);
  });
});

/**
 * Records a publishing command's call instead of sending anything, as a line of JSON in `file`: the tool, its
 * folder, its arguments, the tokens in its environment, and the sha256 of every file its arguments name (of a
 * folder's files, by name).
 */
const recorderSource = (file: string) => `const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const [tool, ...args] = process.argv.slice(2);
const sha256 = (file) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
const files = {};
for (const arg of args) {
  if (!fs.existsSync(arg)) continue;
  files[arg] = fs.statSync(arg).isDirectory()
    ? Object.fromEntries(fs.readdirSync(arg).sort().map((name) => [name, sha256(path.join(arg, name))]))
    : sha256(arg);
}
const tokens = Object.fromEntries(
  ["GH_TOKEN", "NODE_AUTH_TOKEN"].filter((key) => process.env[key]).map((key) => [key, process.env[key]]),
);
fs.appendFileSync(${JSON.stringify(file)}, JSON.stringify({ tool, cwd: process.cwd(), args, tokens, files }) + "\\n");
`;

describe("release.yml (GitHub Actions, the release of this package)", () => {
  const TAG = `v${VERSION}`;
  const CHECK = "Check the tag against package.json";
  let releaseDir: string;
  let sums: Record<string, string>;
  let records: string;
  let releaseSubstitutions: Substitutions;
  /** The publishing steps' commands, which run as written with `gh` or `npm` a recording shell function. */
  let githubRelease: string;
  let npmPublish: string;
  /** The stand-in of `npm run release`: the suite's release copied into the checkout. */
  let copyRelease: string;

  /** What the job reads of the repository: package.json (its version) and CHANGELOG.md (the notes). */
  const releaseCheckout = (name: string) => {
    const workspace = path.join(s.dir, "checkouts", name);
    fs.mkdirSync(workspace, { recursive: true });
    for (const file of ["package.json", "CHANGELOG.md"])
      fs.copyFileSync(path.join(ROOT, file), path.join(workspace, file));
    return workspace;
  };
  /** What the publishing commands were given, in order; and then forgets it. */
  const published = () => {
    const text = fs.existsSync(records) ? fs.readFileSync(records, "utf8") : "";
    fs.rmSync(records, { force: true });
    return text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };

  beforeAll(async () => {
    releaseDir = await release();
    sums = checksums(releaseDir);
    records = path.join(s.dir, "published.jsonl");
    const recorder = path.join(s.dir, "record-publish.js");
    fs.writeFileSync(recorder, recorderSource(records));
    const [job] = planGitHub(RELEASE_WORKFLOW, tagPush(TAG), secrets, vars);
    githubRelease = stepCommand(job, "Publish the GitHub release");
    npmPublish = stepCommand(job, "Publish the npm packages");
    const recording = (tool: string, command: string) =>
      `${tool}() { node ${JSON.stringify(recorder)} ${tool} "$@"; }\n${command}`;
    copyRelease = `mkdir -p dist && cp -R ${JSON.stringify(releaseDir)} dist/release`;
    releaseSubstitutions = {
      "npm ci": {
        instead: null,
        reason:
          "installs the repository's dependencies from the npm registry: the release below was made with them",
      },
      "bash scripts/engine.sh": {
        instead: null,
        reason:
          "builds the engine and the pinned Python packages: the suite's setup did, and the release below ran on them",
      },
      "npm run release": {
        instead: copyRelease,
        reason:
          "makes the release: the suite's own (support/release.ts; release.e2e.test.ts tests it) is copied in",
      },
      [githubRelease]: {
        instead: recording("gh", githubRelease),
        reason:
          "creates the GitHub release: the same commands run with `gh` a shell function that records its call",
      },
      [npmPublish]: {
        instead: recording("npm", npmPublish),
        reason:
          "publishes to the npm registry: the same commands run with `npm` a shell function that records its call",
      },
      "pypa/gh-action-pypi-publish@release/v1": {
        instead: `node ${JSON.stringify(recorder)} pypi "$(printenv INPUT_PACKAGES-DIR)"`,
        reason: "uploads to PyPI: records the folder it was given (packages-dir) and its files",
      },
    };
  });

  const skipped = (...commands: string[]) => [
    ...STEPS_SKIPPED,
    "Set up Python: Python is the engine's virtualenv (.tools/python, which the CLI runs programs with: PULUMI_PYTHON_CMD)",
    "Set up Go: Go is the machine's own (`go` on PATH)",
    ...commands.map((command) => `${command}: ${releaseSubstitutions[command].reason}`),
  ];
  const runRelease = (tag: string, substitutionsOf: Substitutions = releaseSubstitutions) =>
    run(planGitHub(RELEASE_WORKFLOW, tagPush(tag), secrets, vars), {
      checkout: releaseCheckout,
      substitutions: substitutionsOf,
    });

  it("starts on a pushed tag v*, and nothing else starts on one", () => {
    expect(
      planGitHub(RELEASE_WORKFLOW, tagPush(TAG), secrets, vars).map((job) => ({
        name: job.name,
        environment: job.definition.environment,
        permissions: job.definition.permissions,
        group: job.expand(job.definition.concurrency.group),
        cancel: job.definition.concurrency["cancel-in-progress"],
      })),
    ).toEqual([
      {
        name: `release ${TAG}`,
        environment: "release",
        permissions: { contents: "write", "id-token": "write" },
        group: `release-${TAG}`,
        cancel: false,
      },
    ]);
    for (const name of ["push", "pull_request", "schedule"] as const)
      expect(planGitHub(RELEASE_WORKFLOW, githubEvent(name), secrets, vars)).toEqual([]);
    for (const file of [WORKFLOW, PYTHON_WORKFLOW])
      expect(planGitHub(file, tagPush(TAG), secrets, vars)).toEqual([]);
  });

  it("on the tag of package.json's version: checks the release's checksums and publishes every file of it", async () => {
    const [result] = Object.values(await runRelease(TAG));
    expect(outcome(result)).toEqual({ job: `release ${TAG}`, code: 0 });
    expect(result.ran).toEqual([
      CHECK,
      "Make the release",
      "Verify the checksums",
      "Publish the GitHub release",
      "Publish the npm packages",
      "Gather the Python packages",
      "Publish the Python packages",
    ]);
    expect(result.skipped).toEqual([
      ...skipped("npm ci", "bash scripts/engine.sh", "npm run release", githubRelease, npmPublish),
      `Publish the Python packages: ${releaseSubstitutions["pypa/gh-action-pypi-publish@release/v1"].reason}`,
    ]);
    // `sha256sum -c SHA256SUMS` checked every file the release lists.
    expect(lines(result.output, /: (OK|FAILED)$/)).toEqual(Object.keys(sums).map((name) => `${name}: OK`));

    const names = Object.keys(sums);
    const flat = names.filter((name) => !name.includes("/"));
    const go = names.filter((name) => name.startsWith("go/"));
    expect([...flat, ...go].sort()).toEqual([...names].sort());
    const zip = `../pulumi-vendor-container-sdk-go-${TAG}.zip`;
    const workspace = result.workspace;
    const notes = path.join(workspace, "release-notes.md");
    const [github, sdk, pkg, pypi, ...more] = published();
    expect(more).toEqual([]);
    expect(github).toEqual({
      tool: "gh",
      cwd: path.join(workspace, "dist/release"),
      args: [
        ...[
          "release",
          "create",
          TAG,
          "--verify-tag",
          "--title",
          TAG,
          "--notes-file",
          "../../release-notes.md",
        ],
        ...[...flat, "SHA256SUMS"].sort(),
        zip,
      ],
      tokens: { GH_TOKEN: secrets.GITHUB_TOKEN },
      files: {
        "../../release-notes.md": sha256(notes),
        ...Object.fromEntries(flat.map((name) => [name, sums[name]])),
        SHA256SUMS: sha256(path.join(releaseDir, "SHA256SUMS")),
        [zip]: sha256(path.join(workspace, "dist/release", zip)),
      },
    });
    // The notes: the version's section of the changelog.
    const changelog = fs.readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8").split("\n");
    const start = changelog.indexOf(`## ${VERSION}`);
    const end = changelog.findIndex((line, at) => at > start && line.startsWith("## "));
    expect(start).toBeGreaterThan(0);
    expect(fs.readFileSync(notes, "utf8")).toBe(`${changelog.slice(start + 1, end).join("\n")}\n`);
    // The zip holds the go/ layout under its own paths, which SHA256SUMS checks once unzipped beside it.
    const unzipped = path.join(s.dir, "go-zip");
    fs.mkdirSync(unzipped);
    execFileSync("unzip", ["-q", path.join(workspace, "dist", path.basename(zip)), "-d", unzipped]);
    fs.copyFileSync(path.join(releaseDir, "SHA256SUMS"), path.join(unzipped, "SHA256SUMS"));
    const checked = execFileSync("sha256sum", ["-c", "--ignore-missing", "SHA256SUMS"], {
      cwd: unzipped,
      encoding: "utf8",
    });
    expect(checked.trim().split("\n")).toEqual(go.map((name) => `${name}: OK`));
    const unzippedFiles = execFileSync("find", ["go", "-type", "f"], { cwd: unzipped, encoding: "utf8" });
    expect(unzippedFiles.trim().split("\n").sort()).toEqual([...go].sort());

    const sdkTarball = `pulumi-vendor-container-sdk-${VERSION}.tgz`;
    expect([sdk, pkg]).toEqual([
      {
        tool: "npm",
        cwd: workspace,
        args: ["publish", "--access", "public", `dist/release/${sdkTarball}`],
        tokens: { NODE_AUTH_TOKEN: secrets.NPM_TOKEN },
        files: { [`dist/release/${sdkTarball}`]: sums[sdkTarball] },
      },
      {
        tool: "npm",
        cwd: workspace,
        args: ["publish"],
        tokens: { NODE_AUTH_TOKEN: secrets.NPM_TOKEN },
        files: {},
      },
    ]);
    const manifest = (text: string) => {
      const { name, version } = JSON.parse(text) as { name: string; version: string };
      return { name, version };
    };
    const tarball = path.join(releaseDir, sdkTarball);
    const inTarball = execFileSync("tar", ["-xOzf", tarball, "package/package.json"], { encoding: "utf8" });
    expect([
      manifest(inTarball),
      manifest(fs.readFileSync(path.join(workspace, "package.json"), "utf8")),
    ]).toEqual([
      { name: "@pulumi-vendor-container/sdk", version: VERSION },
      { name: "pulumi-vendor-container", version: VERSION },
    ]);

    const wheel = `pulumi_vendor_container-${VERSION}-py3-none-any.whl`;
    const sdist = `pulumi_vendor_container-${VERSION}.tar.gz`;
    expect(pypi).toEqual({
      tool: "pypi",
      cwd: workspace,
      args: ["dist/pypi/"],
      tokens: {},
      files: { "dist/pypi/": { [wheel]: sums[wheel], [sdist]: sums[sdist] } },
    });
  });

  it("stops before publishing anything when a file of the release does not match SHA256SUMS", async () => {
    const corrupt = {
      ...releaseSubstitutions,
      "npm run release": {
        instead: `${copyRelease} && printf x >>dist/release/schema.json`,
        reason: "makes the release: the suite's own is copied in, and one byte added to its schema.json",
      },
    };
    const [result] = Object.values(await runRelease(TAG, corrupt));
    expect(outcome(result)).toEqual({ job: `release ${TAG}`, code: 1, failedStep: "Verify the checksums" });
    expect(result.ran).toEqual([CHECK, "Make the release", "Verify the checksums"]);
    expect(lines(result.output, /: FAILED$|did NOT match/)).toEqual([
      "schema.json: FAILED",
      "sha256sum: WARNING: 1 computed checksum did NOT match",
    ]);
    expect(published()).toEqual([]);
  });

  it("refuses a tag that is not package.json's version, before anything is built", async () => {
    const [major, minor, patch] = VERSION.split(".").map(Number);
    const tag = `v${major}.${minor}.${patch + 1}`;
    const [result] = Object.values(await runRelease(tag));
    expect(outcome(result)).toEqual({ job: `release ${tag}`, code: 1, failedStep: CHECK });
    expect(result.ran).toEqual([CHECK]);
    expect(lines(result.output, /::error::/)).toEqual([
      `::error::the tag ${tag} is not package.json's version, v${VERSION}`,
    ]);
    expect(fs.existsSync(path.join(result.workspace, "dist"))).toBe(false);
    expect(published()).toEqual([]);
  });
});

it("prints no credential in any job: neither the client secret, the passphrase nor a publishing token", () => {
  const printed = s.cliOutput.join("\n");
  expect(printed).toContain("Previewing update (dev)");
  const credentials = ["VENDOR_CLIENT_SECRET", "PULUMI_CONFIG_PASSPHRASE", "GITHUB_TOKEN", "NPM_TOKEN"];
  expect(credentials.filter((name) => printed.includes(secrets[name]))).toEqual([]);
});
