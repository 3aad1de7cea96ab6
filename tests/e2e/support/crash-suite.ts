/**
 * The crash-point suite's machinery, for each door of the package: an operation run cleanly on one resource
 * gives its points (./crash-points.ts), then batches of fresh resources are each stopped at a point of their
 * own, the run killed, recovered (`pulumi cancel --yes`, then the same command again) and checked against the
 * invariant: exactly one live object per declared resource, the one the stack's state names, no second create
 * once one was applied, no live object that no stack tracks, and `pulumi preview --expect-no-changes` clean.
 *
 * A door (`CrashDoor`) says how a group's stack is made and how its program is told what to declare: the
 * dynamic resources' JavaScript program, or a program of another language on the provider plugin. Everything
 * else, the operations, the batches and the invariant, is the same for both, so that the plugin door is held
 * to exactly what the dynamic one promises.
 */
import fs from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { DEFAULT_WIRE, STRICT_WIRE, type RunningEmulator, type WireReadings } from "../../../emulator";
import type { KaasResponse } from "../../../schemas/kaas";
import { SYSTEM_POOL, WORKER_POOL, cluster } from "./args";
import {
  allIdsOf,
  describeStep,
  killAtPoints,
  objectsOf,
  pointsOf,
  stepsOf,
  type CrashPoint,
  type Target,
} from "./crash-points";
import { checkpointResources } from "./file-backend";
import { outsideClient, schemaInputNames } from "./plugin";
import { E2E_DURATIONS, LOCATION, PROJECT, openSuite, type Declared, type Suite } from "./suite";
import { startService } from "../../support/world";

export type Reading = "default" | "strict";
const WIRES: Record<Reading, WireReadings> = { default: DEFAULT_WIRE, strict: STRICT_WIRE };

const PREFIX = `/projects/${PROJECT}/providers/Vendor.Container`;
/** States of an object being deleted or gone: such an object is not live. */
const NOT_LIVE = new Set(["Deleting", "Deleted"]);
/** Only the points whose full name matches, to replay one. */
const ONLY = process.env.CRASH_POINTS ? new RegExp(process.env.CRASH_POINTS) : undefined;
/** Every operation of a batch runs at once: the CLI's default is 8 resource operations at a time. */
const PARALLEL = ["--parallel", "64"];
const UP = ["up", "--yes", "--skip-preview", ...PARALLEL];
const DESTROY = ["destroy", "--yes", "--skip-preview", ...PARALLEL];
const REFRESH = ["refresh", "--yes", "--skip-preview", ...PARALLEL];
/** Groups run at once: their runs mostly wait for the emulator's transitions, not for the CPU. */
const CONCURRENT_GROUPS = 3;

/** A group's stack as a door made it: the program's folder, and how to tell the program what to declare. */
export interface DoorStack {
  stack: Stack;
  dir: string;
  declare(declared: Declared[]): Promise<void>;
}

/** How one door of the package runs the suite's programs. */
export interface CrashDoor {
  /** The name of the suite's folder (`openSuite`). */
  suite: string;
  /** What the tests' names start with, before the reading: `reading default Kaas create: ...`. */
  describe: string;
  /** Prepares what every group shares (a program folder), once the suite is open. */
  prepare(s: Suite): void;
  /** A stack named `name` of the group, its program pointed at `emulator`. */
  stack(s: Suite, name: string, emulator: RunningEmulator): Promise<DoorStack>;
  /** What the door's CLI runs add to the suite's environment. */
  env?: Record<string, string>;
  /**
   * How many processes a killed run of `command` (`up`, `destroy`, ...) has at least: the CLI and every process
   * it started, so that a kill that missed one (an orphan polling the service) is seen.
   */
  minimumKilled(command: string): number;
}

let s: Suite;
let door: CrashDoor;

