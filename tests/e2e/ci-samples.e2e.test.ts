/**
 * The CI samples of `examples/ci-pipeline` run as their CI would run them, so that neither can rot:
 * `workflow.yml` (GitHub Actions) and `gitlab-ci.yml` (GitLab CI) are parsed, the jobs an event starts are
 * chosen by their own `if:` and `rules:`, and each job's commands run in order with bash, with the variables,
 * folders, matrix values and expressions the CI would give them, through the engine in `.tools/bin` against
 * this file's emulator. Both samples deploy the same stacks to one backend, one after the other: GitHub's
 * jobs create them, GitLab's find them deployed. The Python variant (`workflow-python.yml`) deploys the program
 * in `python/` on the provider plugin through its generated Python SDK, to stacks of its own.
 *
 * What cannot run offline is stood in for, each with its reason in the job's result: the checkout and
 * setup-node actions, and the installs from the npm registry (the lockfiles those installs need are checked
 * against their package.json instead); for the Python variant, the setup-python action, the generation of the
 * Python SDK and its `pip install`, which the suite's setup did (global-setup.ts). The CLI install script runs as written: it finds the pinned version
 * already on PATH (the engine's), as it would on a runner image that ships it.
 */
import fs from "node:fs";
import path from "node:path";
import { BIN, E2E_ROOT, PYTHON_SDK_DIR, ROOT, engineVersion } from "./support/engine";
import { PROJECT, POLL_MS, openSuite, type Suite } from "./support/suite";
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
/** The folders whose dependencies the samples install with `npm ci`. */
const NPM_CI_FOLDERS = [".", "examples/ci-pipeline", "examples/environments"];
/** The Python variant's program, whose `npm ci` installs the provider plugin. */
const PYTHON_FOLDER = "examples/ci-pipeline/python";

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
  // The provider plugin the Python variant's Pulumi.yaml finds there, as npm links it.
  const plugin = "pulumi-resource-vendor-container";
  fs.symlinkSync(fs.realpathSync(path.join(installed, ".bin", plugin)), path.join(modules, ".bin", plugin));
  substitutions = {
    "npm ci && npm run build": {
      instead: null,
      reason:
        "builds this package for the examples' file:../.. dependency: the e2e command built it, and the " +
        "suite's setup installed it packed",
    },
    "bash scripts/engine.sh && bash scripts/sdks.sh python": {
      instead: null,
      reason: "generates the Python SDK: the suite's setup built the engine and generated it",
    },
    "pip install -r requirements.txt": {
      instead: null,
      reason:
        "installs from PyPI and the checkout: the engine's virtualenv has pulumi, and the suite's setup " +
        "installed the generated SDK where the program imports it (PYTHONPATH)",
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
    // Where `pip install -r requirements.txt` would have put the generated Python SDK (stood in for above).
    PYTHONPATH: PYTHON_SDK_DIR,
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
    VENDOR_CLIENT_ID: "emulator-client",
    VENDOR_CLIENT_SECRET: "emulator-secret",
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
/**
 * Runs jobs, keeping every line for the secret search, and resolves with their results by name. Jobs the CI
 * starts at the same time (a matrix without `max-parallel: 1`, the jobs of one GitLab stage) run at the same
 * time here too (`together`); otherwise one after the other, in order.
 */
async function run(jobs: PlannedJob[], together = false): Promise<Record<string, JobResult>> {
  const runOne = async (job: PlannedJob) => {
    const name = `${++jobRuns}-${job.name.replace(/\W+/g, "-")}`;
    const result = await runJob(job, checkout(name), runnerEnv, substitutions);
    s.cliOutput.push(result.output);
    // Kept with the suite's folder (E2E_KEEP=1) to read what a job printed.
    fs.mkdirSync(path.join(s.dir, "jobs"), { recursive: true });
    fs.writeFileSync(path.join(s.dir, "jobs", `${name}.log`), result.output);
    return result;
  };
  const results: JobResult[] = [];
  if (together) results.push(...(await Promise.all(jobs.map(runOne))));
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

const INSTALLED = () => `pulumi ${engineVersion()} is already installed: ${path.join(BIN, "pulumi")}`;
/** The version of the policy pack the installed package ships. */
const PACK_VERSION: string = JSON.parse(
  fs.readFileSync(path.join(E2E_ROOT, "node_modules/pulumi-vendor-container/policy/package.json"), "utf8"),
).version;
/**
 * Asserts that the policy pack ran `times` times in a job (once for a preview, twice for an `up`: its preview
 * and the update) and reported nothing: the CLI lists the packs it ran, and prints every violation, advisory
 * or mandatory, as `[level]  rule`.
 */
function expectPolicyPassed(output: string, times: number): void {
  expect(lines(output, /^vendor-container\|local\|/)).toEqual(
    Array.from(
      { length: times },
      () =>
        `vendor-container|local|node_modules/pulumi-vendor-container/policy/run-policy-pack  ${PACK_VERSION}`,
    ),
  );
  expect(lines(output, /\[(advisory|mandatory)\]/)).toEqual([]);
}

describe("what the samples install", () => {
  it("pins one Pulumi CLI in one script that every job of both samples runs, at the engine's version", () => {
    const script = fs.readFileSync(path.join(SAMPLES, "install-pulumi.sh"), "utf8");
    expect(`v${/^PULUMI_VERSION=(\S+)$/m.exec(script)?.[1]}`).toBe(engineVersion());
    const github = (["pull_request", "push", "schedule"] as const).flatMap((name) =>
      planGitHub(WORKFLOW, githubEvent(name), secrets, vars),
    );
    expect(
      github.map((job) => job.steps.find((step) => step.name === "Install the Pulumi CLI")?.commands),
    ).toEqual(
      github.map((job) => [
        job.key === "pr-environment" ? "sh ../ci-pipeline/install-pulumi.sh" : "sh install-pulumi.sh",
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

  it.each([...NPM_CI_FOLDERS, PYTHON_FOLDER])(
    "commits the lockfile that `npm ci` in %s needs, matching its package.json",
    (folder) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, folder, "package.json"), "utf8"));
      const lock = JSON.parse(fs.readFileSync(path.join(ROOT, folder, "package-lock.json"), "utf8"));
      expect(lock.packages[""].dependencies ?? {}).toEqual(manifest.dependencies ?? {});
      expect(lock.packages[""].devDependencies ?? {}).toEqual(manifest.devDependencies ?? {});
      if (folder !== ".") {
        // The package comes from the checkout, copied in (`install-links`), so one @pulumi/pulumi serves both
        // the program and the dynamic provider; the lockfile was written that way, for the package as it is
        // now (after a release, `npm install --package-lock-only` in the folder, without the old lockfile,
        // writes it again).
        const root = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
        const entry = lock.packages["node_modules/pulumi-vendor-container"];
        expect({
          resolved: entry.resolved,
          version: entry.version,
          dependencies: entry.dependencies,
        }).toEqual({
          resolved: `file:${path.relative(path.join(ROOT, folder), ROOT)}`,
          version: root.version,
          dependencies: root.dependencies,
        });
        expect(fs.readFileSync(path.join(ROOT, folder, ".npmrc"), "utf8")).toMatch(/^install-links=true$/m);
      }
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

/** The GitHub event of each scenario: pull request 7 opened (or closed), a push to main, the schedule. */
function githubEvent(name: GitHubEvent["name"], action = "opened"): GitHubEvent {
  return name === "pull_request"
    ? { name, ref: "refs/pull/7/merge", payload: { action, number: 7 } }
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
    const results = await run(jobs, true);
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

  it("on the schedule: the drift check passes, then fails after a change made outside Pulumi", async () => {
    const jobs = planGitHub(WORKFLOW, githubEvent("schedule"), secrets, vars);
    expect(jobs.map((job) => job.name)).toEqual(["drift dev", "drift prod"]);
    const green = await run(jobs, true);
    expect(Object.values(green).map(outcome)).toEqual(jobs.map((job) => ({ job: job.name, code: 0 })));
    expect(lines(green["drift dev"].output, /unchanged$/)).toEqual(["3 unchanged"]);
    // Someone resizes dev's pool in the service's console.
    const dev = s.emulator.emulator.state().kaas.find((k) => k.metadata.name === "dev-cluster")!;
    s.emulator.emulator.scaleNodePool(dev.metadata.id as string, "system", 3);
    // dev's job again (prod's, unchanged, passed just above; GitLab's scheduled pipeline below runs both while
    // dev differs). 7: the CLI's exit code for changes where none were expected.
    const red = await run(jobs.slice(0, 1));
    expect(Object.values(red).map(outcome)).toEqual([
      { job: "drift dev", code: 7, failedStep: "Check for drift" },
    ]);
    expectDrift(red["drift dev"].output);
  });
});

describe("gitlab-ci.yml (GitLab CI)", () => {
  it("in a merge request pipeline: previews dev and prod with the policy pack, and creates its environment", async () => {
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
    // The preview stage's jobs start together, then the review stage's; the manual job waits.
    const results = {
      ...(await run(
        jobs.filter((job) => job.key === "preview"),
        true,
      )),
      ...(await run(jobs.filter((job) => job.key === "pr-environment"))),
    };
    expect(Object.values(results).map(outcome)).toEqual([
      { job: "preview: [dev]", code: 0 },
      { job: "preview: [prod]", code: 0 },
      { job: "pr-environment", code: 0 },
    ]);
    for (const stack of ["dev", "prod"]) {
      const result = results[`preview: [${stack}]`];
      expect(result.skipped).toEqual(INSTALLS_SKIPPED(1));
      expect(result.output).toContain(INSTALLED());
      expectPolicyPassed(result.output, 1);
      // GitHub's jobs deployed both stacks already: nothing to change.
      expect(lines(result.output, /unchanged$/)).toEqual(["3 unchanged"]);
    }
    expect(lines(results["pr-environment"].output, /^pr-8: /)).toEqual([
      "pr-8: platform: 3 create",
      "pr-8: app: 2 create",
    ]);
    // The environment's stop job, as GitLab runs it when the merge request is merged or closed.
    const [stopped] = Object.values(await run([stop]));
    expect(outcome(stopped)).toEqual({ job: "pr-environment-stop", code: 0 });
    expect(lines(stopped.output, /^pr-8: /)).toEqual([
      "pr-8: app: 2 delete, 1 discard",
      "pr-8: platform: 3 delete",
      "pr-8: destroyed, stacks removed",
    ]);
  });

  it("on the default branch: `up` of dev, then prod by a manual job of the protected environment, one per stack", async () => {
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
    // up:dev runs; up:prod once someone allowed to deploy prod runs it.
    const results = await run(jobs);
    expect(Object.values(results).map(outcome)).toEqual(jobs.map((job) => ({ job: job.name, code: 0 })));
    for (const result of Object.values(results)) {
      expectPolicyPassed(result.output, 2);
      expect(lines(result.output, /unchanged$/)).toEqual(["3 unchanged", "3 unchanged"]);
    }
  });

  it("in a scheduled pipeline: the drift check fails while dev differs from its program, and passes once it agrees", async () => {
    const jobs = planGitLab(GITLAB, gitlabVariables("schedule"));
    expect(jobs.map((job) => job.name)).toEqual(["drift: [dev]", "drift: [prod]"]);
    // dev's pool is still resized (previous test); prod is as deployed.
    const red = await run(jobs, true);
    expect(Object.values(red).map(outcome)).toEqual([
      { job: "drift: [dev]", code: 7, failedStep: "drift" },
      { job: "drift: [prod]", code: 0 },
    ]);
    expectDrift(red["drift: [dev]"].output);
    const dev = s.emulator.emulator.state().kaas.find((k) => k.metadata.name === "dev-cluster")!;
    s.emulator.emulator.scaleNodePool(dev.metadata.id as string, "system", 2);
    const green = await run(jobs.slice(0, 1));
    expect(Object.values(green).map(outcome)).toEqual([{ job: "drift: [dev]", code: 0 }]);
    expect(lines(green["drift: [dev]"].output, /unchanged$/)).toEqual(["3 unchanged"]);
  });
});

describe("workflow-python.yml (GitHub Actions, the Python variant)", () => {
  const pythonSkipped = () => [
    ...STEPS_SKIPPED,
    "Set up Python: Python is the engine's virtualenv (.tools/python, which the CLI runs programs with: PULUMI_PYTHON_CMD)",
    ...["npm ci && npm run build", "bash scripts/engine.sh && bash scripts/sdks.sh python", "npm ci"].map(
      (command) => `${command}: ${substitutions[command].reason}`,
    ),
    `pip install -r requirements.txt: ${substitutions["pip install -r requirements.txt"].reason}`,
  ];
  const INSTALL_STEPS = ["Install the Pulumi CLI", "Install the provider plugin"];

  it("on a merge to main: runs `up` for dev then prod on the plugin through the Python SDK, with the policy pack", async () => {
    const jobs = planGitHub(PYTHON_WORKFLOW, githubEvent("push"), secrets, vars);
    expect(jobs.map((job) => job.name)).toEqual(["up dev (Python)", "up prod (Python)"]);
    expect(jobs.map((job) => job.expand(job.definition.concurrency.group))).toEqual([
      "pulumi-python-dev",
      "pulumi-python-prod",
    ]);
    const results = await run(jobs);
    expect(Object.values(results).map(outcome)).toEqual(jobs.map((job) => ({ job: job.name, code: 0 })));
    for (const result of Object.values(results)) {
      expect(result.skipped).toEqual(pythonSkipped());
      expect(result.ran).toEqual([...INSTALL_STEPS, "Select the stack", "Up"]);
      expect(result.output).toContain(INSTALLED());
      expectPolicyPassed(result.output, 2);
      expect(lines(result.output, /created$/)).toEqual(["+ 3 created"]);
    }
    s.emulator.emulator.advanceClock(60_000);
    const python = Object.entries(clusters()).filter(([name]) => name.includes("-python-"));
    expect(Object.fromEntries(python)).toEqual({
      "dev-python-cluster": ["system=2"],
      "prod-python-cluster": ["system=2"],
    });
  });

  it("on the schedule: the drift check of both stacks finds nothing to change", async () => {
    const jobs = planGitHub(PYTHON_WORKFLOW, githubEvent("schedule"), secrets, vars);
    expect(jobs.map((job) => job.name)).toEqual(["drift dev (Python)", "drift prod (Python)"]);
    const results = await run(jobs, true);
    expect(Object.values(results).map(outcome)).toEqual(jobs.map((job) => ({ job: job.name, code: 0 })));
    for (const result of Object.values(results)) {
      expect(result.ran).toEqual([...INSTALL_STEPS, "Check for drift"]);
      expect(lines(result.output, /unchanged$/)).toEqual(["3 unchanged"]);
    }
  });
});

it("prints no credential in any job: neither the client secret nor the passphrase", () => {
  const printed = s.cliOutput.join("\n");
  expect(printed).toContain("Previewing update (dev)");
  expect(
    [secrets.VENDOR_CLIENT_SECRET, secrets.PULUMI_CONFIG_PASSPHRASE].filter((x) => printed.includes(x)),
  ).toEqual([]);
});
