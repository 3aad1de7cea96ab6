/**
 * Load (at provider level): 50 clusters created in one run, concurrently as the engine runs independent
 * resources (`pulumi up --parallel 50`), then deleted at once (`pulumi destroy --parallel 50`), against an
 * emulator that rate-limits with a token bucket and answers 429 with `Retry-After: 1` beyond it, a demand many
 * times the limit. Every refused request is repeated until its call's deadline, however many times the limit
 * is hit, and the waits are spread by jitter, so every cluster is created exactly once and deleted, none runs
 * past its deadline, and the calls are counted. (A policy that gives up after a fixed number of 429s failed 17
 * of 50 such creates through the engine, under 20 requests a second, with `GET /kaas failed (deadline) ... 429
 * Too Many Requests`.)
 */
import { checked, startHarness, type Harness } from "./support/harness";

const COUNT = 50;
let h: Harness;

beforeAll(async () => {
  // A bucket small enough that fifty clusters' first requests exceed it even when a busy machine sends them
  // slowly (with 100 per second and a burst of 20, a loaded two-core machine sometimes never reached it).
  h = await startHarness({ faults: { rateLimit: { ratePerSecond: 50, burst: 10 }, retryAfterSeconds: 1 } });
  // Fifty waits polling every 20 ms would be a denial of service: poll as a real stack would, scaled down.
  h.config["vendor:pollIntervalMs"] = "250";
});
afterAll(async () => {
  await h.close();
});

it(`creates and deletes ${COUNT} clusters at once under a rate limit, each exactly once`, async () => {
  const kaas = h.kind("Kaas");
  const started = Date.now();
  const created = await Promise.all(
    Array.from({ length: COUNT }, async (_, i) => {
      const inputs = await checked(
        kaas,
        {},
        {
          name: `load-${i}`,
          location: "ITBG-Bergamo",
          kubernetesVersion: "1.32.5",
          nodeCidr: { address: "10.10.0.0/16", name: "n" },
          nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
          creationScope: `proj/dev/load-${i}`,
        },
      );
      return kaas.create(inputs);
    }),
  );
  const createSeconds = (Date.now() - started) / 1000;

  expect(created.every((c) => c.outs.state === "Active")).toBe(true);
  const live = h.emulator.state().kaas;
  expect(live.map((k) => k.metadata.name).sort()).toEqual(
    Array.from({ length: COUNT }, (_, i) => `load-${i}`).sort(),
  );
  expect(live.map((k) => k.metadata.id).sort()).toEqual(created.map((c) => c.id).sort());
  expect(new Set(created.map((c) => c.id)).size).toBe(COUNT);

  const requests = h.emulator.requests();
  const throttled = requests.filter((r) => r.status === 429).length;
  // The limit did bite, and no create was sent twice (a 429 is safe to resend, and answered before processing).
  expect(throttled).toBeGreaterThan(0);
  expect(requests.filter((r) => r.method === "POST" && r.status === 201)).toHaveLength(COUNT);
  // No call gave up at its deadline: nothing failed, and no retry line names a deadline.
  expect(h.lines.filter((l) => l.includes("(deadline)"))).toEqual([]);

  h.emulator.clearRequests();

  await Promise.all(created.map((c) => kaas.delete(c.id, c.outs)));
  const deleting = h.emulator.requests();
  const throttledDeleting = deleting.filter((r) => r.status === 429).length;
  expect(throttledDeleting).toBeGreaterThan(0);
  expect(deleting.filter((r) => r.method === "DELETE" && r.status !== 429)).toHaveLength(COUNT);
  expect(
    h.emulator.state().kaas.filter((k) => (k.status as { state?: string })?.state !== "Deleted"),
  ).toEqual([]);
  expect(h.lines.filter((l) => l.includes("(deadline)"))).toEqual([]);

  process.stdout.write(
    `load: ${COUNT} clusters created in ${createSeconds.toFixed(1)} s and deleted; ${requests.length} requests ` +
      `and ${throttled} answered 429 during create, ${throttledDeleting} during delete\n`,
  );
}, 120_000);