/** One operation under one reading: its stack and emulator, what it declares, and what failed. */
interface Group {
  title: string;
  reading: Reading;
  emulator: RunningEmulator;
  stack: Stack;
  dir: string;
  write: (declared: Declared[]) => Promise<void>;
  /** The prefix of its resources' Pulumi names, and of their metadata names (`e2e-<prefix>-...`). */
  prefix: string;
  declared: Declared[];
  /** The number of the next resource name. */
  next: number;
  failures: string[];
  /** Problems already reported, not reported again when a later recovery finds them still there. */
  reported: Set<string>;
}

/** Opens a group: an emulator answering by `reading`, and a stack of the door's program pointed at it. */
async function openGroup(title: string, reading: Reading, prefix: string): Promise<Group> {
  // Deleted objects stay as tombstones for the whole group, so that every object a run created is counted.
  const emulator = await startService({
    durations: { ...E2E_DURATIONS, kaasCreateMs: 800, tombstoneMs: 60 * 60 * 1000 },
    wire: WIRES[reading],
  });
  const { stack, dir, declare } = await door.stack(s, prefix, emulator);
  return {
    title,
    reading,
    emulator,
    stack,
    dir,
    write: declare,
    prefix,
    declared: [],
    next: 0,
    failures: [],
    reported: new Set(),
  };
}

const objects = (g: Group) => objectsOf(g.emulator.emulator);
const allIds = (g: Group) => new Set(allIdsOf(g.emulator.emulator));

/** A cluster of the group. */
const clusterOf = (g: Group, n: number | string): Declared => cluster({}, `${g.prefix}-${n}`);

/** The metadata name a declared resource sends. */
const metadataName = (d: Declared): string => d.args.name as string;

/** Starts `pulumi <args>` on the group's stack. */
const start = (g: Group, args: string[], options: { detached?: boolean } = {}) =>
  s.cli([...args, "--stack", g.stack.name], g.dir, { ...options, env: door.env });

