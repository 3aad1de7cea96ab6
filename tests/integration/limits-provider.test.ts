/**
 * The account's limits through the Kaas provider against the emulator (its cluster types allow 1 to 50 nodes
 * per pool): with `vendor:limits` declaring them, `check` refuses a 1000-node pool before any request; without
 * it, `check` lets the pool through and the service's refusal of the one POST reaches the user naming the field
 * and the limit, in every shape of the problem body, and no cluster is left behind. A setting with an unknown
 * key fails the check naming the setting and the key; a cluster of fifty pools, one of them badly named, fails
 * it with short reasons of the whole resource naming the pool and the limit, which the engine prints without
 * quoting the pools.
 */
import type { KindProvider } from "../../provider";
import { startHarness, type Harness } from "./support/harness";
import { harnessWire } from "./support/wire";

const cluster = (nodes: number) => ({
  name: "big",
  location: "ITBG-Bergamo",
  kubernetesVersion: "1.33.2",
  nodeCidr: { address: "10.30.0.0/16", name: "big-nodes" },
  nodePools: [{ name: "system", nodes, instance: "K4A8", dataCenter: "ITBG-1" }],
  creationScope: "proj/dev/big",
});

/** The emulator's field error for the pool, as the REST client renders it in each shape. */
const REFUSAL = "properties.nodePools[0].nodes: must be between 1 and 50 (got 1000)";
const REFUSED_IN = {
  array: REFUSAL,
  map: REFUSAL,
  absent: `One or more validation errors occurred: ${REFUSAL}`,
};

describe.each(["array", "map", "absent"] as const)("a 1000-node pool, field errors %s", (errors) => {
  let h: Harness;
  let kaas: KindProvider;
  beforeAll(async () => {
    h = await startHarness({ wire: { ...harnessWire(), errors } });
    kaas = h.kind("Kaas");
  });
  afterAll(() => h.close());
  beforeEach(() => {
    delete h.config["vendor:limits"];
    h.emulator.reset();
  });

  it("is refused by check when vendor:limits declares maxNode 50, without any request", async () => {
    h.config["vendor:limits"] = '{"maxNode": 50, "maxNodePool": 10}';
    const { failures } = await kaas.check({}, cluster(1000));
    expect(failures).toEqual([
      { property: "", reason: "nodePools[0].nodes: must be at most 50 (vendor:limits maxNode), got 1000" },
    ]);
    expect(h.emulator.requests()).toEqual([]);
  });

  it("passes check without the setting, and create fails after one POST naming the field and the limit, creating nothing", async () => {
    const { inputs, failures } = await kaas.check({}, cluster(1000));
    expect(failures).toEqual([]);
    // The REST client's message, whole: the provider adds nothing that could hide the field or the limit.
    await expect(kaas.create(inputs)).rejects.toMatchObject({
      message: `POST /kaas failed (400 Bad Request): ${REFUSED_IN[errors]}`,
    });
    expect(h.mutating()).toEqual([{ method: "POST", path: "/kaas" }]);
    expect(h.emulator.state().kaas).toEqual([]);
  });
});

describe("vendor:limits at check", () => {
  let h: Harness;
  let kaas: KindProvider;
  beforeAll(async () => {
    h = await startHarness();
    kaas = h.kind("Kaas");
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.emulator.reset();
  });

  it("fails a cluster naming the setting and the key when vendor:limits has an unknown key, without any request", async () => {
    h.config["vendor:limits"] = '{"maxNodes": 50}';
    const { failures } = await kaas.check({}, cluster(2));
    expect(failures).toEqual([
      {
        property: "",
        reason:
          'vendor:limits: "maxNodes" is not a limit (limits: maxNodePool, minNodePool, maxNode, minNode, ' +
          "minClusterBlockStorageSize, maxClusterBlockStorageSize, maxWhitelistCount)",
      },
    ]);
    expect(h.emulator.requests()).toEqual([]);
  });

  it("names the bad pool of fifty and the pool limit in short reasons of the whole resource, without quoting the pools", async () => {
    h.config["vendor:limits"] = '{"maxNode": 50, "maxNodePool": 10}';
    const [system] = cluster(2).nodePools;
    const nodePools = Array.from({ length: 50 }, (_, i) => ({
      ...system,
      name: i === 37 ? "Pool_37" : `pool-${i}`,
    }));
    const { failures } = await kaas.check({}, { ...cluster(2), nodePools });
    // Failures of the whole resource: the engine prints no value for them (neither the fifty pools of the
    // limit's property nor `{<nil>}` for the nested name), only the reason, which is short.
    expect(failures).toEqual([
      {
        property: "",
        reason: "nodePools: must have at most 10 node pools (vendor:limits maxNodePool), got 50",
      },
      {
        property: "",
        reason:
          "nodePools[37].name = \"Pool_37\": must be 1-40 lower-case letters, digits or '-', starting and ending " +
          "with a letter or digit",
      },
    ]);
    for (const { reason } of failures) expect(reason.length).toBeLessThan(200);
    expect(h.emulator.requests()).toEqual([]);
  });
});
