/**
 * A create never takes over, or lets the engine delete, an object that is not its own, through the real
 * engine against the emulator, the tests taking turns between its default readings and its strictest (published
 * interface only), so that the engine meets both; the provider under each reading, case by case, is the
 * integration projects' (tests/integration/creation-provider.test.ts runs under both):
 *
 * - `pulumi up --replace` of an Active Kaas, Registry and KaasBackup makes a new object, tracked by the stack,
 *   and deletes the old one; so does the recovery (docs/creation-and-recovery.md) of a cluster that ended `Failed`. (A replacement
 *   killed at any point is the crash-point suite's: tests/e2e/crash-points.e2e.test.ts.)
 * - A second state backend holding the same project, stack and program is refused before any change, naming the
 *   first backend's cluster, which it never touches.
 * - A create request the service processed and then answered 502, 503 or 504, or whose connection it dropped,
 *   leaves exactly one object of each kind.
 * - A create resumed after its run was killed reports the cluster as the service has it: the next preview
 *   plans the resize an operator made meanwhile.
 * - A create in a project holding 400 other clusters sends exactly the requests it sends in an empty one.
 */
import fs from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { DEFAULT_WIRE, STRICT_WIRE, type WireReadings } from "../../emulator";
import { backup, cluster, registry } from "./support/args";
import { killWhen } from "./support/processes";
import { PROJECT, openSuite, type Declared, type Suite, trackedOf } from "./support/suite";

/** How long a create takes while a run is killed: far longer than the test, until the clock moves. */
const LONG_MS = 10 * 60 * 1000;
const PREFIX = `/projects/${PROJECT}/providers/Vendor.Container`;

/** The URN of resource `name` of `kind` in the stack. */
const urnOf = (stack: Stack, project: string, kind: string, name: string) =>
  `urn:pulumi:${stack.name}::${project}::pulumi-nodejs:dynamic/vendor-container:${kind}::${name}`;

/** The readings a test runs under, by the words its name ends with. */
const DEFAULT = "default readings";
const STRICT = "published interface only";
type Reading = typeof DEFAULT | typeof STRICT;
const WIRES: Record<Reading, WireReadings> = { [DEFAULT]: DEFAULT_WIRE, [STRICT]: STRICT_WIRE };

