/**
 * The project and stack the provider process runs for when no program says it. The engine tells a dynamic
 * provider neither: it sets the project (`PULUMI_PROJECT`) in the provider's environment, but not the stack,
 * and the Node.js dynamic-provider host passes no URN to any method (engine notes "The provider process and
 * the order of calls"). While a program runs, its resources' `creationScope` says the stack exactly
 * (context.ts `noteProgramScope`); `pulumi destroy` runs no program, so there the stack is read once, the way
 * the CLI chose it, in the CLI's own order: the `--stack` (`-s`) argument of the `pulumi` process that started
 * this provider, else `PULUMI_STACK`, else the stack the project's workspace has selected (`pulumi stack
 * select`), unless that selection changed after the CLI started.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isPlainObject } from "./typed";

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
  /** When a file was last modified (epoch ms), or undefined when it cannot be read. */
  modifiedAt?: (file: string) => number | undefined;
  /** When the `pulumi` process that started this provider started (epoch ms), or undefined. */
  cliStartedAt?: () => number | undefined;
}

/**
 * What the provider process can tell of its stack: `<project>/<stack>` (`scope`), nothing (`scope`
 * undefined), or that the workspace's selection changed while this run went on (`selectionChanged`: another
 * stack was selected in the same folder after the CLI started, so the file no longer says which stack the CLI
 * chose).
 */
export interface StackReading {
  scope?: string;
  selectionChanged?: boolean;
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
function selectedStack(project: string, sources: StackSources): StackReading["scope"] | null {
  const home = sources.env.PULUMI_HOME?.trim() || path.join(os.homedir(), ".pulumi");
  for (const manifest of ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(sources.cwd, f))) {
    const digest = createHash("sha1").update(manifest).digest("hex");
    const file = path.join(home, "workspaces", `${project}-${digest}-workspace.json`);
    const text = sources.readFile(file);
    if (text === undefined) continue;
    // Written after the CLI started: `pulumi stack select` ran meanwhile, and the file names that stack.
    const modified = sources.modifiedAt?.(file);
    const started = sources.cliStartedAt?.();
    if (modified !== undefined && started !== undefined && modified > started) return null;
    try {
      const parsed: unknown = JSON.parse(text);
      const settings = isPlainObject(parsed) ? parsed : {};
      const stacks = isPlainObject(settings.stacks) ? settings.stacks : {};
      const backend = sources.backend();
      const entries = Object.entries(stacks).filter(([, v]) => typeof v === "string");
      const forBackend = entries.find(([url]) => sources.normalise(url) === backend);
      const chosen = forBackend?.[1] ?? (entries.length === 1 ? entries[0][1] : settings.stack);
      if (typeof chosen === "string" && chosen !== "") return chosen;
    } catch {
      // An unreadable workspace file selects nothing.
    }
  }
  return undefined;
}

/** What the process can tell of its stack (`StackReading`), in the CLI's own order. */
export function readStack(sources: StackSources): StackReading {
  const project = sources.env.PULUMI_PROJECT?.trim() || sources.env.PULUMI_NODEJS_PROJECT?.trim();
  if (!project) return {};
  const cli = sources.ancestors().find(isPulumiCli);
  const stack =
    (cli && stackArgument(cli)) || sources.env.PULUMI_STACK?.trim() || selectedStack(project, sources);
  if (stack === null) return { selectionChanged: true };
  return stack ? { scope: `${project}/${stackNameOf(stack)}` } : {};
}

/**
 * `<project>/<stack>` of this run, or undefined when either cannot be read or the selection changed mid-run
 * (see `readStack`).
 */
export const currentStackScope = (sources: StackSources): string | undefined => readStack(sources).scope;

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

/**
 * When the nearest `pulumi` ancestor of this process started (epoch ms), from `/proc`: its start in clock
 * ticks after boot (`stat` field 22) and the boot time (`btime` of `/proc/stat`). Undefined where `/proc` does
 * not show it.
 */
function cliStartedAt(): number | undefined {
  const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux architecture the CLI ships for
  try {
    const boot = /^btime (\d+)$/m.exec(fs.readFileSync("/proc/stat", "utf8"));
    let pid = process.ppid;
    for (let depth = 0; depth < 8 && pid > 1 && boot; depth++) {
      const proc = readProc(pid);
      if (!proc) return undefined;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      if (isPulumiCli(proc.argv)) {
        const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
        return Number.isFinite(ticks) ? (Number(boot[1]) + ticks / TICKS_PER_SECOND) * 1000 : undefined;
      }
      pid = proc.ppid;
    }
  } catch {
    // No /proc: the workspace is read as it is.
  }
  return undefined;
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
    modifiedAt: (file) => {
      try {
        return fs.statSync(file).mtimeMs;
      } catch {
        return undefined;
      }
    },
    cliStartedAt,
    cwd: process.cwd(),
    backend,
    normalise,
  };
}
