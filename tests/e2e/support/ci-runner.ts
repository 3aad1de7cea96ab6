/**
 * A small runner of the CI samples in `examples/ci-pipeline` (`workflow.yml`, `workflow-python.yml` and
 * `release.yml` for GitHub Actions, `gitlab-ci.yml` for GitLab CI): it decides which jobs an event starts,
 * expands their matrices, variables and expressions as the CI does, and runs each job's commands in order with
 * bash, in a copy of the repository. It knows only the parts of either syntax the samples use, and throws on
 * anything else (an unknown expression, a matrix `include`, a `paths` filter), so a sample cannot use a construct
 * the tests do not run.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";

/** Parsed YAML of a CI file: its shape is whatever the sample says, checked where it is used. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Yaml = any;

/** A value an expression reads or yields. */
type Value = string | number | boolean | null | Record<string, unknown>;

/**
 * Evaluates a CI expression: GitHub's `github.event_name == 'push' && github.ref != 'refs/heads/main'`, or a
 * GitLab rule's `$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH`: `==`, `!=`, `&&`,
 * `||`, `!`, parentheses, quoted strings, numbers, and names resolved by `lookup` (a property path such as
 * `github.event.number`, or a `$VARIABLE`).
 */
export function evaluate(expression: string, lookup: (name: string) => Value | undefined): Value {
  const tokens =
    expression.match(/\s*(==|!=|&&|\|\||!|\(|\)|'[^']*'|"[^"]*"|\$?[A-Za-z_][\w.-]*|\d+|\S)/g) ?? [];
  let at = 0;
  const peek = () => tokens[at]?.trim();
  const next = () => tokens[at++]?.trim();
  const truthy = (v: Value) => v !== null && v !== false && v !== "" && v !== 0;
  const primary = (): Value => {
    const token = next();
    if (token === undefined) throw new Error(`expression ends early: ${expression}`);
    if (token === "(") {
      const value = or();
      if (next() !== ")") throw new Error(`missing ) in ${expression}`);
      return value;
    }
    if (token === "!") return !truthy(primary());
    if (/^'.*'$|^".*"$/.test(token)) return token.slice(1, -1);
    if (/^\d+$/.test(token)) return Number(token);
    if (token === "true" || token === "false") return token === "true";
    if (token === "null") return null;
    if (/^\$?[A-Za-z_]/.test(token)) {
      const value = lookup(token);
      return value === undefined ? null : value;
    }
    throw new Error(`unexpected "${token}" in ${expression}`);
  };
  const comparison = (): Value => {
    const left = primary();
    const op = peek();
    if (op !== "==" && op !== "!=") return left;
    next();
    const right = primary();
    const equal = left === null || right === null ? left === right : String(left) === String(right);
    return op === "==" ? equal : !equal;
  };
  const and = (): Value => {
    let value = comparison();
    while (peek() === "&&") {
      next();
      const right = comparison();
      value = truthy(value) ? right : value;
    }
    return value;
  };
  const or = (): Value => {
    let value = and();
    while (peek() === "||") {
      next();
      const right = and();
      value = truthy(value) ? value : right;
    }
    return value;
  };
  const value = or();
  if (at !== tokens.length) throw new Error(`unexpected "${peek()}" in ${expression}`);
  return value;
}

/** True when an expression's value counts as true. */
const isTrue = (v: Value) => v !== null && v !== false && v !== "" && v !== 0;

/** Every combination of a matrix's values: `{stack: [dev, prod]}` gives `[{stack: dev}, {stack: prod}]`. */
export function combinations(matrix: Record<string, unknown>): Record<string, string>[] {
  let result: Record<string, string>[] = [{}];
  for (const [key, values] of Object.entries(matrix)) {
    if (!Array.isArray(values))
      throw new Error(`matrix key ${key} is not a list (include/exclude not supported)`);
    result = result.flatMap((combination) => values.map((v) => ({ ...combination, [key]: String(v) })));
  }
  return result;
}

/** One job of a run: its name as the CI shows it, the variables it was given, and its commands. */
export interface PlannedJob {
  /** `up dev`, `up:prod`, `drift: [dev]`... */
  name: string;
  /** The job's own key in the file. */
  key: string;
  /** The matrix values of this instance. */
  matrix: Record<string, string>;
  /** The job's definition, `extends` resolved, for assertions on its settings. */
  definition: Yaml;
  /** Expands `${{ }}` (GitHub) or `$VARIABLE` (GitLab) in a setting of this job. */
  expand(text: string): string;
  /** The blocks of commands to run in order, each in its folder with its variables. */
  steps: PlannedStep[];
  /** GitLab `when: manual`: the job waits for someone to run it. */
  manual: boolean;
}

/** A block of commands: a GitHub step's `run:`, or a GitLab job's `before_script` and `script` lines. */
export interface PlannedStep {
  name: string;
  /** The action a GitHub step uses (`actions/setup-node@v4`), with its version. */
  uses?: string;
  /** The runner's reason not to run this action (what it provides is here already), or undefined. */
  skip?: string;
  /** Folder relative to the repository root. */
  workingDirectory: string;
  env: Record<string, string>;
  commands: string[];
  /**
   * The options bash runs them with: GitHub's default for a step without `shell:` (`bash -e`), GitLab's
   * (`set -eo pipefail`).
   */
  bashOptions: string[];
}

/** The event a run answers: what the CI would set for it. */
export interface GitHubEvent {
  name: "pull_request" | "push" | "schedule" | "workflow_dispatch";
  ref: string;
  /** The `github.event` payload: `action` and `number` of a pull request. */
  payload: Record<string, unknown>;
}

/**
 * Steps of GitHub Actions that cannot run here, by the action they use, with the reason they need not: what
 * the action provides is on the machine already. A test gives an action a stand-in of its own by its `uses:`
 * text in the substitutions of `runJob`; an action in neither fails the job's run.
 */
const GITHUB_ACTIONS_SKIPPED: Record<string, string> = {
  "actions/checkout": "the test runs in a copy of the repository's folders instead of a fresh checkout",
  "actions/setup-node": "Node.js 22 is the engine's own (.tools/bin/node, first on PATH)",
  "actions/setup-python":
    "Python is the engine's virtualenv (.tools/python, which the CLI runs programs with: PULUMI_PYTHON_CMD)",
  "actions/setup-go": "Go is the machine's own (`go` on PATH)",
};

/**
 * A filter of GitHub's `branches:` or `tags:` as a regular expression: `*` matches any characters but `/`,
 * `**` any at all. The other special characters (`?`, `+`, `[]`, `!`) throw.
 */
function refPattern(pattern: string): RegExp {
  if (/[?+[\]!]/.test(pattern)) throw new Error(`ref filter ${pattern} is not supported`);
  const source = pattern
    .split("**")
    .map((part) =>
      part
        .split("*")
        .map((text) => text.replace(/[.^$()|{}]/g, "\\$&"))
        .join("[^/]*"),
    )
    .join(".*");
  return new RegExp(`^${source}$`);
}

/**
 * Whether a workflow's `on:` starts a run for `event`: its name is listed, and for a push, the ref matches the
 * `branches:` filter (a branch) or the `tags:` filter (a tag); a push of a tag to a workflow that filters only
 * branches, or of a branch to one that filters only tags, starts nothing, as on GitHub. A pull request's
 * `types:` (by default opened, synchronize, reopened) must list its action. Other filters (`paths`, `branches-ignore`, a pull request's `branches`) throw.
 */
export function triggers(on: Yaml, event: GitHubEvent): boolean {
  const events: Record<string, Yaml> =
    typeof on === "string"
      ? { [on]: null }
      : Array.isArray(on)
        ? Object.fromEntries(on.map((name: string) => [name, null]))
        : on;
  if (!(event.name in events)) return false;
  // A schedule's value is its list of crons; workflow_dispatch's, its inputs.
  if (event.name === "schedule" || event.name === "workflow_dispatch") return true;
  const filters: Record<string, Yaml> = events[event.name] ?? {};
  const known = event.name === "push" ? ["branches", "tags"] : ["types"];
  const unknown = Object.keys(filters).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw new Error(`on.${event.name}: ${unknown.join(", ")} not supported`);
  // Without `types:`, GitHub starts a pull request's run for these three.
  if (event.name === "pull_request")
    return ((filters.types as string[]) ?? ["opened", "synchronize", "reopened"]).includes(
      String(event.payload.action),
    );
  if (filters.branches === undefined && filters.tags === undefined) return true;
  const [kind, name] = event.ref.startsWith("refs/tags/")
    ? ["tags", event.ref.slice("refs/tags/".length)]
    : ["branches", event.ref.replace(/^refs\/heads\//, "")];
  const patterns = filters[kind] as string[] | undefined;
  return patterns !== undefined && patterns.some((pattern) => refPattern(pattern).test(name));
}

/** GitHub's `github.ref_name`: the branch or tag of the ref, or a pull request's `<number>/merge`. */
const refName = (ref: string) => ref.replace(/^refs\/(heads|tags|pull)\//, "");

/**
 * The jobs of a GitHub Actions workflow that `event` starts (none when its `on:` does not list the event),
 * each matrix instance apart, in file order.
 */
export function planGitHub(
  file: string,
  event: GitHubEvent,
  secrets: Record<string, string>,
  vars: Record<string, string>,
): PlannedJob[] {
  const workflow = parseYaml(fs.readFileSync(file, "utf8")) as Yaml;
  if (!triggers(workflow.on, event)) return [];
  const jobs = workflow.jobs as Record<string, Yaml>;
  const github = {
    event_name: event.name,
    ref: event.ref,
    ref_name: refName(event.ref),
    event: event.payload,
  };
  const planned: PlannedJob[] = [];
  for (const [key, job] of Object.entries(jobs)) {
    for (const matrix of combinations(job.strategy?.matrix ?? {})) {
      const context: Record<string, unknown> = { github, matrix, secrets, vars, env: {} };
      const lookup = (name: string): Value | undefined => {
        const [root, ...rest] = name.split(".");
        if (!(root in context)) throw new Error(`unknown context ${root} in ${name}`);
        let value: unknown = context[root];
        for (const part of rest) value = (value as Record<string, unknown> | null)?.[part];
        return value as Value | undefined;
      };
      const expand = (text: string) =>
        String(text).replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expr: string) => {
          const value = evaluate(expr, lookup);
          return value === null ? "" : String(value);
        });
      const condition = (text: unknown) =>
        text === undefined || isTrue(evaluate(String(text).replace(/^\$\{\{\s*|\s*\}\}$/g, ""), lookup));
      if (!condition(job.if)) continue;
      const expandAll = (env: Record<string, unknown> = {}) =>
        Object.fromEntries(Object.entries(env).map(([k, v]) => [k, expand(String(v))]));
      const jobEnv = { ...expandAll(workflow.env), ...expandAll(job.env) };
      context.env = jobEnv;
      const defaultDirectory =
        job.defaults?.run?.["working-directory"] ?? workflow.defaults?.run?.["working-directory"] ?? ".";
      const steps: PlannedStep[] = [];
      for (const step of job.steps as Yaml[]) {
        if (!condition(step.if)) continue;
        const name = expand(step.name ?? step.uses ?? step.run);
        const env = { ...jobEnv, ...expandAll(step.env) };
        if (step.uses) {
          const uses = String(step.uses);
          // The runner gives an action its inputs as INPUT_<NAME> variables (`packages-dir`: INPUT_PACKAGES-DIR).
          const inputs = Object.fromEntries(
            Object.entries(expandAll(step.with)).map(([k, v]) => [
              `INPUT_${k.replace(/ /g, "_").toUpperCase()}`,
              v,
            ]),
          );
          steps.push({
            name,
            uses,
            skip: GITHUB_ACTIONS_SKIPPED[uses.replace(/@.*$/, "")],
            workingDirectory: ".",
            env: { ...env, ...inputs },
            commands: [],
            bashOptions: ["-e"],
          });
          continue;
        }
        if (step.shell !== undefined)
          throw new Error(`step "${name}" sets a shell, which the runner does not run`);
        steps.push({
          name,
          workingDirectory: expand(step["working-directory"] ?? defaultDirectory),
          env,
          commands: [expand(step.run)],
          bashOptions: ["-e"],
        });
      }
      const values = Object.values(matrix);
      planned.push({
        name: job.name ? expand(job.name) : values.length > 0 ? `${key} (${values.join(", ")})` : key,
        key,
        matrix,
        definition: job,
        expand,
        steps,
        manual: false,
      });
    }
  }
  return planned;
}

/** Resolves GitLab's `extends`: hashes merged deeply, anything else replaced by the extending job. */
function resolveExtends(all: Yaml, job: Yaml): Yaml {
  if (!job.extends) return job;
  const parents = Array.isArray(job.extends) ? job.extends : [job.extends];
  const merge = (base: Yaml, over: Yaml): Yaml => {
    if (
      base &&
      over &&
      typeof base === "object" &&
      typeof over === "object" &&
      !Array.isArray(base) &&
      !Array.isArray(over)
    ) {
      const out: Yaml = { ...base };
      for (const [k, v] of Object.entries(over)) out[k] = merge(base[k], v);
      return out;
    }
    return over === undefined ? base : over;
  };
  let resolved: Yaml = {};
  for (const parent of parents) resolved = merge(resolved, resolveExtends(all, all[parent]));
  const { extends: _ignored, ...own } = job;
  return merge(resolved, own);
}

/** Keys of a GitLab CI file that are not jobs. */
const GITLAB_GLOBAL_KEYS = new Set([
  "workflow",
  "stages",
  "default",
  "variables",
  "include",
  "image",
  "services",
]);

/**
 * The jobs of a GitLab CI file that a pipeline with `variables` (the predefined `CI_*` ones of the event) runs,
 * each matrix instance apart, in file order; a `when: manual` job is included and marked `manual`.
 */
export function planGitLab(file: string, variables: Record<string, string>): PlannedJob[] {
  const config = parseYaml(fs.readFileSync(file, "utf8")) as Yaml;
  const global = { ...(config.variables ?? {}), ...variables };
  const lookupIn = (vars: Record<string, string>) => (name: string) =>
    name.startsWith("$")
      ? vars[name.slice(1)]
      : (() => {
          throw new Error(`not a variable: ${name}`);
        })();
  const ruleMatch = (rules: Yaml[] | undefined, vars: Record<string, string>) => {
    if (!rules) return { run: true, when: "on_success" };
    for (const rule of rules) {
      if (rule.if === undefined || isTrue(evaluate(rule.if, lookupIn(vars)))) {
        return { run: rule.when !== "never", when: rule.when ?? "on_success" };
      }
    }
    return { run: false, when: "never" };
  };
  if (!ruleMatch(config.workflow?.rules, global).run) return [];
  const planned: PlannedJob[] = [];
  for (const [key, raw] of Object.entries(config)) {
    if (GITLAB_GLOBAL_KEYS.has(key) || key.startsWith(".")) continue;
    const job = resolveExtends(config, raw as Yaml);
    const matrices: Record<string, string>[] = job.parallel?.matrix
      ? (job.parallel.matrix as Record<string, unknown>[]).flatMap((entry) => combinations(entry))
      : [{}];
    for (const matrix of matrices) {
      const vars: Record<string, string> = { ...global, ...(job.variables ?? {}), ...matrix };
      const { run, when } = ruleMatch(job.rules, vars);
      if (!run) continue;
      const expand = (text: string) =>
        String(text).replace(/\$\{?(\w+)\}?/g, (_, name: string) => vars[name] ?? "");
      const commands = [...(job.before_script ?? config.default?.before_script ?? []), ...(job.script ?? [])];
      const values = Object.values(matrix);
      planned.push({
        name: values.length > 0 ? `${key}: [${values.join(", ")}]` : key,
        key,
        matrix,
        definition: job,
        expand,
        steps: [
          {
            name: key,
            workingDirectory: ".",
            env: vars,
            commands: commands.map(String),
            bashOptions: ["-eo", "pipefail"],
          },
        ],
        manual: when === "manual",
      });
    }
  }
  return planned;
}

/** What a job's run printed and how it ended. */
export interface JobResult {
  job: string;
  /** The exit code of the step that ended the job: 0 when every step passed. */
  code: number | null;
  /** The step that failed, if one did. */
  failedStep?: string;
  /** The names of the steps run, and of those skipped with the reason. */
  ran: string[];
  skipped: string[];
  /** The PATH each step that ran had, by its name. */
  paths: Record<string, string>;
  /** Everything the commands printed, stdout and stderr in order. */
  output: string;
}

/**
 * Stand-ins for commands that cannot run here, by the exact command text, and for GitHub actions, by the exact
 * `uses:` text (`actions/setup-node@v4`, over the runner's own reason to skip it): what runs instead (null:
 * nothing), and why. An action's stand-in runs with its inputs as `INPUT_<NAME>` variables. A command not
 * listed runs as written.
 */
export type Substitutions = Record<string, { instead: string | null; reason: string }>;

/**
 * Runs a planned job in `workspace` (the copy of the repository): each step's commands with bash and the
 * options its CI uses, its variables over `baseEnv`, in its folder. A GitHub step's `run` is one
 * script; a GitLab job's lines run in one shell, so a `cd` or an `export` carries on to the next line. A
 * command listed in `substitutions` is replaced by its stand-in. GitHub's `$GITHUB_PATH` file is honoured:
 * what a step adds to it is on PATH for the later steps; `$RUNNER_TEMP` is a folder of the job's own
 * (`.runner-temp` in the workspace), empty when it starts.
 */
export async function runJob(
  job: PlannedJob,
  workspace: string,
  baseEnv: Record<string, string>,
  substitutions: Substitutions,
): Promise<JobResult> {
  const result: JobResult = { job: job.name, code: 0, ran: [], skipped: [], paths: {}, output: "" };
  const githubPath = path.join(workspace, `.github-path-${process.pid}`);
  fs.writeFileSync(githubPath, "");
  const runnerTemp = path.join(workspace, ".runner-temp");
  fs.rmSync(runnerTemp, { recursive: true, force: true });
  fs.mkdirSync(runnerTemp);
  let extraPath: string[] = [];
  try {
    for (const step of job.steps) {
      let script: string;
      if (step.uses !== undefined) {
        const standIn = substitutions[step.uses];
        const reason = standIn?.reason ?? step.skip;
        if (reason === undefined)
          throw new Error(
            `step "${step.name}" uses ${step.uses}, which neither the runner nor the test stands in for`,
          );
        result.skipped.push(`${step.name}: ${reason}`);
        script = standIn?.instead ?? "";
      } else {
        script = step.commands
          .flatMap((command) => {
            const substitution = substitutions[command.trim()];
            if (!substitution) return [command];
            result.skipped.push(`${command.trim()}: ${substitution.reason}`);
            return substitution.instead === null ? [] : [substitution.instead];
          })
          .join("\n");
      }
      // A step whose every command was stood in for without a replacement has nothing left to run.
      if (script.trim() === "") continue;
      const env = {
        ...baseEnv,
        ...step.env,
        GITHUB_PATH: githubPath,
        RUNNER_TEMP: runnerTemp,
        PATH: [...extraPath, baseEnv.PATH].join(path.delimiter),
      };
      const child = spawn("bash", ["--noprofile", "--norc", ...step.bashOptions, "-c", script], {
        cwd: path.join(workspace, step.workingDirectory),
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout.on("data", (chunk: Buffer) => (result.output += String(chunk)));
      child.stderr.on("data", (chunk: Buffer) => (result.output += String(chunk)));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      result.ran.push(step.name);
      result.paths[step.name] = env.PATH;
      extraPath = fs.readFileSync(githubPath, "utf8").split("\n").filter(Boolean).reverse();
      if (code !== 0) {
        result.code = code;
        result.failedStep = step.name;
        break;
      }
    }
  } finally {
    fs.rmSync(githubPath, { force: true });
  }
  return result;
}
