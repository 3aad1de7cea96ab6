/**
 * Idempotent create of a Kaas against the emulator, as the design decides what a lookup finds (docs/creation-and-recovery.md
 * "How creation works"): an object carrying this resource's creation tag is resumed only where the evidence says it
 * is this stack's interrupted create (still provisioning, or settled within the create timeout), skipped when
 * its create failed, and refused otherwise, before any request that changes anything. The create leaves the
 * creation tag; the program releases it once the engine has recorded the id. An object naming this resource as
 * owner without the creation tag is refused when the state tracks nothing (`trackedId` null or unknown), and
 * left alone by a replacement, which never resumes the object it replaces. The lookup's requests do not grow
 * with the project where the service applies filters, and a name a filter cannot carry is never sent in one.
 */
import type { StartEmulatorOptions, WireReadings } from "../../emulator";
import type { KindProvider } from "../../provider";
import { insertBody } from "../../provider/kaas/mapping";
import type { CheckedKaasInputs } from "../../provider/kaas/types";
import { expectedCreationTag, expectedOwnerTag } from "../support/creation-token";
import { byName, byTag } from "../support/expressions";
import {
  asChecked,
  checked,
  startHarness,
  BACKEND,
  PROJECT,
  RELEASE_LINE,
  type Harness,
} from "./support/harness";

const SCOPE = "proj/dev/prod";
const CREATION_TAG = expectedCreationTag(SCOPE, BACKEND);
const OWNER_TAG = expectedOwnerTag(SCOPE);
const HOUR = 3600_000;

let h: Harness;
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
const live = (id: string) => h.emulator.state().kaas.find((k) => k.metadata.id === id)!;

describe("a cluster found carrying this resource's creation tag", () => {
  beforeEach(() => start());

  it("is refused, with no POST and no PUT, when it is Active and older than the create timeout", async () => {
    const inputs = await checked(kaas, {}, args());
    // Created three hours ago (the emulator's clock moved back for the POST), Active since.
    h.emulator.advanceClock(-3 * HOUR);
    const orphan = await interruptedCreate(inputs);
    h.emulator.advanceClock(3 * HOUR);
    const created = live(orphan).metadata.creationDate;
    expect(Date.now() - Date.parse(created!)).toBeGreaterThan(2 * HOUR);
    expect(live(orphan).status?.state).toBe("Active");
    h.emulator.clearRequests();

    await expect(kaas.create(inputs)).rejects.toThrow(
      `Kaas "prod": found cluster ${orphan} (Active, created ${created}) carrying this resource's creation ` +
        `tag ${CREATION_TAG}, but nothing shows it is an interrupted create of this stack: it is Active and ` +
        "was created longer ago than the create timeout (40m). It is not taken over and nothing was created. " +
        `If it is this resource's cluster, set adoptId: "${orphan}" to adopt it; otherwise delete it, or ` +
        "remove that tag from it.",
    );

    expect(h.mutating()).toEqual([]);
    expect(h.emulator.state().kaas.map((k) => k.metadata.id)).toEqual([orphan]);
    expect(live(orphan).metadata.tags).toEqual(["team:a", CREATION_TAG, OWNER_TAG]);
  });

  it("is resumed when it is Active and was created within the create timeout", async () => {
    const inputs = await checked(kaas, {}, args());
    h.emulator.advanceClock(-10 * 60_000);
    const orphan = await interruptedCreate(inputs);
    h.emulator.advanceClock(10 * 60_000);
    expect(live(orphan).status?.state).toBe("Active");
    h.emulator.clearRequests();

    const { id, outs } = await kaas.create(inputs);

    expect(id).toBe(orphan);
    expect(h.mutating()).toEqual([]);
    expect(live(orphan).metadata.tags).toEqual(["team:a", CREATION_TAG, OWNER_TAG]);
    await h.release("Kaas", id, outs);
    expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${orphan}` }]);
    expect(live(orphan).metadata.tags).toEqual(["team:a", OWNER_TAG]);
  });

  it("is adopted by the adoptId the refusal names, and its creation tag released", async () => {
    const inputs = await checked(kaas, {}, args());
    h.emulator.advanceClock(-3 * HOUR);
    const orphan = await interruptedCreate(inputs);
    h.emulator.advanceClock(3 * HOUR);
    await expect(kaas.create(inputs)).rejects.toThrow(`set adoptId: "${orphan}" to adopt it`);
    h.emulator.clearRequests();

    const { id } = await kaas.create(await checked(kaas, {}, args({ adoptId: orphan })));

    expect(id).toBe(orphan);
    expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${orphan}` }]);
    expect(live(orphan).metadata.tags).toEqual(["team:a", OWNER_TAG]);
  });

  it("is skipped with a line naming it when its create failed, and a new cluster is created", async () => {
    const inputs = await checked(kaas, {}, args());
    const failed = await interruptedCreate(inputs);
    h.emulator.patchResource("kaas", failed, { state: "Failed" });
    const created = live(failed).metadata.creationDate;
    h.emulator.clearRequests();

    const { id } = await kaas.create(inputs);

    expect(id).not.toBe(failed);
    expect(h.mutating()).toEqual([{ method: "POST", path: "/kaas" }]);
    expect(h.lines).toContain(
      `[vendor-container] Kaas "prod": cluster ${failed} (Failed, created ${created}) carries this ` +
        "resource's creation tag but it ended Failed: not resumed; delete it if no stack tracks it",
    );
    // The failed one is left as it was; the new one carries both tags until the program releases it.
    expect(live(failed).metadata.tags).toEqual(["team:a", CREATION_TAG, OWNER_TAG]);
    expect(live(id).metadata.tags).toEqual(["team:a", CREATION_TAG, OWNER_TAG]);
  });
});

