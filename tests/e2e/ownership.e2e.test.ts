/**
 * A create never takes over, or lets the engine delete, an object that is not its own, through the real
 * engine against the emulator, the tests taking turns between its default readings and its strictest (published
 * interface only), so that the engine meets both; the provider under each reading, case by case, is the
 * integration projects' (tests/integration/creation-provider.test.ts runs under both):
 *
 * - `pulumi up --replace` of an Active Kaas, KaasBackup and Registry makes new objects, tracked by the stack,
 *   and deletes the old ones; so does the recovery (docs/creation-and-recovery.md) of a cluster that ended
 *   `Failed`. (A replacement killed at any point is the crash-point suite's: tests/e2e/crash-points.e2e.test.ts.)
 * - A second state backend holding the same project, stack and program is refused before any change, naming the
 *   first backend's cluster, which it never touches.
 * - The creates of that replacement, each processed by the service and its connection then dropped, make
 *   exactly one object of each kind. (A create's answer lost in any other way, and under every reading, is the
 *   integration projects': tests/integration/filter-readings-provider.test.ts, reliability-faults.test.ts.)
 *
 * What the provider decides alone, whatever the engine, is tested below it: the creation tag, the same for any
 * argument, a secret included (tests/unit/creation.test.ts); a lookup's requests in a project of 400 other
 * clusters (tests/integration/creation-provider.test.ts); a resumed create reporting the cluster as the
 * service has it, so that the next up resizes a pool back (tests/integration/kaas-provider.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { DEFAULT_WIRE, STRICT_WIRE, type WireReadings } from "../../emulator";
import { backup, cluster, registry } from "./support/args";
import { openSuite, type Declared, type Suite, trackedOf } from "./support/suite";

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

  it(`pulumi up --replace of an Active Kaas, KaasBackup and Registry, every create's answer lost, makes exactly one new object of each and deletes the old ones, ${DEFAULT}`, async () => {
    reset(DEFAULT);
    const stack = await freshStack("replace", [cluster(), backup(), registry()]);
    await stack.up();
    const before = await trackedOf(stack);
    expect(before).toEqual({ cluster: "kaas-0001", nightly: "backup-0001", images: "registry-0001" });

    // Every create of the replacement is processed, then its connection dropped before the answer.
    emulator().setFaults({ dropAfterProcessingRate: 1, methods: ["POST"] });
    s.clearRequests();
    const replaced = await stack.up({
      replace: [
        urnOf(stack, project, "Kaas", "cluster"),
        urnOf(stack, project, "KaasBackup", "nightly"),
        urnOf(stack, project, "Registry", "images"),
      ],
    });
    emulator().setFaults({});
    expect(
      s
        .mutations()
        .filter((m) => m.startsWith("POST"))
        .sort(),
    ).toEqual(["POST /kaas", "POST /kaas/kaas-0002/backups", "POST /registries"]);
    expect(replaced.stdout).toContain("checking before retrying");
    expect(await trackedOf(stack)).toEqual({
      cluster: "kaas-0002",
      nightly: "backup-0002",
      images: "registry-0002",
    });
    expect(live()).toEqual({
      kaas: ["kaas-0002 Active"],
      registries: ["registry-0002 Active"],
      backups: ["backup-0002 Active"],
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
});