describe("a create takes over nothing that is not its own", () => {
  let s: Suite;
  let dir: string;
  const project = "own";

  beforeAll(async () => {
    s = await openSuite(project);
    dir = s.program(project);
  });
  afterAll(async () => {
    await s?.close();
  });

  const emulator = () => s.emulator.emulator;
  /** The objects of each kind the service holds that are not deleted, by id. */
  const live = () => {
    const state = emulator().state();
    const alive = (items: { metadata: { id: string }; status?: { state?: string | null } | null }[]) =>
      items.filter((i) => i.status?.state !== "Deleted").map((i) => `${i.metadata.id} ${i.status?.state}`);
    return { kaas: alive(state.kaas), registries: alive(state.registries), backups: alive(state.backups) };
  };

  /**
   * A fresh service under the readings named `reading`. Every test starts with one, on stacks of its own, so a
   * test destroys what it made only where the destroy is part of what it checks.
   */
  function reset(reading: Reading): void {
    emulator().reset();
    emulator().updateConfig({ wire: WIRES[reading] });
  }

  async function freshStack(name: string, resources: Declared[]): Promise<Stack> {
    const stack = await s.stack(name, dir);
    await s.declare(stack, resources);
    return stack;
  }

  it(`pulumi up --replace of an Active Kaas, KaasBackup and Registry makes new objects and deletes the old ones, ${DEFAULT}`, async () => {
    reset(DEFAULT);
    const stack = await freshStack("replace", [cluster(), backup(), registry()]);
    await stack.up();
    const before = await trackedOf(stack);
    expect(before).toEqual({ cluster: "kaas-0001", nightly: "backup-0001", images: "registry-0001" });

    // The backup and the registry first: the cluster's replacement replaces its backup too (a new kaasId).
    await stack.up({
      replace: [urnOf(stack, project, "KaasBackup", "nightly"), urnOf(stack, project, "Registry", "images")],
    });
    expect(await trackedOf(stack)).toEqual({
      cluster: "kaas-0001",
      nightly: "backup-0002",
      images: "registry-0002",
    });
    expect(live()).toEqual({
      kaas: ["kaas-0001 Active"],
      registries: ["registry-0002 Active"],
      backups: ["backup-0002 Active"],
    });

    await stack.up({ replace: [urnOf(stack, project, "Kaas", "cluster")] });
    expect(await trackedOf(stack)).toEqual({
      cluster: "kaas-0002",
      nightly: "backup-0003",
      images: "registry-0002",
    });
    expect(live()).toEqual({
      kaas: ["kaas-0002 Active"],
      registries: ["registry-0002 Active"],
      backups: ["backup-0003 Active"],
    });
    await stack.preview({ expectNoChanges: true });
    await stack.destroy();
    expect(live()).toEqual({ kaas: [], registries: [], backups: [] });
  });

  it(`a cluster that ended Failed, then the documented recovery (pulumi up --replace): one Active cluster, the Failed one deleted, ${STRICT}`, async () => {
    reset(STRICT);
    emulator().setFaults({ provisioning: { kaas: "fail", registry: "ok", backup: "ok" } });
    const stack = await freshStack("failed", [cluster()]);
    await expect(stack.up()).rejects.toThrow(/kaas-0001/);
    expect(await trackedOf(stack)).toEqual({ cluster: "kaas-0001" });
    expect(live().kaas).toEqual(["kaas-0001 Failed"]);

    emulator().setFaults({});
    await stack.up({ replace: [urnOf(stack, project, "Kaas", "cluster")] });
    expect(await trackedOf(stack)).toEqual({ cluster: "kaas-0002" });
    expect(live().kaas).toEqual(["kaas-0002 Active"]);
    await stack.preview({ expectNoChanges: true });
  });

  it(`a second state backend with the same project, stack and program is refused, naming the first's cluster, which it leaves alone, ${DEFAULT}`, async () => {
    reset(DEFAULT);
    const first = await freshStack("dev", [cluster()]);
    await first.up();
    expect(await trackedOf(first)).toEqual({ cluster: "kaas-0001" });

    // Both stacks' objects would carry one owner tag, so each could act on the other's: the second stops.
    const otherBackend = path.join(s.dir, "other-backend");
    fs.mkdirSync(otherBackend, { recursive: true });
    const second = await s.stack("dev", dir, {}, { PULUMI_BACKEND_URL: `file://${otherBackend}` });
    await s.declare(second, [cluster()]);
    s.clearRequests();
    const refused = await second.up().then(
      () => "",
      (error: Error) => error.message,
    );
    expect(refused).toContain(`Kaas "cluster": found cluster kaas-0001 (Active, created `);
    expect(refused).toContain(
      `naming this resource as its owner (tag pulumi-ct-owner:${project}/dev/cluster), but this stack's state ` +
        "does not track it: it was removed from the state (pulumi state delete), the state was restored from an " +
        "older copy, or another state backend holds a stack of the same name. Nothing was created.",
    );
    expect(s.mutations()).toEqual([]);
    expect(live().kaas).toEqual(["kaas-0001 Active"]);

    await second.destroy();
    expect(live().kaas).toEqual(["kaas-0001 Active"]);
    await first.preview({ expectNoChanges: true });
  });

  it.each([
    [502, STRICT],
    [503, DEFAULT],
    [504, STRICT],
    ["dropped", DEFAULT],
  ] as const)(
    "a create request processed and then answered %s leaves exactly one object of each kind, %s",
    async (fault, reading) => {
      reset(reading);
      emulator().setFaults(
        fault === "dropped"
          ? { dropAfterProcessingRate: 1, methods: ["POST"] }
          : { errorAfterProcessingRates: { [fault]: 1 }, methods: ["POST"] },
      );
      const stack = await freshStack(`lost-${fault}`, [cluster(), backup(), registry()]);
      s.clearRequests();
      const result = await stack.up();
      const posts = s.mutations().filter((m) => m.startsWith("POST"));
      expect(posts.sort()).toEqual(["POST /kaas", "POST /kaas/kaas-0001/backups", "POST /registries"]);
      expect(result.stdout).toContain("checking before retrying");
      expect(live()).toEqual({
        kaas: ["kaas-0001 Active"],
        registries: ["registry-0001 Active"],
        backups: ["backup-0001 Active"],
      });
      expect(await trackedOf(stack)).toEqual({
        cluster: "kaas-0001",
        nightly: "backup-0001",
        images: "registry-0001",
      });
      emulator().setFaults({});
      await stack.preview({ expectNoChanges: true });
    },
  );

  it(`a create resumed after a killed run reports the cluster as it is: the next preview plans the resize back, ${STRICT}`, async () => {
    reset(STRICT);
    emulator().updateConfig({ durations: { kaasCreateMs: LONG_MS } });
    const stack = await freshStack("resized", [cluster()]);
    await killWhen(
      s.cli(["up", "--yes", "--skip-preview", "--stack", stack.name], dir, { detached: true }),
      () => live().kaas.length === 1,
      "the create request",
    );
    // The cluster finishes, then an operator resizes a pool before anyone runs pulumi again.
    emulator().advanceClock(LONG_MS);
    emulator().scaleNodePool("kaas-0001", "system", 4);
    expect((await s.cli(["cancel", "--yes", "--stack", stack.name], dir).done).code).toBe(0);

    const resumed = await stack.up();
    expect(resumed.stdout).toContain("resuming the creation of kaas-0001 started by an earlier run");
    const preview = await stack.preview({ diff: true });
    expect(preview.changeSummary).toEqual({ same: 1, update: 1 });
    expect(preview.stdout).toMatch(/nodePools/);
    s.clearRequests();
    await stack.up();
    expect(s.mutations()).toEqual(["PUT /kaas/kaas-0001/nodePools/system"]);
    await stack.preview({ expectNoChanges: true });
  });

  it(`a stack created anew with another client secret and otherwise the same inputs sends the same creation tag, ${DEFAULT}`, async () => {
    reset(DEFAULT);
    const withSecret = (secret: string) =>
      cluster({ identity: { clientId: "cluster-app", clientSecret: { $secret: secret } } });
    /**
     * The tags the create request gave the cluster: read while the service holds its answer, since the program
     * releases the creation tag once the engine has recorded the id.
     */
    const tagsOfCreate = async (stack: Stack) => {
      const hold = emulator().hold({ method: "POST", pathPattern: `^${PREFIX}/kaas$`, when: "after" });
      const run = stack.up();
      let created: (string[] | null | undefined)[];
      try {
        // The run's end settles the race only when no create request came (its failure is thrown below).
        const ended = run.then(
          () => null,
          () => null,
        );
        const held = await Promise.race([hold.reached, ended]);
        if (held === null) {
          await run;
          throw new Error("pulumi up ended without a create request");
        }
        expect(held.status).toBe(201);
        created = emulator()
          .state()
          .kaas.filter((k) => k.status?.state === "InCreation")
          .map((k) => k.metadata.tags);
      } finally {
        hold.release();
      }
      await run;
      expect(created).toHaveLength(1);
      return created[0];
    };
    const stack = await s.stack("secrets", dir);
    await s.declare(stack, [withSecret("first-client-secret")], { secret: true });
    const first = await tagsOfCreate(stack);
    await stack.destroy();
    await s.declare(stack, [withSecret("second-client-secret")], { secret: true });
    const second = await tagsOfCreate(stack);
    expect(first).toEqual([
      expect.stringMatching(/^pulumi-ct-[0-9a-f]{20}$/),
      `pulumi-ct-owner:${project}/secrets/cluster`,
    ]);
    expect(second).toEqual(first);
  });

  it.each([
    ["membership", DEFAULT],
    ["whole", STRICT],
  ] as const)(
    "a create in a project of 400 other clusters lists exactly as often as in an empty one (filters: %s), otherwise %s",
    async (filters, reading) => {
      /** The list requests (`GET /kaas`) of one `up` creating one cluster. */
      const listsOfOneCreate = async (stackName: string) => {
        const stack = await freshStack(stackName, [cluster()]);
        s.clearRequests();
        await stack.up();
        const lists = s.requests().filter((r) => r.method === "GET" && r.path === `${PREFIX}/kaas`);
        return lists.map((r) => r.query.filter ?? null);
      };
      reset(reading);
      emulator().updateConfig({ wire: { ...WIRES[reading], filters } });
      const empty = await listsOfOneCreate(`empty-${filters}`);
      reset(reading);
      emulator().updateConfig({ wire: { ...WIRES[reading], filters } });
      emulator().seed({ projectId: PROJECT, kind: "kaas", count: 400 });
      const crowded = await listsOfOneCreate(`crowded-${filters}`);
      // The owner-tag filter, then the name filter: a filtered list that finds nothing cannot tell an empty answer
      // from the `whole` reading, where the creation tag beside the owner tag keeps the tag filter from matching.
      const lookup = (stackName: string) => [
        `metadata.tags:eq("pulumi-ct-owner:${project}/${stackName}/cluster")`,
        'metadata.name:eq("e2e-cluster")',
      ];
      expect(empty).toEqual(lookup(`empty-${filters}`));
      expect(crowded).toEqual(lookup(`crowded-${filters}`));
    },
  );
});