describe("after a create", () => {
  beforeEach(() => start());

  it("the cluster carries the user tags, the creation tag and the owner tag; the program's release leaves the user tags, then the owner tag", async () => {
    const inputs = await checked(kaas, {}, args({ tags: ["team:a", "env:prod", "cost:42"] }));
    const { id, outs } = await kaas.create(inputs);
    expect(live(id).metadata.tags).toEqual(["team:a", "env:prod", "cost:42", CREATION_TAG, OWNER_TAG]);
    expect(outs.tags).toEqual(["team:a", "env:prod", "cost:42"]);
    h.emulator.clearRequests();

    expect(await h.release("Kaas", id, outs)).toBe("retagged");

    expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${id}` }]);
    expect(live(id).metadata.tags).toEqual(["team:a", "env:prod", "cost:42", OWNER_TAG]);
    expect(h.lines).toContain(`[vendor-container] Kaas "prod": ${RELEASE_LINE} ${id}`);
  });

  it("a second create of the same scope, once released, is a replacement: it makes a new cluster and leaves the first alone", async () => {
    const first = await kaas.create(await checked(kaas, {}, args()));
    await h.release("Kaas", first.id, first.outs);
    h.emulator.clearRequests();

    const second = await kaas.create(
      await checked(
        kaas,
        {},
        args({ nodeCidr: { address: "10.11.0.0/16", name: "n" }, trackedId: first.id }),
      ),
    );

    expect(second.id).not.toBe(first.id);
    expect(h.mutating()).toEqual([{ method: "POST", path: "/kaas" }]);
    expect(live(first.id).metadata.tags).toEqual(["team:a", OWNER_TAG]);
    expect(h.lines.filter((l) => l.includes("also names this resource"))).toEqual([]);
  });
});

/**
 * A settled cluster of this resource that a state recorded: its create request accepted, then its creation tag
 * released by the program (both sent directly, so the provider's lookups see only the create under test).
 */
async function recordedCluster(): Promise<string> {
  const inputs = await checked(kaas, {}, args());
  const id = await interruptedCreate(inputs);
  await h.release("Kaas", id, inputs);
  expect(live(id).metadata.tags).toEqual(["team:a", OWNER_TAG]);
  h.emulator.clearRequests();
  return id;
}

/** The refusal of a create that finds `id` naming this resource as owner while the state tracks nothing. */
const untracked = (id: string, unread: boolean) =>
  `Kaas "prod": found cluster ${id} (Active, created ${live(id).metadata.creationDate}) naming this ` +
  `resource as its owner (tag ${OWNER_TAG}), but this stack's state does not track it: it was removed from ` +
  "the state (pulumi state delete), the state was restored from an older copy, or another state backend holds a stack of the same name" +
  (unread ? " (the state could not be read to tell)" : "") +
  `. Nothing was created. If it is this resource's cluster, set adoptId: "${id}" to track it again; ` +
  "otherwise delete it.";

/** The POSTs the emulator received since the request log was last cleared, whatever their outcome. */
const posts = () => h.emulator.requests().filter((r) => r.method === "POST");

describe("a cluster naming this resource as owner, without the creation tag", () => {
  beforeEach(() => start());

  it("is refused when the state tracks nothing (trackedId null), before any request that changes anything", async () => {
    const recorded = await recordedCluster();

    await expect(kaas.create(await checked(kaas, {}, args({ trackedId: null })))).rejects.toThrow(
      new Error(untracked(recorded, false)),
    );

    expect(posts()).toEqual([]);
    expect(h.mutating()).toEqual([]);
    expect(h.emulator.state().kaas.map((k) => k.metadata.id)).toEqual([recorded]);
    expect(live(recorded).metadata.tags).toEqual(["team:a", OWNER_TAG]);
  });

  it("is refused when the state could not be read (trackedId unset) and no diff planned a replacement, saying so", async () => {
    const recorded = await recordedCluster();

    await expect(kaas.create(await checked(kaas, {}, args()))).rejects.toThrow(
      new Error(untracked(recorded, true)),
    );

    expect(posts()).toEqual([]);
    expect(h.emulator.state().kaas.map((k) => k.metadata.id)).toEqual([recorded]);
  });

  it("is tracked again by the adoptId the refusal names, with no request that changes anything", async () => {
    const recorded = await recordedCluster();
    await expect(kaas.create(await checked(kaas, {}, args({ trackedId: null })))).rejects.toThrow(
      `set adoptId: "${recorded}" to track it again`,
    );

    const { id } = await kaas.create(await checked(kaas, {}, args({ adoptId: recorded, trackedId: null })));

    expect(id).toBe(recorded);
    expect(h.mutating()).toEqual([]);
    expect(live(recorded).metadata.tags).toEqual(["team:a", OWNER_TAG]);
  });

  it("is left alone by a replacement (trackedId another cluster), named in a line, and a new cluster is made", async () => {
    const leftover = await recordedCluster();
    const tracked = await recordedCluster();

    const { id } = await kaas.create(await checked(kaas, {}, args({ trackedId: tracked })));

    expect([leftover, tracked]).not.toContain(id);
    expect(h.mutating()).toEqual([{ method: "POST", path: "/kaas" }]);
    expect(h.lines).toContain(
      `[vendor-container] Kaas "prod": cluster ${leftover} (Active, created ` +
        `${live(leftover).metadata.creationDate}) also names this resource as its owner but this stack's state ` +
        "does not track it: left alone; delete it if no stack tracks it",
    );
    expect([live(leftover).metadata.tags, live(tracked).metadata.tags]).toEqual([
      ["team:a", OWNER_TAG],
      ["team:a", OWNER_TAG],
    ]);
  });
});

describe("a replacement", () => {
  beforeEach(() => start());

  it("never resumes the cluster the state tracks (trackedId), even while it still carries the creation tag", async () => {
    // The state recorded the id, and the program's release did not happen (a run killed right after).
    const tracked = await kaas.create(await checked(kaas, {}, args()));
    expect(live(tracked.id).metadata.tags).toEqual(["team:a", CREATION_TAG, OWNER_TAG]);
    h.emulator.clearRequests();

    const { id } = await kaas.create(
      await checked(
        kaas,
        {},
        args({ nodeCidr: { address: "10.11.0.0/16", name: "n" }, trackedId: tracked.id }),
      ),
    );

    expect(id).not.toBe(tracked.id);
    expect(h.mutating()).toEqual([{ method: "POST", path: "/kaas" }]);
    expect(h.lines.filter((l) => l.includes("resuming the creation"))).toEqual([]);
    expect(live(tracked.id).metadata.tags).toEqual(["team:a", CREATION_TAG, OWNER_TAG]);
    const made = await h.client.call("getKaas", { projectId: PROJECT, id });
    expect(made.properties.nodecidr?.address).toBe("10.11.0.0/16");
  });

  it("that diff planned in the same process makes a new cluster when the state could not be read (trackedId unset)", async () => {
    const first = await kaas.create(await checked(kaas, {}, args()));
    await h.release("Kaas", first.id, first.outs);
    const declared = args({ nodeCidr: { address: "10.11.0.0/16", name: "n" } });
    const planned = await kaas.diff(first.id, first.outs, await checked(kaas, first.outs, declared));
    expect(planned).toEqual({ changes: true, replaces: ["nodeCidr"], deleteBeforeReplace: false });
    h.emulator.clearRequests();

    // The engine checks the replacement with no old inputs.
    const { id } = await kaas.create(await checked(kaas, {}, declared));

    expect(id).not.toBe(first.id);
    expect(h.mutating()).toEqual([{ method: "POST", path: "/kaas" }]);
    expect(h.emulator.state().kaas.map((k) => k.metadata.id)).toEqual([first.id, id]);
  });
});

/** The list requests of the cluster collection of `project`: their filter (null without one) and status. */
function clusterLists(project: string): { filter: string | null; status: number | null }[] {
  const path = `/projects/${project}/providers/Vendor.Container/kaas`;
  return h.emulator
    .requests()
    .filter((r) => r.method === "GET" && r.path === path)
    .map((r) => ({ filter: r.query.filter ?? null, status: r.status }));
}

// Readings under which the service applies filters: a lookup's requests do not depend on the project's size.
describe.each<WireReadings["filters"]>(["membership", "whole"])(
  "lookup requests under filters %s",
  (filters) => {
    it("are the same for a create in a project of 400 other clusters as in an empty project", async () => {
      await start({ wire: { filters } });
      const crowded = "p-crowded";
      const seeded = h.emulator.seed({ projectId: crowded, kind: "kaas", count: 400 });
      expect(seeded.ids).toHaveLength(400);
      expect(h.emulator.state().kaas).toHaveLength(400);
      h.emulator.clearRequests();

      const inEmpty = await kaas.create(await checked(kaas, {}, args()));
      const inCrowded = await kaas.create(await checked(kaas, {}, args({ projectId: crowded })));

      expect(h.emulator.state().kaas).toHaveLength(402);
      const expected = [
        { filter: byTag(OWNER_TAG), status: 200 },
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
    h.emulator.clearRequests();

    const first = await kaas.create(odd);
    const afterOdd = clusterLists(PROJECT);
    const second = await kaas.create(plain);

    expect(afterOdd).toEqual([{ filter: byTag(expectedOwnerTag("proj/dev/odd")), status: 200 }]);
    expect(clusterLists(PROJECT).slice(afterOdd.length)).toEqual([
      { filter: byTag(expectedOwnerTag("proj/dev/plain")), status: 200 },
      { filter: byName("plain"), status: 200 },
    ]);
    expect(h.lines.filter((l) => l.includes("refuses the list filter"))).toEqual([]);
    expect([live(first.id).metadata.name, live(second.id).metadata.name]).toEqual(["prod;blue", "plain"]);
  });
});
