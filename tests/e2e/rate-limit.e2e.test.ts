/**
 * Fifty clusters created and destroyed at once (`--parallel 50`) while the service rate-limits hard: 20
 * requests a second with a burst of 10, each refusal a 429 with `Retry-After: 1`, against a demand many times
 * that. Every refused request is repeated until its call's deadline, however many times the limit is hit, and
 * the waits are spread by jitter, so every cluster is created exactly once and deleted, and state and service
 * agree. (A policy that gives up after a fixed number of 429s failed 17 of these 50 creates in one run with
 * `GET /kaas failed (deadline) ... 429 Too Many Requests`.)
 */
import { cluster } from "./support/args";
import { PROJECT, openSuite, values, type Declared, type Suite } from "./support/suite";

const FLEET = 50;
const PREFIX = `/projects/${PROJECT}/providers/Vendor.Container`;

let s: Suite;
beforeAll(async () => {
  s = await openSuite("rate-limit");
});
afterAll(async () => {
  await s?.close();
});

/** One small cluster per index, each with its own name and node range. */
function fleet(): Declared[] {
  return Array.from({ length: FLEET }, (_, i) => {
    const name = `c${String(i).padStart(2, "0")}`;
    const declared = cluster(
      {
        nodeCidr: { address: `10.${i + 1}.0.0/16`, name: `${name}-nodes` },
        nodePools: [{ name: "pool", nodes: 1, instance: "K2A4", dataCenter: "ITBG-1" }],
        authorizedIpRanges: undefined,
      },
      name,
    );
    return { ...declared, args: { ...declared.args, name: `rl-${name}` } };
  });
}

/** Answers of the request log: how many were refused by the limit, and the POST/DELETE calls of clusters. */
function tally() {
  const requests = s.requests();
  const limited = requests.filter((r) => r.status === 429).length;
  const done = (method: string) =>
    requests.filter(
      (r) => r.method === method && r.status !== 429 && /^\/kaas(\/[^/]+)?$/.test(r.path.replace(PREFIX, "")),
    );
  return { total: requests.length, limited, posts: done("POST").length, deletes: done("DELETE").length };
}

it(`creates ${FLEET} clusters at once under the rate limit, each exactly once, then destroys them`, async () => {
  s.emulator.emulator.setFaults({ rateLimit: { ratePerSecond: 20, burst: 10 }, retryAfterSeconds: 1 });
  const stack = await s.stack("fleet", s.program("rate-limit"));
  await s.declare(stack, fleet());
  s.clearRequests();

  const up = await stack.up({ parallel: FLEET });

  // The fifty clusters and the stack itself.
  expect(up.summary.resourceChanges).toEqual({ create: FLEET + 1 });
  const created = tally();
  // The limit was really hit, so the run proves the retries rather than a quiet service.
  expect(created.limited).toBeGreaterThan(FLEET);
  expect(created.posts).toBe(FLEET);
  const live = s.emulator.emulator.state().kaas;
  expect(live.map((k) => k.metadata.name).sort()).toEqual(
    fleet()
      .map((d) => d.args.name)
      .sort(),
  );
  expect(live.map((k) => k.status?.state)).toEqual(live.map(() => "Active"));
  // State and service agree: each resource's id is the cluster made for it.
  const outputs = values(up.outputs);
  const ids = fleet().map((d) => outputs[`${d.name}.kaasId`]);
  expect([...ids].sort()).toEqual(live.map((k) => k.metadata.id).sort());

  s.clearRequests();
  await stack.destroy({ parallel: FLEET });

  const destroyed = tally();
  expect(destroyed.limited).toBeGreaterThan(0);
  expect(destroyed.deletes).toBe(FLEET);
  expect(s.emulator.emulator.state().kaas.filter((k) => k.status?.state !== "Deleted")).toEqual([]);
});