/** Runs `pulumi <args>` on the group's stack to the end; throws with its output unless it succeeds. */
async function cli(g: Group, args: string[]): Promise<string> {
  const { code, output } = await start(g, args).done;
  if (code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${code}):\n${output}`);
  return output;
}

const declare = (g: Group) => g.write(g.declared);

/** The state's resources other than the stack and providers (URN, Pulumi name, id, inputs). */
function stateOf(g: Group): {
  resources: { urn: string; name: string; id: string; inputs: Record<string, unknown> }[];
  empty: boolean;
} {
  // The checkpoint the file backend keeps, read as `pulumi stack export` prints it, without a CLI run.
  const all = checkpointResources(g.stack);
  if (all === undefined) throw new Error(`no checkpoint of stack ${g.stack.name} on its file backend`);
  const resources = all
    .filter((r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"))
    .map((r) => ({
      urn: r.urn,
      name: r.urn.split("::").pop() ?? "",
      id: r.id ?? "",
      inputs: r.inputs ?? {},
    }));
  return { resources, empty: all.length === 0 };
}

/** The full name of a point, as logs and failures give it. */
const pointName = (g: Group, point: CrashPoint) => `${g.title}: ${point.name}, reading ${g.reading}`;

/**
 * Runs the operation once cleanly with `args` and makes its points from its requests. `subject` is the object
 * the operation works on (an update, a replacement, a delete, a read), none for a create.
 */
async function record(g: Group, args: string[], subject?: string): Promise<CrashPoint[]> {
  const before = allIds(g);
  g.emulator.emulator.clearRequests();
  await cli(g, args);
  const requests = g.emulator.emulator.requests();
  const steps = stepsOf(requests, { subject, before }, allIds(g));
  const points = pointsOf(steps, PREFIX);
  const lines = steps.map(
    (step) => `  ${describeStep(step, PREFIX)}${step.count > 1 ? ` x${step.count}` : ""}`,
  );
  console.log(
    `${g.title}, reading ${g.reading}: a clean run made ${requests.length} requests, ${steps.length} steps, ` +
      `${points.length} points:\n${lines.join("\n")}`,
  );
  return points.filter((point) => ONLY === undefined || ONLY.test(pointName(g, point)));
}

/** A resource of a batch: the point it stops at, and what is declared for it. */
interface BatchTarget extends Target {
  resource: Declared;
  urn?: string;
}

/** What a batch checks beyond the invariant of every declared resource. */
interface BatchChecks {
  /** True when the operation deletes the targets' resources. */
  removes?: boolean;
  /** How many objects a target's operation may create (0 for an update, a read or a delete, 1 for a create). */
  creates: number;
  /** Further checks of a target's live objects: problems as lines. */
  extra?: (target: BatchTarget) => string[];
  /**
   * False for `pulumi destroy`: it deletes the stack resource too, so a preview of any program proposes to
   * create that; the state is checked to be empty instead.
   */
  preview?: boolean;
  /** What the program declares once the command recovered, before the invariant (an import's recorded inputs). */
  recovered?: () => Promise<void>;
}

/**
 * Runs `args` with every target stopped at its point, kills it, recovers (`pulumi cancel --yes`, then `args`
 * again) and checks the invariant; records each target's problems under its point. Returns the targets whose
 * point the run did not reach: their resources went through the operation some other way, so a further batch
 * needs fresh ones.
 */
async function batch(
  g: Group,
  targets: BatchTarget[],
  args: string[],
  checks: BatchChecks,
): Promise<BatchTarget[]> {
  const started = Date.now();
  const emulator = g.emulator.emulator;
  const existing = allIds(g);
  emulator.clearRequests();
  const run = start(g, args, { detached: true });
  const outcome = await killAtPoints(emulator, run, targets, existing);
  const reached = outcome.reached.map((r) => r.target as BatchTarget);
  const problems = new Map<BatchTarget | undefined, string[]>(reached.map((t) => [t, []]));
  const add = (target: BatchTarget | undefined, line: string) =>
    problems.set(target, [...(problems.get(target) ?? []), line]);
  const minimum = door.minimumKilled(args[0]);
  if (outcome.killed.length > 0 && outcome.killed.length < minimum)
    add(undefined, `only ${outcome.killed.length} processes killed (at least ${minimum})`);
  for (const held of outcome.stillConnected)
    add(undefined, `the emulator never saw the client of ${held.method} ${held.path} go away`);

  // A replacement that the killed run saw through to the state is replaced again by the same `up --replace`.
  const allowed = new Map(reached.map((t) => [t, checks.creates]));
  if (args.includes("--replace")) {
    const { resources } = stateOf(g);
    for (const t of reached) {
      if (resources.some((r) => r.urn === t.urn && r.id !== "" && r.id !== t.subject))
        allowed.set(t, checks.creates + 1);
    }
  }

  if (outcome.killed.length > 0) {
    const cancel = await start(g, ["cancel", "--yes"]).done;
    if (cancel.code !== 0)
      add(undefined, `pulumi cancel --yes failed (${cancel.code}): ${tail(cancel.output)}`);
    const again = await start(g, args).done;
    if (again.code !== 0)
      add(undefined, `the same command again failed (${again.code}):\n${tail(again.output)}`);
  }
  await checks.recovered?.();

  // The point is what it says: the held request was never processed (before), or never answered (after).
  const log = emulator.requests();
  for (const { target, held } of outcome.reached) {
    const when = target.point.chain[target.point.chain.length - 1].when;
    const logged = log.find((r) => r.seq === held.seq);
    if (logged?.dropped !== when)
      add(target as BatchTarget, `the held ${held.method} ${held.path} was logged ${JSON.stringify(logged)}`);
  }

  const byName = new Map(reached.map((t) => [t.resource.name, t]));
  const removed = checks.removes ? reached.map((t) => t.resource) : [];
  for (const { resource, line } of invariant(g, removed, checks.preview === false)) {
    add(resource === undefined ? undefined : byName.get(resource), line);
  }
  for (const t of reached) {
    const made = objects(g).filter((o) => o.name === t.name && !existing.has(o.id));
    if (made.length > allowed.get(t)!) {
      const shown = made.map((o) => `${o.id} (${o.state}, tags ${o.tags.join(" ") || "none"})`).join(", ");
      add(t, `${made.length} objects created (at most ${allowed.get(t)}): ${shown}`);
    }
    for (const line of checks.extra?.(t) ?? []) add(t, line);
  }
  if (checks.preview !== false) {
    try {
      await g.stack.preview({ expectNoChanges: true });
    } catch (error) {
      add(undefined, `pulumi preview --expect-no-changes failed:\n${tail((error as Error).message)}`);
    }
  }
  // A run that ended before its points were reached went another way than the clean one: what it printed says
  // which.
  const ended = outcome.killed.length === 0 ? tail((await run.done).output) : undefined;
  report(g, outcome, problems, Date.now() - started, ended);
  return outcome.unreached.map((u) => u.target as BatchTarget);
}

/** Prints a batch's points with their outcome, in one block, and records the failed ones in the group. */
function report(
  g: Group,
  outcome: Awaited<ReturnType<typeof killAtPoints>>,
  problems: Map<BatchTarget | undefined, string[]>,
  ms: number,
  ended?: string,
): void {
  const lines = [
    `${g.title}, reading ${g.reading}: ${outcome.reached.length} of ` +
      `${outcome.reached.length + outcome.unreached.length} points reached in one run, killed ` +
      `(${outcome.killed.length} processes), recovered and checked in ${(ms / 1000).toFixed(1)} s`,
  ];
  for (const [target, found] of problems) {
    const fresh = found.filter((line) => !g.reported.has(line));
    for (const line of fresh) g.reported.add(line);
    const held = outcome.reached.find((r) => r.target === target)?.held;
    const name =
      target === undefined
        ? `${g.title}, reading ${g.reading}, the run as a whole`
        : `${pointName(g, target.point)} (held ${held?.method} ${held?.path.slice(PREFIX.length)})`;
    if (fresh.length === 0) {
      if (target !== undefined) lines.push(`  ok: ${name}`);
      continue;
    }
    lines.push(`  FAILED: ${name}`, ...fresh.map((line) => `    ${line}`));
    g.failures.push(`${name}:\n  ${fresh.join("\n  ")}`);
  }
  for (const { target, why } of outcome.unreached)
    lines.push(`  not reached: ${pointName(g, target.point)}: ${why}`);
  if (ended !== undefined && outcome.unreached.length > 0)
    lines.push("  the run ended by itself, printing:", ...ended.split("\n").map((line) => `    ${line}`));
  console.log(lines.join("\n"));
}

/** The last lines of a command's output. */
const tail = (output: string, lines = 30) => output.trim().split("\n").slice(-lines).join("\n");

/**
 * The invariant, as problems each naming its resource (by Pulumi name) where it has one: each declared
 * resource has exactly one live object (by metadata name) and the state's id for it is that object; each of
 * `removed` has none and is not in the state; no live object of the group is untracked; with `empty`, the
 * state holds nothing at all.
 */
function invariant(g: Group, removed: Declared[], empty: boolean): { resource?: string; line: string }[] {
  const problems: { resource?: string; line: string }[] = [];
  const state = stateOf(g);
  const live = objects(g).filter((o) => !NOT_LIVE.has(o.state));
  const shown = (objects: { id: string; state: string }[]) =>
    objects.map((o) => `${o.id} (${o.state})`).join(", ") || "none";
  for (const d of g.declared) {
    const mine = live.filter((o) => o.name === metadataName(d));
    const ids = state.resources.filter((r) => r.name === d.name).map((r) => r.id);
    if (mine.length !== 1)
      problems.push({ resource: d.name, line: `${d.name}: ${mine.length} live objects: ${shown(mine)}` });
    if (ids.length !== 1 || !mine.some((o) => o.id === ids[0]))
      problems.push({
        resource: d.name,
        line: `${d.name}: the state's id is ${ids.join(", ") || "none"}, live: ${shown(mine)}`,
      });
  }
  for (const d of removed) {
    const left = live.filter((o) => o.name === metadataName(d));
    if (left.length > 0)
      problems.push({ resource: d.name, line: `${d.name}: removed, but live: ${shown(left)}` });
    if (state.resources.some((r) => r.name === d.name))
      problems.push({ resource: d.name, line: `${d.name}: removed, but in the state` });
  }
  const tracked = new Set(state.resources.map((r) => r.id));
  for (const o of live.filter((o) => o.name.startsWith(`e2e-${g.prefix}-`) && !tracked.has(o.id))) {
    const resource = o.name.slice("e2e-".length);
    problems.push({ resource, line: `${resource}: live object no stack tracks: ${o.id} (${o.state})` });
  }
  if (empty && !state.empty)
    problems.push({
      line: `the state still holds ${state.resources.map((r) => r.name).join(", ") || "the stack"}`,
    });
  return problems;
}

