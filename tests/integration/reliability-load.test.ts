/**
 * Load (at provider level): 50 clusters created in one run, concurrently as the engine runs
 * independent resources, against an emulator that rate-limits with a token bucket and answers 429 with
 * Retry-After beyond it. All succeed, none twice, no call runs past its deadline, and the calls are counted.
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
  expect(live).toHaveLength(COUNT);
  expect(new Set(created.map((c) => c.id)).size).toBe(COUNT);

  const requests = h.emulator.requests();
  const throttled = requests.filter((r) => r.status === 429).length;
  // The limit did bite, and no create was sent twice (a 429 is safe to resend, and answered before processing).
  expect(throttled).toBeGreaterThan(0);
  expect(requests.filter((r) => r.method === "POST" && r.status === 201)).toHaveLength(COUNT);
  // No call gave up at its deadline: nothing failed, and no retry line names a deadline.
  expect(h.lines.filter((l) => l.includes("(deadline)"))).toEqual([]);

  await Promise.all(created.map((c) => kaas.delete(c.id, c.outs)));
  expect(
    h.emulator.state().kaas.filter((k) => (k.status as { state?: string })?.state !== "Deleted"),
  ).toEqual([]);

  const total = h.emulator.requests().length;
  process.stdout.write(
    `load: ${COUNT} clusters created in ${createSeconds.toFixed(1)} s and deleted; ${total} requests, ${throttled} answered 429 during create\n`,
  );
}, 120_000);
