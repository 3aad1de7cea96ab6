/**
 * Crash points: the distinct moments of an operation at which a killed `pulumi` run can leave the service,
 * found from the emulator's request log of a clean run of that operation (never written down by hand: the
 * requests an operation makes change as the provider changes), then reached exactly in later runs with the
 * emulator's holds (`emulator/holds.ts`).
 *
 * A clean run's requests become steps: each mutating request is a step of its own; consecutive reads that a
 * client cannot tell apart (same method, same path up to ids, same query up to literals, same state answered)
 * are one step, so the polls of one state are one step per state seen. The points of the steps:
 * - a mutating request: before it (nothing applied), and applied with its answer lost (processed, the answer
 *   withheld until the client is dead);
 * - a read answering an object's state: that answer lost (the polls before it saw the previous state);
 * - a read answering no state (a list, a download) is no point of its own: it changes nothing and shows
 *   nothing, so a kill before it leaves what a kill at the point before leaves.
 *
 * A point is reached through a chain of holds: every mutating request before it, each held after processing
 * only until the next hold of the chain is in place, then the point's own hold. Counting from the last
 * mutating request makes a chain independent of how many polls a run makes.
 *
 * Ids in paths are not those of the clean run: the object an operation works on (`{subject}`) is given per
 * resource, and an object the clean run saw appear (`{new}`) is, in a later run, the one that appeared with the
 * resource's name. A request on a collection (a create) names no id: its hold also looks for the resource's
 * name in the body. So the points of many resources are reached in one run (`killAtPoints`), each resource
 * stopped at a point of its own, and one kill, one cancel and one recovery serve them all.
 */
import type { Emulator, HoldSpec, RequestHold, RequestLogEntry } from "../../../emulator";
import { escapeRegExp } from "../../support/expressions";
import { killWhen, type ProcessInfo } from "./processes";
import type { CliRun } from "./suite";

/** One step of a clean run. */
export interface Step {
  method: string;
  /** The path with `{subject}` and `{new}` in place of those ids. */
  path: string;
  /** The query, literals in `filter` replaced by `*`, as `?key=value&...` (empty without a query). */
  query: string;
  /** The state the answer showed (a read of one object), if any. */
  state?: string;
  mutating: boolean;
  /** How many requests of the clean run the step stands for. */
  count: number;
}

/** A hold of a chain, its ids and name still to be put in (`holdSpecOf`). */
export interface PlannedHold {
  method: string;
  path: string;
  state?: string;
  nth: number;
  when: "before" | "after";
  /** True when the path tells no resource from another (a create on a collection): the body must name it. */
  byName: boolean;
}

/** A point at which a run is killed: a name for logs and replays, and the chain of holds that reaches it. */
export interface CrashPoint {
  name: string;
  chain: PlannedHold[];
}

/** The ids of a clean run: which one was its subject, and those that existed before it. */
export interface RunIds {
  subject?: string;
  before: ReadonlySet<string>;
}

/** `{subject}` or `{new}` for an id segment of the clean run, the segment itself otherwise. */
function templateSegment(segment: string, ids: RunIds, after: ReadonlySet<string>): string {
  if (ids.subject !== undefined && segment === ids.subject) return "{subject}";
  if (after.has(segment) && !ids.before.has(segment)) return "{new}";
  return segment;
}

/** A query as a step shows it: what a request asked for, without the names and tags of one resource. */
function templateQuery(query: Record<string, string>): string {
  const keys = Object.keys(query).sort();
  if (keys.length === 0) return "";
  const value = (key: string) =>
    key === "filter" ? query[key].replace(/"(?:[^"\\]|\\.)*"/g, "*") : query[key];
  return `?${keys.map((key) => `${key}=${value(key)}`).join("&")}`;
}

/**
 * The steps of a clean run's `requests`. `after` holds every id the emulator knew at the end of the run (so
 * that ids which appeared during it are told from fixed ones).
 */
export function stepsOf(requests: RequestLogEntry[], ids: RunIds, after: ReadonlySet<string>): Step[] {
  const steps: Step[] = [];
  for (const request of [...requests].sort((a, b) => a.seq - b.seq)) {
    const path = request.path
      .split("/")
      .map((segment) => templateSegment(segment, ids, after))
      .join("/");
    const step: Step = {
      method: request.method,
      path,
      query: templateQuery(request.query),
      ...(request.state === undefined ? {} : { state: request.state }),
      mutating: request.mutating,
      count: 1,
    };
    const last = steps[steps.length - 1];
    const same =
      last !== undefined &&
      !step.mutating &&
      !last.mutating &&
      last.method === step.method &&
      last.path === step.path &&
      last.query === step.query &&
      last.state === step.state;
    if (same) last.count++;
    else steps.push(step);
  }
  return steps;
}

/**
 * How a step reads in a point's name: `GET /kaas/{new} (InCreation)` (the state a read answered), below
 * `prefix`, without `api-version`.
 */
