/**
 * The project and stack the provider process runs for. The engine tells a dynamic provider neither: it sets
 * the project (`PULUMI_PROJECT`) in the provider's environment, but not the stack, and the Node.js
 * dynamic-provider host passes no URN to any method (engine notes "The provider process and the order of
 * calls"). `pulumi destroy` does not run the program either, so the stack is read the way the CLI chose it,
 * in the CLI's own order: the `--stack` (`-s`) argument of the `pulumi` process that started this provider,
 * else `PULUMI_STACK`, else the stack the project's workspace has selected (`pulumi stack select`).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** What the resolution reads, injected so it can be tested without processes or files. */
export interface StackSources {
  env: NodeJS.ProcessEnv;
  /** The command line of each ancestor process, nearest first (this process's parent first). */
  ancestors: () => string[][];
  /** A file's text, or undefined when it cannot be read. */
  readFile: (file: string) => string | undefined;
  /** The program's folder (the provider process's working directory). */
  cwd: string;
  /** The state backend's identity (`backendIdentity`), which keys a workspace's selected stack. */
  backend: () => string;
  /** Normalises a backend URL the way `backendIdentity` does. */
  normalise: (url: string) => string;
}

/** The value of `--stack`/`-s` in a command line, or undefined. */
export function stackArgument(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--stack" || arg === "-s") return argv[i + 1];
    const inline = /^--stack=(.*)$/.exec(arg) ?? /^-s=?(.+)$/.exec(arg);
    if (inline) return inline[1];
  }
  return undefined;
}

/** The stack name of a stack reference: `org/project/stack` and `org/stack` name `stack`. */
export const stackNameOf = (reference: string): string => reference.split("/").pop() ?? reference;

/** True when `argv` is the Pulumi CLI's (`pulumi`, any folder). */
const isPulumiCli = (argv: readonly string[]): boolean =>
  argv.length > 0 && path.basename(argv[0]) === "pulumi";

/**
 * The stack the workspace of the project in `cwd` has selected, for the current backend: the file
 * `$PULUMI_HOME/workspaces/<project>-<sha1 of the Pulumi.yaml path>-workspace.json` the CLI writes.
 */
function selectedStack(project: string, sources: StackSources): string | undefined {
  const home = sources.env.PULUMI_HOME?.trim() || path.join(os.homedir(), ".pulumi");
  for (const manifest of ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(sources.cwd, f))) {
    const digest = createHash("sha1").update(manifest).digest("hex");
    const text = sources.readFile(path.join(home, "workspaces", `${project}-${digest}-workspace.json`));
    if (text === undefined) continue;
    try {
      const settings = JSON.parse(text) as { stack?: unknown; stacks?: Record<string, unknown> };
      const backend = sources.backend();
      const entries = Object.entries(settings.stacks ?? {}).filter(([, v]) => typeof v === "string");
      const forBackend = entries.find(([url]) => sources.normalise(url) === backend);
      const chosen = forBackend?.[1] ?? (entries.length === 1 ? entries[0][1] : settings.stack);
      if (typeof chosen === "string" && chosen !== "") return chosen;
    } catch {
      // An unreadable workspace file selects nothing.
    }
  }
  return undefined;
}

/**
 * `<project>/<stack>` of this run, or undefined when either cannot be read (then nothing is compared with
 * it: see `foreignOwner`).
 */
export function currentStackScope(sources: StackSources): string | undefined {
  const project = sources.env.PULUMI_PROJECT?.trim() || sources.env.PULUMI_NODEJS_PROJECT?.trim();
  if (!project) return undefined;
  const cli = sources.ancestors().find(isPulumiCli);
  const stack =
    (cli && stackArgument(cli)) || sources.env.PULUMI_STACK?.trim() || selectedStack(project, sources);
  return stack ? `${project}/${stackNameOf(stack)}` : undefined;
}

/**
 * The owner scope (`<project>/<stack>/<name>`) of an object when it names a stack other than `current`
 * (`<project>/<stack>`); undefined when it names this stack, or when either is unknown.
 */
export function foreignOwner(owner: string | undefined, current: string | undefined): string | undefined {
  if (owner === undefined || current === undefined) return undefined;
  const [project, stack] = owner.split("/");
  return `${project}/${stack}` === current ? undefined : owner;
}

/**
 * The command lines of this process's ancestors, nearest first, from `/proc`. Where there is no `/proc`
 * (macOS, Windows) the list is empty, and the stack comes from `PULUMI_STACK` or the workspace alone.
 */
function processAncestors(): string[][] {
  const lines: string[][] = [];
  let pid = process.ppid;
  for (let depth = 0; depth < 8 && pid > 1; depth++) {
    const proc = readProc(pid);
    if (!proc) break;
    lines.push(proc.argv);
    pid = proc.ppid;
  }
  return lines;
}

/** A process's command line and parent, or undefined where `/proc` does not show it. */
function readProc(pid: number): { argv: string[]; ppid: number } | undefined {
  try {
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name in parentheses may itself hold spaces or parentheses: the fields follow the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return { argv, ppid: Number.isFinite(ppid) ? ppid : 0 };
  } catch {
    return undefined;
  }
}

/** The sources of the running provider process. */
export function processStackSources(backend: () => string, normalise: (url: string) => string): StackSources {
  return {
    env: process.env,
    ancestors: processAncestors,
    readFile: (file) => {
      try {
        return fs.readFileSync(file, "utf8");
      } catch {
        return undefined;
      }
    },
    cwd: process.cwd(),
    backend,
    normalise,
  };
}
