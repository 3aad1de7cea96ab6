// @ts-check
/**
 * Row 8: the requests of the idempotent create's lookup in a crowded project. Before its POST, a create looks
 * for an interrupted create of the same resource (`findCreated` in provider/common/lifecycle.ts): a list of the
 * kind's collection filtered on the creation tag, then, where that finds nothing, one filtered on the name.
 * Where the service applies filters, the number of list requests must not grow with the project.
 *
 * One Kaas create through the provider module (`provider("Kaas")`, configured as the engine's `configure`
 * does, polling every 20 ms) against an in-process emulator, in an empty project and in one holding `OTHERS`
 * seeded clusters (`emulator.seed`), under each reading of the emulator's `filter` parameter
 * (`emulator.updateConfig({ wire: { filters } })`): `membership` (the documented one), `whole`, and, for
 * information, `ignored` and `refused`. Each case gets its own emulator and fresh clients (the provider
 * remembers per client that a service refuses filters). The emulator's request log, cleared between `check`
 * and `create`, gives the create's requests: list requests (GET on the kaas collection) and all of them.
 *
 * Every emulator duration is 0 ms: the POST still answers `InCreation` and the cluster is `Active` at the
 * provider's first poll, so the count of all requests does not depend on timing (with 50 ms, the number of
 * polls before `Active` varies from run to run).
 */
import { FAST_DURATIONS } from "../../dist/emulator/index.js";
import { provider } from "../../dist/provider/index.js";
import { PROJECT, kaasArgs, quietly, startProviders } from "./common.mjs";

/** The emulator's readings of the `filter` parameter, the documented one first. */
export const READINGS = /** @type {const} */ (["membership", "whole", "ignored", "refused"]);
/** Readings reported for information only (the provider falls back to whole lists under them). */
export const INFORMATIONAL = ["ignored", "refused"];
/** Clusters of other resources in the crowded project. */
export const OTHERS = 400;
/** Every duration of the emulator (ms): see above. */
const DURATION_MS = 0;
/** The provider's poll interval (ms), set by `startProviders`. */
const POLL_INTERVAL_MS = 20;

/** @typedef {import("../../dist/emulator/index.js").RequestLogEntry} RequestLogEntry */

/**
 * What a list request of the lookup asked for: `tag`, `name`, `none` (unfiltered) or the filter itself, with
 * its status when not 200 and its offset when not the first page.
 * @param {RequestLogEntry} r
 */
function describeList(r) {
  const filter = r.query.filter;
  const what =
    filter === undefined
      ? "none"
      : filter.startsWith("metadata.tags:")
        ? "tag"
        : filter.startsWith("metadata.name:")
          ? "name"
          : filter;
  const offset = Number(r.query.offset ?? 0) > 0 ? ` @${r.query.offset}` : "";
  return `${what}${r.status === 200 ? "" : ` ${r.status}`}${offset}`;
}

/**
 * One create of a cluster, counting the requests the emulator logged for it.
 * @param {(typeof READINGS)[number]} reading
 * @param {number} others clusters seeded in the project first
 */
async function measureCase(reading, others) {
  const durations = { ...FAST_DURATIONS };
  for (const key of /** @type {(keyof typeof durations)[]} */ (Object.keys(durations)))
    durations[key] = DURATION_MS;
  const harness = await startProviders({ durations });
  try {
    const { emulator } = harness.running;
    emulator.updateConfig({ wire: { filters: reading } });
    if (others > 0) emulator.seed({ projectId: PROJECT, kind: "kaas", count: others });
    const kaas = provider("Kaas");
    const { inputs, failures } = await kaas.check({}, kaasArgs("lookup-probe"));
    if (failures.length > 0) throw new Error(`check failed: ${JSON.stringify(failures)}`);
    emulator.clearRequests();
    const started = Date.now();
    const { result: created } = await quietly(() => kaas.create(inputs));
    const ms = Date.now() - started;
    const collection = `/projects/${PROJECT}/providers/${emulator.namespace}/kaas`;
    const requests = emulator.requests();
    const lists = requests.filter((r) => r.method === "GET" && r.path === collection);
    const polls = requests.filter((r) => r.method === "GET" && r.path === `${collection}/${created.id}`);
    const posts = requests.filter((r) => r.method === "POST" && r.path === collection);
    const counted = new Set([...lists, ...polls, ...posts]);
    const rest = requests.filter((r) => !counted.has(r));
    if (posts.length !== 1) throw new Error(`${reading}, ${others} others: ${posts.length} POSTs`);
    return {
      others,
      lists: lists.length,
      all: requests.length,
      listRequests: lists.map(describeList),
      listQueries: lists.map(({ query: { filter, offset, limit }, status }) => ({
        filter,
        offset,
        limit,
        status,
      })),
      posts: posts.length,
      clusterGets: polls.length,
      other: rest.map(
        (r) =>
          `${r.method} ${r.path.startsWith(collection) ? `kaas${r.path.slice(collection.length)}` : r.path}`,
      ),
      ms,
    };
  } finally {
    await harness.close();
  }
}

export async function measureLookup() {
  const readings = [];
  for (const reading of READINGS) {
    const empty = await measureCase(reading, 0);
    const crowded = await measureCase(reading, OTHERS);
    readings.push({ reading, informational: INFORMATIONAL.includes(reading), empty, crowded });
  }
  return {
    kind: "Kaas",
    others: OTHERS,
    durationMs: DURATION_MS,
    pollIntervalMs: POLL_INTERVAL_MS,
    readings,
  };
}