export function describeStep(step: Step, prefix: string): string {
  const path = step.path.startsWith(prefix) ? step.path.slice(prefix.length) || "/" : step.path;
  const query = step.query.replace(/^\?api-version=[^&]*&?/, "?").replace(/\?$/, "");
  // A mutating request's point is about what it did, not what it answered.
  const state = step.state === undefined || step.mutating ? "" : ` (${step.state})`;
  return `${step.method} ${path}${query}${state}`;
}

/** Whether a clean-run request (as its step) counts for the hold `hold`. */
const countsFor = (request: Step, hold: PlannedHold): boolean =>
  request.method === hold.method &&
  request.path === hold.path &&
  (hold.when === "before" || hold.state === undefined || hold.state === request.state);

/** The crash points of a clean run's steps, in the order the run reaches them; `prefix` is cut from names. */
export function pointsOf(steps: Step[], prefix: string): CrashPoint[] {
  // Every request of the clean run in order, as the step it belongs to.
  const requests = steps.flatMap((step) => Array.from({ length: step.count }, () => step));
  const points: CrashPoint[] = [];
  const anchors: PlannedHold[] = [];
  let sinceAnchor: Step[] = [];
  /** The hold of the first request of `step` at `when`, counted from the last mutating request. */
  const holdOf = (step: Step, when: "before" | "after"): PlannedHold => {
    // A read answering a state is held at the first answer showing it; a mutating request whatever it answers.
    const state = when === "after" && !step.mutating ? step.state : undefined;
    const byName = step.mutating && !step.path.includes("{subject}") && !step.path.includes("{new}");
    const hold: PlannedHold = { method: step.method, path: step.path, nth: 1, when, byName };
    if (state !== undefined) hold.state = state;
    hold.nth = 1 + sinceAnchor.filter((earlier) => countsFor(earlier, hold)).length;
    return hold;
  };
  let index = 0;
  for (const step of steps) {
    const text = describeStep(step, prefix);
    if (step.mutating) {
      const after = holdOf(step, "after");
      points.push({ name: `before ${text}`, chain: [...anchors, holdOf(step, "before")] });
      points.push({ name: `${text} applied, answer lost`, chain: [...anchors, after] });
      anchors.push(after);
      sinceAnchor = [];
    } else {
      if (step.state !== undefined)
        points.push({ name: `${text} answered, answer lost`, chain: [...anchors, holdOf(step, "after")] });
      sinceAnchor.push(...requests.slice(index, index + step.count));
    }
    index += step.count;
  }
  return points;
}

/** One resource of a later run, stopped at a point of its own. */
export interface Target {
  point: CrashPoint;
  /** The resource's metadata name: create bodies carry it, and `{new}` is the object that appears with it. */
  name: string;
  /** The id of the object the operation works on (`{subject}`), if any. */
  subject?: string;
}

/** What resolves the ids of a target's holds in a run. */
interface RunContext {
  /** The ids the emulator knew when the run started. */
  existing: ReadonlySet<string>;
  /** The id of the object named `name` that appeared during the run, if any yet. */
  created(name: string): string | undefined;
}

/** The emulator's hold of a planned one, for `target` in the run `run`. */
export function holdSpecOf(hold: PlannedHold, target: Target, run: RunContext): HoldSpec {
  const known = [...run.existing].map(escapeRegExp).join("|");
  const anyNew = known === "" ? "[^/]+" : `(?!(?:${known})(?:/|$))[^/]+`;
  const pathPattern = hold.path
    .split("/")
    .map((segment) => {
      if (segment === "{new}") {
        const id = run.created(target.name);
        return id === undefined ? anyNew : escapeRegExp(id);
      }
      if (segment === "{subject}") {
        if (target.subject === undefined) throw new Error(`a hold on ${hold.path} needs the run's subject`);
        return escapeRegExp(target.subject);
      }
      return escapeRegExp(segment);
    })
    .join("/");
  return {
    method: hold.method,
    pathPattern,
    ...(hold.byName ? { bodyPattern: escapeRegExp(JSON.stringify(target.name)) } : {}),
    nth: hold.nth,
    when: hold.when,
    ...(hold.state === undefined ? {} : { state: hold.state }),
  };
}

