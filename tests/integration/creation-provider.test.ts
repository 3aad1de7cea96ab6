/**
 * Idempotent create of a Kaas against the emulator, as the design decides what a lookup finds: an object
 * carrying this resource's creation tag is resumed only where the evidence says it is this stack's
 * interrupted create (still provisioning, or settled within the create timeout), skipped when its create
 * failed, and refused otherwise, before any request that changes anything. The lookup's requests do not grow
 * with the project where the service applies filters, and a name a filter cannot carry is never sent in one.
 */
import type { StartEmulatorOptions, WireReadings } from "../../emulator";
import type { KindProvider } from "../../provider";
import { insertBody } from "../../provider/kaas/mapping";
import type { CheckedKaasInputs } from "../../provider/kaas/types";
import { expectedCreationTag, expectedOwnerTag } from "../support/creation-token";
import { asChecked, checked, startHarness, BACKEND, PROJECT, type ProviderHarness } from "./provider-harness";

const SCOPE = "proj/dev/prod";
const CREATION_TAG = expectedCreationTag(SCOPE, BACKEND);
const OWNER_TAG = expectedOwnerTag(SCOPE);
const HOUR = 3600_000;

let h: ProviderHarness;
let kaas: KindProvider;

async function start(options: StartEmulatorOptions = {}): Promise<void> {
  h = await startHarness(options);
  kaas = h.kind("Kaas");
}

afterEach(async () => {
  await h?.close();
});

const args = (overrides: Record<string, unknown> = {}) => ({
  name: "prod",
  location: "ITBG-Bergamo",
  kubernetesVersion: "1.32.5",
  nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
  nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
  tags: ["team:a"],
  creationScope: SCOPE,
  ...overrides,
});

/** What an earlier run left: its POST was accepted and the process died before it learnt the id. */
async function interruptedCreate(inputs: Record<string, unknown>): Promise<string> {
  const orphan = await h.client.call(
    "createKaas",
    { projectId: PROJECT },
    insertBody(asChecked<CheckedKaasInputs>(inputs)),
  );
  return orphan.metadata.id;
}

/** The cluster as the service holds it. */
const live = (id: string) => h.running.emulator.state().kaas.find((k) => k.metadata.id === id)!;

describe("a cluster found carrying this resource's creation tag", () => {
  beforeEach(() => start());

  it("is refused, with no POST and no PUT, when it is Active and older than the create timeout", async () => {
    const inputs = await checked(kaas, {}, args());
    // Created three hours ago (the emulator's clock moved back for the POST), Active since.
    h.running.emulator.advanceClock(-3 * HOUR);
    const orphan = await interruptedCreate(inputs);
    h.running.emulator.advanceClock(3 * HOUR);
    const created = live(orphan).metadata.creationDate;
    expect(Date.now() - Date.parse(created!)).toBeGreaterThan(2 * HOUR);
    expect(live(orphan).status?.state).toBe("Active");
    h.running.emulator.clearRequests();

    await expect(kaas.create(inputs)).rejects.toThrow(
      `Kaas "prod": found cluster ${orphan} (Active, created ${created}) carrying this resource's creation ` +
        `tag ${CREATION_TAG}, but nothing shows it is an interrupted create of this stack: it is Active and ` +
        "was created longer ago than the create timeout (40m). It is not taken over and nothing was created. " +
        `If it is this resource's cluster, set adoptId: "${orphan}" to adopt it; otherwise delete it, or ` +
        "remove that tag from it.",
    );

    expect(h.mutating()).toEqual([]);
    expect(h.running.emulator.state().kaas.map((k) => k.metadata.id)).toEqual([orphan]);
    expect(live(orphan).metadata.tags).toEqual(["team:a", CREATION_TAG, OWNER_TAG]);
  });

  it("is resumed when it is Active and was created within the create timeout", async () => {
    const inputs = await checked(kaas, {}, args());
    h.running.emulator.advanceClock(-10 * 60_000);
    const orphan = await interruptedCreate(inputs);
    h.running.emulator.advanceClock(10 * 60_000);
    expect(live(orphan).status?.state).toBe("Active");
    h.running.emulator.clearRequests();

    const { id } = await kaas.create(inputs);

    expect(id).toBe(orphan);
    expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${orphan}` }]);
    expect(live(orphan).metadata.tags).toEqual(["team:a", OWNER_TAG]);
  });

  it("is adopted by the adoptId the refusal names, and its creation tag released", async () => {
    const inputs = await checked(kaas, {}, args());
    h.running.emulator.advanceClock(-3 * HOUR);
    const orphan = await interruptedCreate(inputs);
    h.running.emulator.advanceClock(3 * HOUR);
    await expect(kaas.create(inputs)).rejects.toThrow(`set adoptId: "${orphan}" to adopt it`);
    h.running.emulator.clearRequests();

    const { id } = await kaas.create(await checked(kaas, {}, args({ adoptId: orphan })));

    expect(id).toBe(orphan);
    expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${orphan}` }]);
    expect(live(orphan).metadata.tags).toEqual(["team:a", OWNER_TAG]);
  });

  it("is skipped with a line naming it when its create failed, and a new cluster is created", async () => {
    const inputs = await checked(kaas, {}, args());
    const failed = await interruptedCreate(inputs);
    h.running.emulator.patchResource("kaas", failed, { state: "Failed" });
    const created = live(failed).metadata.creationDate;
    h.running.emulator.clearRequests();

    const { id } = await kaas.create(inputs);

    expect(id).not.toBe(failed);
    expect(h.mutating()).toEqual([
      { method: "POST", path: "/kaas" },
      { method: "PUT", path: `/kaas/${id}` },
    ]);
    expect(h.lines).toContain(
      `[vendor-container] Kaas "prod": cluster ${failed} (Failed, created ${created}) carries this ` +
        "resource's creation tag but it ended Failed: not resumed; delete it if no stack tracks it",
    );
    // The failed one is left as it was; the new one carries the owner tag and no creation tag.
    expect(live(failed).metadata.tags).toEqual(["team:a", CREATION_TAG, OWNER_TAG]);
    expect(live(id).metadata.tags).toEqual(["team:a", OWNER_TAG]);
  });
});