/** Runs batches until every point was reached once; `round(points)` runs one and returns the targets left. */
async function untilAllReached(
  g: Group,
  points: CrashPoint[],
  round: (points: CrashPoint[]) => Promise<BatchTarget[]>,
): Promise<void> {
  let pending = points;
  while (pending.length > 0) {
    const left = await round(pending);
    if (left.length === pending.length) {
      g.failures.push(...left.map((t) => `${pointName(g, t.point)}: never reached`));
      return;
    }
    pending = left.map((t) => t.point);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Creates: a new resource per point, in one stack that keeps the earlier ones.

type CreatedKind = "Kaas" | "KaasBackup" | "Registry";

/** The next resource of `kind` of the group; a backup belongs to the group's cluster `<prefix>-parent`. */
function nextCreated(g: Group, kind: CreatedKind): Declared {
  const name = `${g.prefix}-${g.next++}`;
  switch (kind) {
    case "Kaas":
      return cluster({}, name);
    case "KaasBackup":
      return {
        kind,
        name,
        args: {
          kaasId: { $ref: `${g.prefix}-parent.kaasId` },
          name: `e2e-${name}`,
          location: LOCATION,
          retentionDays: 7,
          billingPeriod: "Month",
        },
      };
    case "Registry":
      return {
        kind,
        name,
        args: {
          name: `e2e-${name}`,
          location: LOCATION,
          adminUsername: "ops",
          size: "Small",
          adminPasswordResetTrigger: "initial",
        },
      };
  }
}

async function crashCreates(g: Group, kind: CreatedKind): Promise<void> {
  if (kind === "KaasBackup") {
    g.declared.push(clusterOf(g, "parent"));
    await declare(g);
    await cli(g, UP);
  }
  g.declared.push(nextCreated(g, kind));
  await declare(g);
  const points = await record(g, UP);
  await untilAllReached(g, points, async (pending) => {
    const targets = pending.map((point) => {
      const resource = nextCreated(g, kind);
      return { point, resource, name: metadataName(resource) };
    });
    g.declared.push(...targets.map((t) => t.resource));
    await declare(g);
    return batch(g, targets, UP, { creates: 1 });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Changes of an existing cluster: a cluster per point, made by a clean run first.

/**
 * Records `change` of one cluster, then runs batches of the same change, each on fresh clusters made for it.
 * `change` answers undefined to remove the cluster from the program; `args(urns)` is the command.
 */
async function crashChanges(
  g: Group,
  change: (d: Declared) => Declared | undefined,
  options: { args?: (urns: string[]) => string[]; creates: number; extra?: (d: Declared) => string[] },
): Promise<void> {
  const args = options.args ?? (() => UP);
  /** Makes `count` clusters, then declares them changed; returns them with their ids and URNs. */
  const freshChanged = async (count: number) => {
    const made = Array.from({ length: count }, () => clusterOf(g, g.next++));
    g.declared.push(...made);
    await declare(g);
    await cli(g, UP);
    const { resources } = stateOf(g);
    const changed = made.map((d) => {
      const { id, urn } = resources.find((r) => r.name === d.name)!;
      return { original: d, changed: change(d), id, urn };
    });
    g.declared = g.declared.flatMap((d) => {
      const c = changed.find((m) => m.original === d);
      if (c === undefined) return [d];
      return c.changed === undefined ? [] : [c.changed];
    });
    await declare(g);
    return changed;
  };
  const [first] = await freshChanged(1);
  const points = await record(g, args([first.urn]), first.id);
  await untilAllReached(g, points, async (pending) => {
    const made = await freshChanged(pending.length);
    const targets = pending.map((point, i) => ({
      point,
      resource: made[i].changed ?? made[i].original,
      name: metadataName(made[i].original),
      subject: made[i].id,
      urn: made[i].urn,
    }));
    return batch(g, targets, args(targets.map((t) => t.urn)), {
      creates: options.creates,
      removes: made[0].changed === undefined,
      extra: (t) => options.extra?.(t.resource) ?? [],
    });
  });
}

/** The system pool resized from 2 nodes to 3. */
const resized = (d: Declared): Declared => ({
  ...d,
  args: { ...d.args, nodePools: [{ ...SYSTEM_POOL, nodes: 3 }, WORKER_POOL] },
});

/** A new node CIDR, which replaces the cluster. */
const NEW_CIDR = "10.30.0.0/16";
const recidred = (d: Declared): Declared => ({
  ...d,
  args: { ...d.args, nodeCidr: { address: NEW_CIDR, name: `${d.name}-nodes` } },
});

/** The live clusters of `d`. */
const liveClustersOf = (g: Group, d: Declared): KaasResponse[] =>
  (g.emulator.emulator.state().kaas as KaasResponse[]).filter(
    (k) => k.metadata.name === metadataName(d) && !NOT_LIVE.has(k.status?.state ?? ""),
  );

/** The live cluster of `d` has the system pool size declared. */
function liveSystemPoolIs(g: Group, d: Declared, nodes: number): string[] {
  const sizes = liveClustersOf(g, d).map(
    (k) => k.properties.nodePools?.find((p) => p.name === "system")?.nodes,
  );
  return sizes.every((n) => n === nodes)
    ? []
    : [`${d.name}: system pool of ${sizes.join(", ")} nodes, declared ${nodes}`];
}

/** The live cluster of `d` has the node CIDR declared. */
function liveNodeCidrIs(g: Group, d: Declared, address: string): string[] {
  const cidrs = liveClustersOf(g, d).map((k) => k.properties.nodecidr?.address);
  return cidrs.every((c) => c === address)
    ? []
    : [`${d.name}: node CIDR ${cidrs.join(", ")}, declared ${address}`];
}

// ---------------------------------------------------------------------------------------------------------------
// pulumi destroy: a stack of fresh clusters per batch, destroyed whole.

async function crashDestroys(g: Group): Promise<void> {
  /** Makes `count` clusters in the emptied stack; then declares nothing, as `pulumi destroy` does not run the program. */
  const fresh = async (count: number) => {
    const made = Array.from({ length: count }, () => clusterOf(g, g.next++));
    g.declared = made;
    await declare(g);
    await cli(g, UP);
    const { resources } = stateOf(g);
    g.declared = [];
    await declare(g);
    return made.map((d) => ({ resource: d, id: resources.find((r) => r.name === d.name)!.id }));
  };
  const [first] = await fresh(1);
  const points = await record(g, DESTROY, first.id);
  await untilAllReached(g, points, async (pending) => {
    const made = await fresh(pending.length);
    const targets = pending.map((point, i) => ({
      point,
      resource: made[i].resource,
      name: metadataName(made[i].resource),
      subject: made[i].id,
    }));
    return batch(g, targets, DESTROY, { creates: 0, removes: true, preview: false });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// pulumi import: clusters made outside the stack, imported into it by one `pulumi import --file` per batch.

const KAAS_TOKEN = "vendor-container:index:Kaas";

async function crashImports(g: Group): Promise<void> {
  const inputNames = schemaInputNames(KAAS_TOKEN);
  let file = 0;
  /** Makes `count` clusters outside the stack, settled, and the command that imports them. */
  const outside = async (count: number) => {
    const api = outsideClient(g);
    const made: { resource: Declared; id: string }[] = [];
    for (const resource of Array.from({ length: count }, () => clusterOf(g, g.next++))) {
      const { nodeCidr, kubernetesVersion } = resource.args as {
        nodeCidr: { address: string; name: string };
        kubernetesVersion: string;
      };
      const created = await api.call(
        "createKaas",
        { projectId: PROJECT },
        {
          metadata: { name: metadataName(resource), location: { value: LOCATION } },
          properties: {
            preset: true,
            nodeCidr,
            kubernetesVersion: { value: kubernetesVersion },
            nodePools: [SYSTEM_POOL, WORKER_POOL],
          },
        },
      );
      made.push({ resource, id: created.metadata.id });
    }
    g.emulator.emulator.advanceClock(10 * 60_000);
    const imports = path.join(g.dir, `imports-${g.prefix}-${file++}.json`);
    fs.writeFileSync(
      imports,
      JSON.stringify({ resources: made.map((m) => ({ type: KAAS_TOKEN, name: m.resource.name, id: m.id })) }),
    );
    const args = ["import", "--file", imports, "--yes", "--skip-preview", "--protect=false"];
    return { made, args: [...args, "--generate-code=false", ...PARALLEL] };
  };
  /**
   * Declares each of `made` the state now tracks with the inputs the import recorded (the schema's inputs of
   * them, as the code `pulumi import` prints declares them), so that the program keeps what was imported.
   */
  const declareImported = async (made: { resource: Declared }[]) => {
    const { resources } = stateOf(g);
    for (const { resource } of made) {
      const entry = resources.find((r) => r.name === resource.name);
      if (entry === undefined || g.declared.some((d) => d.name === resource.name)) continue;
      const args = Object.fromEntries(
        inputNames.flatMap((n) => (n in entry.inputs ? [[n, entry.inputs[n]]] : [])),
      );
      g.declared.push({ kind: "Kaas", name: resource.name, args });
    }
    await declare(g);
  };
  const first = await outside(1);
  const points = await record(g, first.args, first.made[0].id);
  await declareImported(first.made);
  await untilAllReached(g, points, async (pending) => {
    const { made, args } = await outside(pending.length);
    const targets = pending.map((point, i) => ({
      point,
      resource: made[i].resource,
      name: metadataName(made[i].resource),
      subject: made[i].id,
    }));
    return batch(g, targets, args, { creates: 0, recovered: () => declareImported(made) });
  });
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * An operation to crash: its test's name, and what it does once its group is open. It runs under each of its
 * readings, a group each, whose resources' names start with `prefix` and the reading's initial.
 */
export interface Operation {
  test: string;
  title: string;
  prefix: string;
  run: (g: Group) => Promise<void>;
  /**
   * The readings it runs under; default both. An operation that creates finds its object again by a lookup,
   * which depends on how the service reads filters, so it runs under both (the two replacements, whose creates
   * are the same to the provider, one under each); one that only reads, changes or deletes the object its state
   * names goes by its id, which no reading changes, and runs under one.
   */
  readings?: Reading[];
}

const replaceArgs = (urns: string[]) => [...UP, ...urns.flatMap((urn) => ["--replace", urn])];

/** The operations of both doors, the longest first, so that the groups running side by side end together. */
export const OPERATIONS: Operation[] = [
  {
    test: "Kaas replacement (nodeCidr): every crash point recovers to one new cluster",
    title: "Kaas replacement",
    prefix: "kr",
    run: (g) => crashChanges(g, recidred, { creates: 1, extra: (d) => liveNodeCidrIs(g, d, NEW_CIDR) }),
    readings: ["default"],
  },
  {
    test: "Kaas up --replace: every crash point recovers to one new cluster",
    title: "Kaas up --replace",
    prefix: "kx",
    run: (g) => crashChanges(g, (d) => d, { args: replaceArgs, creates: 1 }),
    readings: ["strict"],
  },
  {
    test: "KaasBackup create: every crash point recovers to one tracked backup",
    title: "KaasBackup create",
    prefix: "bc",
    run: (g) => crashCreates(g, "KaasBackup"),
  },
  {
    test: "Registry create: every crash point recovers to one tracked registry",
    title: "Registry create",
    prefix: "rc",
    run: (g) => crashCreates(g, "Registry"),
  },
  {
    test: "Kaas update (a node pool resize): every crash point recovers to the resized cluster",
    title: "Kaas update",
    prefix: "ku",
    run: (g) => crashChanges(g, resized, { creates: 0, extra: (d) => liveSystemPoolIs(g, d, 3) }),
    readings: ["strict"],
  },
  {
    test: "Kaas create: every crash point recovers to one tracked cluster",
    title: "Kaas create",
    prefix: "kc",
    run: (g) => crashCreates(g, "Kaas"),
  },
  {
    test: "Kaas removal from the program: every crash point recovers to the cluster deleted",
    title: "Kaas removal",
    prefix: "km",
    run: (g) => crashChanges(g, () => undefined, { creates: 0 }),
    readings: ["default"],
  },
  {
    test: "Kaas destroy: every crash point recovers to no cluster",
    title: "Kaas destroy",
    prefix: "kd",
    run: (g) => crashDestroys(g),
    readings: ["strict"],
  },
];

/** `pulumi refresh` of existing clusters: it reads each by the id its state names, under either reading. */
export const REFRESH_OPERATION: Operation = {
  test: "Kaas refresh: every crash point recovers to the cluster tracked as it was",
  title: "Kaas refresh",
  prefix: "kf",
  run: (g) => crashChanges(g, (d) => d, { args: () => REFRESH, creates: 0 }),
};

/** `pulumi import` of clusters made outside the stack: read by the id the import names, under either reading. */
export const IMPORT_OPERATION: Operation = {
  test: "Kaas import: every crash point recovers to the stack tracking the imported cluster, once",
  title: "Kaas import",
  prefix: "ki",
  run: (g) => crashImports(g),
};

/** The operations among `operations` that run under `reading`, each under it alone. */
export const underReading = (reading: Reading, operations: Operation[]): Operation[] =>
  operations
    .filter((o) => (o.readings ?? [reading]).includes(reading))
    .map((o) => ({ ...o, readings: [reading] }));

/**
 * Registers the suite's tests for `crashDoor`: a concurrent test per operation and reading, in a `describe` per
 * reading, a few groups at a time.
 */
export function crashPointSuite(crashDoor: CrashDoor, operations: Operation[]): void {
  door = crashDoor;
  // The suite's world, made once for every group: the tests run concurrently, and Jest starts concurrent
  // tests before `beforeAll` hooks run, so each test asks for it here.
  let world: Promise<void> | undefined;
  const ready = () =>
    (world ??= (async () => {
      s = await openSuite(door.suite);
      door.prepare(s);
    })());

  /** A few groups at a time: waits for a free place; the answer frees it. */
  let running = 0;
  const waiting: (() => void)[] = [];
  async function place(): Promise<() => void> {
    while (running >= CONCURRENT_GROUPS) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    return () => {
      running--;
      waiting.shift()?.();
    };
  }

  afterAll(async () => {
    await s?.close();
  });

  const readings = (["default", "strict"] as const).filter((r) =>
    operations.some((o) => (o.readings ?? [r]).includes(r)),
  );
  describe.each(readings)(`${door.describe}reading %s`, (reading) => {
    for (const operation of operations.filter((o) => (o.readings ?? [reading]).includes(reading))) {
      it.concurrent(operation.test, async () => {
        await ready();
        const free = await place();
        let g: Group | undefined;
        try {
          g = await openGroup(operation.title, reading, `${operation.prefix}${reading[0]}`);
          await operation.run(g);
        } finally {
          free();
          await g?.emulator.close();
        }
        expect(g.failures).toEqual([]);
      });
    }
  });
}