const ordinal = (n: number): string => `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;

/** `after the 2nd GET /kaas/{new} answering Active`: how a failure names a hold. */
const describeHold = (hold: PlannedHold): string =>
  `${hold.when} the ${ordinal(hold.nth)} ${hold.method} ${hold.path}` +
  `${hold.state === undefined ? "" : ` answering ${hold.state}`}`;

/**
 * Installs the chain of holds of `target`'s point one after the other and resolves with the last one once a
 * request is held there; each earlier hold is released only once the next is in place, so no request slips
 * past. Rejects once `stop` resolves first, every hold of the chain released.
 */
async function reachPoint(
  emulator: Emulator,
  target: Target,
  run: RunContext,
  stop: Promise<void>,
): Promise<{ hold: RequestHold; held: RequestLogEntry }> {
  const chain = target.point.chain;
  const installed: RequestHold[] = [];
  const stopped = stop.then(() => "stopped" as const);
  try {
    for (const [i, planned] of chain.entries()) {
      const hold = emulator.hold(holdSpecOf(planned, target, run));
      installed.push(hold);
      installed[i - 1]?.release();
      const held = await Promise.race([hold.reached, stopped]);
      if (held === "stopped" || held === null)
        throw new Error(`never reached hold ${i + 1} of ${chain.length}: ${describeHold(planned)}`);
      if (i === chain.length - 1) return { hold, held };
    }
    throw new Error("a crash point has at least one hold");
  } catch (error) {
    for (const hold of installed) hold.release();
    throw error;
  }
}

/** What `killAtPoints` did. */
export interface KillOutcome {
  /** The targets stopped at their point when the run was killed, with the request held there. */
  reached: { target: Target; held: RequestLogEntry }[];
  /** The others, with why. */
  unreached: { target: Target; why: string }[];
  /** The processes killed; none when the run ended by itself. */
  killed: ProcessInfo[];
  /** Held requests whose client the emulator did not see go away within `KillOptions.goneMs` of the kill. */
  stillConnected: RequestLogEntry[];
}

/** Options of `killAtPoints`. */
export interface KillOptions {
  /**
   * With a point reached, the run is killed once no request has come for this long: the points not reached
   * by then wait behind held ones (the engine deletes replaced objects only after every create of the run).
   */
  quietMs?: number;
  /** The run is killed at the latest this long after the first point is reached (a held request may time out). */
  maxHoldMs?: number;
  /** The run is killed at the latest this long after it started. */
  timeoutMs?: number;
  /** How long after the kill the emulator may take to see the held requests' connections close. */
  goneMs?: number;
}

/**
 * Stops each target of `run` (a `pulumi` run started detached, when the emulator knew the ids `existing`) at
 * its point, kills the run with every process it started once all are there (or nothing more comes:
 * `KillOptions`), then releases every hold: a request held before processing is never processed, one held
 * after is never answered.
 */
export async function killAtPoints(
  emulator: Emulator,
  run: CliRun,
  targets: Target[],
  existing: ReadonlySet<string>,
  options: KillOptions = {},
): Promise<KillOutcome> {
  const { quietMs = 1500, maxHoldMs = 15_000, timeoutMs = 120_000, goneMs = 10_000 } = options;
  const context: RunContext = {
    existing,
    created: (name) => objectsOf(emulator).find((o) => o.name === name && !existing.has(o.id))?.id,
  };
  let signalStop!: () => void;
  const stop = new Promise<void>((resolve) => (signalStop = resolve));
  const reached = new Map<Target, { hold: RequestHold; held: RequestLogEntry }>();
  const why = new Map<Target, string>();
  const chains = targets.map((target) =>
    reachPoint(emulator, target, context, stop).then(
      (result) => void reached.set(target, result),
      (error: Error) => void why.set(target, error.message),
    ),
  );
  let exited = false;
  void run.done.then(() => (exited = true));

  const started = Date.now();
  let firstReached: number | undefined;
  let activity = "";
  let lastActivity = Date.now();
  for (;;) {
    const now = Date.now();
    if (reached.size === targets.length || exited || now - started > timeoutMs) break;
    const seen = `${emulator.requests().at(-1)?.seq ?? 0} ${reached.size}`;
    if (seen !== activity) [activity, lastActivity] = [seen, now];
    if (reached.size > 0) {
      firstReached ??= now;
      if (now - lastActivity > quietMs || now - firstReached > maxHoldMs) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const endedFirst = exited;
  const killed = endedFirst ? [] : (await killWhen(run, () => true, "the points")).killed;
  signalStop();
  await Promise.all(chains);
  // The emulator learns that a client died only when it reads the closed connection: released before that,
  // a request held before processing would be processed after all.
  const held = [...reached.values()];
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, endedFirst ? 0 : goneMs)));
  await Promise.race([Promise.all(held.map(({ hold }) => hold.clientGone)), late]);
  clearTimeout(timer);
  const stillConnected = held.filter(({ hold }) => !hold.status().clientGone).map((r) => r.held);
  for (const { hold } of held) hold.release();
  return {
    reached: targets
      .filter((t) => reached.has(t))
      .map((target) => ({ target, held: reached.get(target)!.held })),
    unreached: targets
      .filter((t) => !reached.has(t))
      .map((target) => ({
        target,
        why: endedFirst ? "the run ended first" : (why.get(target) ?? "not reached"),
      })),
    killed,
    stillConnected,
  };
}

/** An object the emulator holds, of any kind. */
export interface ServiceObject {
  id: string;
  name: string;
  state: string;
  tags: string[];
}

/** Every object the emulator holds, tombstones included. */
export function objectsOf(emulator: Emulator): ServiceObject[] {
  type Shown = {
    metadata: { id: string; name?: string | null; tags?: string[] | null };
    status?: { state?: string | null } | null;
  };
  const snapshot = emulator.state();
  return (["kaas", "backups", "registries"] as const).flatMap((field) =>
    (snapshot[field] as Shown[]).map((o) => ({
      id: o.metadata.id,
      name: o.metadata.name ?? "",
      state: o.status?.state ?? "",
      tags: o.metadata.tags ?? [],
    })),
  );
}

/** The ids of every object the emulator holds. */
export const allIdsOf = (emulator: Emulator): string[] => objectsOf(emulator).map((o) => o.id);