describe("after a create", () => {
  beforeEach(() => start());

  it("the cluster carries exactly the user tags, then the owner tag, and no creation tag", async () => {
    const inputs = await checked(kaas, {}, args({ tags: ["team:a", "env:prod", "cost:42"] }));
    const { id, outs } = await kaas.create(inputs);
    expect(live(id).metadata.tags).toEqual(["team:a", "env:prod", "cost:42", OWNER_TAG]);
    expect(outs.tags).toEqual(["team:a", "env:prod", "cost:42"]);
  });

  it("a second create of the same scope (a replacement) does not find the first cluster", async () => {
    const inputs = await checked(kaas, {}, args());
    const first = await kaas.create(inputs);
    h.running.emulator.clearRequests();

    const second = await kaas.create(
      await checked(kaas, {}, args({ nodeCidr: { address: "10.11.0.0/16", name: "n" } })),
    );

    expect(second.id).not.toBe(first.id);
    expect(h.mutating()).toEqual([
      { method: "POST", path: "/kaas" },
      { method: "PUT", path: `/kaas/${second.id}` },
    ]);
  });
});

/** The list requests of the cluster collection of `project`: their filter (null without one) and status. */
function clusterLists(project: string): { filter: string | null; status: number | null }[] {
  const path = `/projects/${project}/providers/Vendor.Container/kaas`;
  return h.running.emulator
    .requests()
    .filter((r) => r.method === "GET" && r.path === path)
    .map((r) => ({ filter: r.query.filter ?? null, status: r.status }));
}

const byTag = (tag: string) => `metadata.tags:eq("${tag}")`;
const byName = (name: string) => `metadata.name:eq("${name}")`;

// Readings under which the service applies filters: a lookup's requests do not depend on the project's size.
describe.each<WireReadings["filters"]>(["membership", "whole"])(
  "lookup requests under filters %s",
  (filters) => {
    it("are the same for a create in a project of 400 other clusters as in an empty project", async () => {
      await start({ wire: { filters } });
      const crowded = "p-crowded";
      const seeded = h.running.emulator.seed({ projectId: crowded, kind: "kaas", count: 400 });
      expect(seeded.ids).toHaveLength(400);
      expect(h.running.emulator.state().kaas).toHaveLength(400);
      h.running.emulator.clearRequests();

      const inEmpty = await kaas.create(await checked(kaas, {}, args()));
      const inCrowded = await kaas.create(await checked(kaas, {}, args({ projectId: crowded })));

      expect(h.running.emulator.state().kaas).toHaveLength(402);
      const expected = [
        { filter: byTag(CREATION_TAG), status: 200 },
        { filter: byName("prod"), status: 200 },
      ];
      expect(clusterLists(PROJECT)).toEqual(expected);
      expect(clusterLists(crowded)).toEqual(expected);
      expect([inEmpty.id, inCrowded.id]).toEqual(["kaas-0401", "kaas-0402"]);
    });
  },
);

describe("a name a filter cannot carry safely", () => {
  it("is never sent in a name filter, and does not switch filtering off for a later create with a plain name", async () => {
    await start({ wire: { filters: "membership" } });
    const odd = await checked(kaas, {}, args({ name: "prod;blue", creationScope: "proj/dev/odd" }));
    const plain = await checked(kaas, {}, args({ name: "plain", creationScope: "proj/dev/plain" }));
    h.running.emulator.clearRequests();

    const first = await kaas.create(odd);
    const afterOdd = clusterLists(PROJECT);
    const second = await kaas.create(plain);

    expect(afterOdd).toEqual([{ filter: byTag(expectedCreationTag("proj/dev/odd", BACKEND)), status: 200 }]);
    expect(clusterLists(PROJECT).slice(afterOdd.length)).toEqual([
      { filter: byTag(expectedCreationTag("proj/dev/plain", BACKEND)), status: 200 },
      { filter: byName("plain"), status: 200 },
    ]);
    expect(h.lines.filter((l) => l.includes("refuses the list filter"))).toEqual([]);
    expect([live(first.id).metadata.name, live(second.id).metadata.name]).toEqual(["prod;blue", "plain"]);
  });
});
