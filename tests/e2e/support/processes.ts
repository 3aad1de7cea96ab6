/**
 * Waiting and killing for the tests of interrupted runs: a `pulumi` run killed with SIGKILL together with every
 * process it started (the CLI starts the language host and the dynamic provider each in a process group of
 * their own, so killing the CLI's group alone leaves them running, and the orphaned provider polling the
 * service). Reads `/proc`: the engine in `.tools/bin` is built for Linux.
 */
import fs from "node:fs";
import type { CliRun } from "./suite";

/** Polls until `condition` holds; fails after `timeoutMs`, or at once when `stop()` says waiting is pointless. */
export async function waitFor(
  what: string,
  condition: () => boolean,
  stop: () => boolean = () => false,
  timeoutMs = 120_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (stop() || Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A process as `/proc/<pid>/stat` shows it. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
}

/** Every process of this machine. */
function processes(): ProcessInfo[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
        // `pid (comm) state ppid pgrp ...`: comm may hold spaces and parentheses, so split after its last `)`.
        const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return [{ pid: Number(name), ppid: Number(ppid), pgid: Number(pgid), state }];
      } catch {
        return []; // exited meanwhile
      }
    });
}

/** `root` and all its descendants. */
function processTree(root: number): ProcessInfo[] {
  const all = processes();
  const tree = all.filter((p) => p.pid === root);
  for (let i = 0; i < tree.length; i++) tree.push(...all.filter((p) => p.ppid === tree[i].pid));
  return tree;
}

/** The command line of each descendant of `root` (the processes it started, theirs, and so on), by pid. */
export function descendantsOf(root: number): { pid: number; argv: string[] }[] {
  return processTree(root)
    .filter((p) => p.pid !== root)
    .flatMap((p) => {
      try {
        return [{ pid: p.pid, argv: fs.readFileSync(`/proc/${p.pid}/cmdline`, "utf8").split("\0") }];
      } catch {
        return []; // exited meanwhile
      }
    });
}

/** True while `pid` runs (a zombie waiting to be reaped does not). */
export const running = (pid: number): boolean => processes().some((p) => p.pid === pid && p.state !== "Z");

/**
 * Waits until `killWhen` holds for `run` (started detached, in a process group of its own), then kills with
 * SIGKILL the run's group and the group of every process below it, and waits until none of them runs any
 * more. Resolves with the run's end and the processes that were killed.
 */
export async function killWhen(
  run: CliRun,
  condition: () => boolean,
  what: string,
): Promise<{ result: Awaited<CliRun["done"]>; killed: ProcessInfo[] }> {
  let exited = false;
  void run.done.then(() => (exited = true));
  await waitFor(what, condition, () => exited);
  const tree = processTree(run.child.pid!);
  for (const pgid of new Set([run.child.pid!, ...tree.map((p) => p.pgid)])) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch (error) {
      // A group whose last process ended since the tree was read (a short-lived child such as the plugin's
      // `pulumi stack export`) is already what the kill wants.
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  }
  const result = await run.done;
  await waitFor("the killed processes to end", () => !tree.some((p) => running(p.pid)));
  return { result, killed: tree };
}
