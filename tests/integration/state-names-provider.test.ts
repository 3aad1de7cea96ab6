/**
 * State names the published interface does not list: the Kaas provider against an
 * emulator whose `status.state` answers another vocabulary (wire reading `states`). Capitals are the same
 * states; a vocabulary of other words ends a create after `vendor:unknownStateTimeout` with an error naming
 * the state and `vendor:stateNames`, and that setting makes the same create succeed.
 */
import { FAST_DURATIONS, type WireReadings } from "../../emulator";
import type { KindProvider } from "../../provider";
import { checked, startHarness, type Harness } from "./support/harness";
import { harnessWire } from "./support/wire";

let h: Harness;
let kaas: KindProvider;

/**
 * The harness's readings (strict in the published-interface project) with the vocabulary `states`. `tombstone`
 * `kept` holds a deleted cluster for a minute, so that a test can read its last state however slow the machine;
 * `brief` lets it go after 50 ms, for a delete that waits until the service answers 404.
 */
async function start(states: WireReadings["states"], tombstone: "kept" | "brief"): Promise<void> {
  h = await startHarness({
    wire: { ...(harnessWire() ?? {}), states },
    // The create settles at once: the first poll already sees the settled state, whatever its name.
    durations: {
      ...FAST_DURATIONS,
      kaasCreateMs: 0,
      tombstoneMs: tombstone === "kept" ? 60_000 : FAST_DURATIONS.tombstoneMs,
    },
  });
  kaas = h.kind("Kaas");
}

afterEach(async () => {
  await h?.close();
});

const args = {
  name: "prod",
  location: "ITBG-Bergamo",
  kubernetesVersion: "1.32.5",
  nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
  nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
  creationScope: "proj/dev/prod",
};

/** The mapping a user of the `alternate` vocabulary declares. */
const ALTERNATE_NAMES = JSON.stringify({
  Ready: "settled",
  Starting: "transitional",
  Changing: "transitional",
  Removing: "deleting",
  Removed: "deleted",
  Broken: "failed",
});

/** The clusters the service still holds, tombstones included, with their state as it answers it. */
const held = () => h.emulator.state().kaas.map((k) => [k.metadata.id, k.status?.state]);

describe("a Kaas whose service answers states in capitals", () => {
  beforeEach(() => start("upper", "kept"));

  it("is created, read and deleted without any setting", async () => {
    const inputs = await checked(kaas, {}, args);

    const { id, outs } = await kaas.create(inputs);

    expect([outs.state, typeof outs.kubeconfig]).toEqual(["ACTIVE", "string"]);
    expect((await kaas.read(id, outs)).props.state).toBe("ACTIVE");
    await kaas.delete(id, outs);
    expect(held()).toEqual([["kaas-0001", "DELETED"]]);
  });
});

describe("a Kaas whose service answers states of another vocabulary", () => {
  it("fails after vendor:unknownStateTimeout, naming the state and the setting, and is still deleted", async () => {
    await start("alternate", "brief");
    h.config["vendor:unknownStateTimeout"] = "1s";
    const inputs = await checked(kaas, {}, args);
    const started = Date.now();

    const error = (await kaas.create(inputs).then(
      () => undefined,
      (e: unknown) => e,
    )) as Error & { id?: string; properties?: Record<string, unknown> };

    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(error.message).toBe(
      'Kaas "prod" (kaas-0001) was created but is not ready: GET /kaas/kaas-0001: ' +
        'Kaas "prod" (kaas-0001) stayed in state "Ready", which this provider does not know, for 1s while ' +
        'waiting for Active. Tell it what "Ready" means with the setting vendor:stateNames (VENDOR_STATE_NAMES), ' +
        'e.g. {"Ready": "settled"}, mapping each state name to settled, transitional, deleting, deleted or ' +
        "failed; vendor:unknownStateTimeout (VENDOR_UNKNOWN_STATE_TIMEOUT) sets how long an unknown state is " +
        "waited on.",
    );
    expect(h.lines).toContain(
      '[vendor-container] Kaas "prod" (kaas-0001) is in state "Ready", which this provider does not know ' +
        "(vendor:stateNames); waiting for Active, giving up in 1s (0s elapsed)",
    );
    // A partial failure: the engine keeps the cluster, and its deletion needs no setting: not knowing
    // `Removed` for gone, the delete waits on until the service answers 404, when even the tombstone is gone.
    expect([error.id, error.properties?.state]).toEqual(["kaas-0001", "Ready"]);
    await kaas.delete("kaas-0001", error.properties!);
    expect(held()).toEqual([]);
  });

  it("is created, read and deleted once vendor:stateNames says what the names mean", async () => {
    await start("alternate", "kept");
    h.config["vendor:stateNames"] = ALTERNATE_NAMES;
    const inputs = await checked(kaas, {}, args);

    const { id, outs } = await kaas.create(inputs);

    expect([outs.state, typeof outs.kubeconfig]).toEqual(["Ready", "string"]);
    expect((await kaas.read(id, outs)).props.state).toBe("Ready");
    await kaas.delete(id, outs);
    expect(held()).toEqual([["kaas-0001", "Removed"]]);
  });

  it("resumes the cluster of such a failed create in update once vendor:stateNames is set, with one PUT, and deletes it", async () => {
    await start("alternate", "kept");
    h.config["vendor:unknownStateTimeout"] = "1s";
    const inputs = await checked(kaas, {}, args);
    const error = (await kaas.create(inputs).then(
      () => undefined,
      (e: unknown) => e,
    )) as Error & { id?: string; properties?: Record<string, unknown> };
    expect(error.id).toBe("kaas-0001");
    h.config["vendor:stateNames"] = ALTERNATE_NAMES;
    h.emulator.clearRequests();

    // The next `pulumi up` calls update with the state the partial failure left.
    const { outs } = await kaas.update("kaas-0001", error.properties!, inputs);

    expect([outs.kaasId, outs.state]).toEqual(["kaas-0001", "Ready"]);
    // No create: only the update that releases the creation tag.
    expect(h.mutating()).toEqual([{ method: "PUT", path: "/kaas/kaas-0001" }]);
    expect(held()).toEqual([["kaas-0001", "Ready"]]);
    h.emulator.clearRequests();
    await kaas.delete("kaas-0001", outs);
    expect(h.mutating()).toEqual([{ method: "DELETE", path: "/kaas/kaas-0001" }]);
  });

  it("refuses a vendor:stateNames that is not a mapping to state classes, naming the setting, at check and at create", async () => {
    await start("alternate", "brief");
    const inputs = await checked(kaas, {}, args);
    h.config["vendor:stateNames"] = '{"Ready": "done"}';
    const refusal =
      'vendor:stateNames: "Ready" must map to one of settled, transitional, deleting, deleted, failed, got "done"';

    expect((await kaas.check({}, args)).failures).toEqual([{ property: "", reason: refusal }]);
    // A create with inputs checked before the setting changed refuses it as well, before any request.
    await expect(kaas.create(inputs)).rejects.toThrow(refusal);
    expect(h.mutating()).toEqual([]);
  });
});
