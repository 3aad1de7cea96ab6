/**
 * The Kaas provider against the emulator: every lifecycle path of the Kaas issue, with the emulator's
 * request log proving which calls reached the service.
 */
import type { KindProvider } from "../../provider";
import { insertBody } from "../../provider/kaas/mapping";
import type { CheckedKaasInputs } from "../../provider/kaas/types";
import { resetClients } from "../../provider/common/context";
import { expectedCreationTag, expectedCreationToken, expectedOwnerTag } from "../support/creation-token";
import {
  asChecked,
  checked,
  liveTags,
  expectJsonSafe,
  startHarness,
  BACKEND,
  PROJECT,
  RELEASE_LINE,
  type Harness,
} from "./support/harness";

let h: Harness;
let kaas: KindProvider;

/** The creation scope of the cluster these tests declare, and the owner tag it leaves on the cluster. */
const SCOPE = "proj/dev/prod";
const OWNER_TAG = expectedOwnerTag(SCOPE);
const CREATION_TAG = expectedCreationTag(SCOPE, BACKEND);

/** The tags the service holds on a cluster. */
beforeEach(async () => {
  h = await startHarness();
  kaas = h.kind("Kaas");
});
afterEach(async () => {
  await h.close();
});

const args = (overrides: Record<string, unknown> = {}) => ({
  name: "prod",
  location: "ITBG-Bergamo",
  kubernetesVersion: "1.32.5",
  nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
  nodePools: [
    { name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" },
    {
      name: "workers",
      nodes: 2,
      instance: "K8A16",
      dataCenter: "ITBG-2",
      autoscaling: true,
      minCount: 1,
      maxCount: 4,
    },
  ],
  creationScope: SCOPE,
  ...overrides,
});

/**
 * check + create, then the program's release of the creation tag once the engine has recorded the id: what
 * `pulumi up` does for a new resource.
 */
async function create(overrides: Record<string, unknown> = {}) {
  const inputs = await checked(kaas, {}, args(overrides));
  const { id, outs } = await kaas.create(inputs);
  await h.release("Kaas", id, outs);
  return { id, inputs, outs };
}

/** check + diff + update from `state`, as `pulumi up` does for a changed resource. */
async function change(id: string, state: Record<string, unknown>, news: Record<string, unknown>) {
  const inputs = await checked(kaas, state, news);
  const diff = await kaas.diff(id, state, inputs);
  h.emulator.clearRequests();
  const { outs } = await kaas.update(id, state, inputs);
  const after = await kaas.diff(id, outs, inputs);
  return { diff, outs, inputs, calls: h.mutating(), after };
}

describe("create", () => {
  it("creates the cluster with one POST, waits until Active and returns JSON-safe outputs with the kubeconfig, leaving its creation tag", async () => {
    const { id, outs } = await kaas.create(await checked(kaas, {}, args()));
    expect(id).toBe("kaas-0001");
    expect(outs).toMatchObject({
      kaasId: "kaas-0001",
      state: "Active",
      currentKubernetesVersion: "1.32.5",
      pendingUpgrade: null,
      name: "prod",
      projectId: PROJECT,
      preset: true,
    });
    expect(
      (outs.currentNodePools as { name: string; nodes: number }[]).map((p) => [p.name, p.nodes]),
    ).toEqual([
      ["system", 2],
      ["workers", 2],
    ]);
    expect(outs.kubeconfig).toContain(h.emulator.kubeconfigToken("kaas-0001"));
    expect(outs).not.toHaveProperty("__provider");
    expectJsonSafe(outs);
    // The creation tag stays until the engine has recorded the id: the program releases it then.
    expect(h.mutating()).toEqual([{ method: "POST", path: "/kaas" }]);
    expect(await liveTags(h, { kind: "Kaas", id })).toEqual([CREATION_TAG, OWNER_TAG]);
    expect(h.lines).toContain(`[vendor-container] Kaas "prod" (kaas-0001) is Active after 0s`);
    expect(h.lines.filter((l) => l.includes("recording the owner"))).toEqual([]);
  });

  it("leaves the creation tag to the program, whose release removes it in one PUT and then has nothing to do", async () => {
    const { id, outs } = await kaas.create(await checked(kaas, {}, args({ tags: ["team:a"] })));
    h.emulator.clearRequests();

    expect(await h.release("Kaas", id, outs)).toBe("retagged");
    expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${id}` }]);
    expect(await liveTags(h, { kind: "Kaas", id })).toEqual(["team:a", OWNER_TAG]);
    expect(h.lines).toContain(`[vendor-container] Kaas "prod": ${RELEASE_LINE} ${id}`);

    h.emulator.clearRequests();
    expect(await h.release("Kaas", id, outs)).toBe("unchanged");
    expect(h.mutating()).toEqual([]);
  });

  it("sends the creation token of the scope and backend, and leaves exactly the user tags and the owner tag on the cluster once released", async () => {
    const { inputs, outs } = await create({ tags: ["team:a", "env:prod"] });
    expect(inputs.creationToken).toBe(expectedCreationToken(SCOPE, BACKEND));
    expect(await liveTags(h, { kind: "Kaas", id: outs.kaasId as string })).toEqual([
      "team:a",
      "env:prod",
      OWNER_TAG,
    ]);
    expect(outs.tags).toEqual(["team:a", "env:prod"]);
  });

  it("resumes an interrupted create instead of creating a duplicate, with no request that changes anything; the program then releases its creation tag", async () => {
    const inputs = await checked(kaas, {}, args({ tags: ["team:a"] }));
    // An earlier run died after the service accepted its POST: the cluster exists, the state does not know it.
    const orphan = await h.client.call(
      "createKaas",
      { projectId: PROJECT },
      insertBody(asChecked<CheckedKaasInputs>(inputs)),
    );
    expect(orphan.metadata.tags).toEqual(["team:a", `pulumi-ct-${inputs.creationToken}`, OWNER_TAG]);
    h.emulator.clearRequests();
    const { id, outs } = await kaas.create(inputs);
    expect(id).toBe(orphan.metadata.id);
    expect(h.mutating()).toEqual([]);
    expect(h.emulator.state().kaas).toHaveLength(1);
    expect(await liveTags(h, { kind: "Kaas", id })).toEqual(["team:a", CREATION_TAG, OWNER_TAG]);
    expect(h.lines).toContain(
      `[vendor-container] Kaas "prod": resuming the creation of ${id} started by an earlier run`,
    );

    await h.release("Kaas", id, outs);
    expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${id}` }]);
    expect(await liveTags(h, { kind: "Kaas", id })).toEqual(["team:a", OWNER_TAG]);
  });

  it("reports a resumed cluster as the service shows it, so the next preview plans the update", async () => {
    const earlier = await checked(kaas, {}, args({ tags: ["old"], billingPeriod: "Hour" }));
    const orphan = await h.client.call(
      "createKaas",
      { projectId: PROJECT },
      insertBody(asChecked<CheckedKaasInputs>(earlier)),
    );
    const inputs = await checked(kaas, {}, args({ tags: ["new"], billingPeriod: "Year" }));
    expect(inputs.creationToken).toBe(earlier.creationToken);

    const { id, outs } = await kaas.create(inputs);

    expect(id).toBe(orphan.metadata.id);
    expect([outs.tags, outs.billingPeriod]).toEqual([["old"], "Hour"]);
    expect(await liveTags(h, { kind: "Kaas", id })).toEqual(["old", CREATION_TAG, OWNER_TAG]);
    const program = await checked(kaas, outs, args({ tags: ["new"], billingPeriod: "Year" }));
    expect(await kaas.diff(id, outs, program)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("reports the pools of a resumed cluster as the service has them: the next up resizes one back with one node pool PUT", async () => {
    const inputs = await checked(kaas, {}, args());
    const orphan = await h.client.call(
      "createKaas",
      { projectId: PROJECT },
      insertBody(asChecked<CheckedKaasInputs>(inputs)),
    );
    const id = orphan.metadata.id;
    // The cluster finishes, then an operator resizes a pool before anyone runs pulumi again.
    h.emulator.advanceClock(h.emulator.getConfig().durations.kaasCreateMs);
    h.emulator.scaleNodePool(id, "system", 4);

    const resumed = await kaas.create(inputs);
    await h.release("Kaas", id, resumed.outs);

    expect(resumed.id).toBe(id);
    expect(
      (resumed.outs.currentNodePools as { name: string; nodes: number }[]).map((p) => [p.name, p.nodes]),
    ).toEqual([
      ["system", 4],
      ["workers", 2],
    ]);
    const result = await change(id, resumed.outs, args());
    expect(result.diff).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(result.calls).toEqual([{ method: "PUT", path: `/kaas/${id}/nodePools/system` }]);
    expect(result.after.changes).toBe(false);
  });

  it("looks the cluster up instead of re-sending a create whose answer was lost", async () => {
    h.emulator.setFaults({ dropAfterProcessingRate: 1, methods: ["POST"] });
    const { id } = await create();
    h.emulator.setFaults({});
    expect(id).toBe("kaas-0001");
    expect(h.emulator.state().kaas).toHaveLength(1);
    expect(h.lines.some((l) => l.includes("outcome is unknown"))).toBe(true);
  });

  it("keeps a cluster whose provisioning fails in the stack: the error carries the id, outputs and __provider", async () => {
    h.emulator.setFaults({
      provisioning: { kaas: "fail", registry: "ok", backup: "ok" },
      failureReason: "quota exceeded",
    });
    const inputs = await checked(kaas, {}, args());
    const error = await kaas.create({ ...inputs, __provider: "serialized-shell" }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      id: "kaas-0001",
      reasons: [expect.stringContaining("quota exceeded")],
      properties: { kaasId: "kaas-0001", state: "Failed", __provider: "serialized-shell" },
    });
    expect((error as Error).message).toBe(
      'Kaas "prod" (kaas-0001) was created but is not ready: GET /kaas/kaas-0001: Kaas "prod" (kaas-0001) failed while waiting for Active: quota exceeded',
    );
  });

  it("reports a stuck create at its deadline with the id, and the next up resumes waiting in update and releases the creation tag", async () => {
    h.emulator.setFaults({ provisioning: { kaas: "stuck", registry: "ok", backup: "ok" } });
    const inputs = await checked(kaas, {}, args({ timeouts: { create: "1s" } }));
    const error = (await kaas.create(inputs).catch((e: unknown) => e)) as {
      id: string;
      properties: Record<string, unknown>;
      message: string;
    };
    expect(error.id).toBe("kaas-0001");
    expect(error.message).toContain("did not reach Active within 1s (last state InCreation)");
    expect(error.properties.state).toBe("InCreation");
    // The service finishes later; the next `pulumi up` calls update with the same inputs.
    h.emulator.patchResource("kaas", "kaas-0001", { state: "Active" });
    h.emulator.clearRequests();
    const { outs } = await kaas.update("kaas-0001", error.properties, inputs);
    expect(outs.state).toBe("Active");
    expect(outs.kubeconfig).toEqual(expect.any(String));
    expect(h.mutating()).toEqual([{ method: "PUT", path: "/kaas/kaas-0001" }]);
    expect(h.emulator.state().kaas).toHaveLength(1);
    expect(await liveTags(h, { kind: "Kaas", id: "kaas-0001" })).toEqual([OWNER_TAG]);
  });

  it("fails a create with a token the service refuses, naming vendor:token and never the token, creating nothing", async () => {
    const wrongToken = "wrong-token-5b1d8e";
    h.config["vendor:token"] = wrongToken;
    resetClients();
    const inputs = await checked(kaas, {}, args());
    const error = (await kaas.create(inputs).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      "GET /kaas failed (401 Unauthorized): Unauthorized: The bearer token is not valid. " +
        "Check the credentials in stack config vendor:token (or VENDOR_TOKEN)",
    );
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(
      wrongToken,
    );
    expect(h.lines.join("\n")).not.toContain(wrongToken);
    expect(h.mutating()).toEqual([]);
    expect(h.emulator.state().kaas).toEqual([]);
  });
});

describe("update", () => {
  it.each([
    ["name", { name: "prod-renamed" }],
    ["tags", { tags: ["env:prod"] }],
    ["billingPeriod", { billingPeriod: "Year" }],
    ["maxCumulativeVolumeSize", { maxCumulativeVolumeSize: 800 }],
    ["authorizedIpRanges", { authorizedIpRanges: ["192.168.1.0/24"] }],
    ["enablePrivateCluster", { enablePrivateCluster: true }],
  ])("updates %s in place with one cluster PUT and no diff afterwards", async (_field, patch) => {
    const { id, inputs, outs } = await create();
    const result = await change(id, outs, { ...args(), ...patch, projectId: inputs.projectId });
    expect(result.diff).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(result.calls).toEqual([{ method: "PUT", path: `/kaas/${id}` }]);
    expect(result.outs).toMatchObject(patch);
    expect(result.after.changes).toBe(false);
  });

  it.each([
    ["stack", "proj/prod/prod"],
    ["project", "shop/dev/prod"],
  ])(
    "records the scope of a renamed %s as the owner in one metadata PUT, and sees no change afterwards",
    async (_renamed, renamed) => {
      const { id, outs } = await create({ tags: ["team:a"] });
      const result = await change(id, outs, args({ tags: ["team:a"], creationScope: renamed }));
      expect(result.diff).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
      expect(result.calls).toEqual([{ method: "PUT", path: `/kaas/${id}` }]);
      expect(await liveTags(h, { kind: "Kaas", id })).toEqual(["team:a", expectedOwnerTag(renamed)]);
      expect(result.outs.creationScope).toBe(renamed);
      expect(result.after.changes).toBe(false);
    },
  );

  it("resizes one pool through the node pool endpoint only", async () => {
    const { id, outs } = await create();
    const pools = args().nodePools.map((p) => (p.name === "system" ? { ...p, nodes: 3 } : p));
    const result = await change(id, outs, args({ nodePools: pools }));
    expect(result.calls).toEqual([{ method: "PUT", path: `/kaas/${id}/nodePools/system` }]);
    expect(
      (result.outs.currentNodePools as { name: string; nodes: number }[]).find((p) => p.name === "system")
        ?.nodes,
    ).toBe(3);
    expect(result.after.changes).toBe(false);
  });

  it("adds and removes pools by sending the full list in one cluster update, matching pools by name", async () => {
    const { id, outs } = await create();
    const pools = [{ name: "gpu", nodes: 1, instance: "K16A64", dataCenter: "ITBG-1" }, args().nodePools[1]];
    const result = await change(id, outs, args({ nodePools: pools }));
    expect(result.diff.replaces).toEqual([]);
    expect(result.calls).toEqual([{ method: "PUT", path: `/kaas/${id}` }]);
    expect((result.outs.currentNodePools as { name: string }[]).map((p) => p.name).sort()).toEqual([
      "gpu",
      "workers",
    ]);
    expect(result.after.changes).toBe(false);
  });

  it("plans again from the live cluster when an update's answer was lost, instead of failing or resending", async () => {
    const { id, outs } = await create();
    h.emulator.updateConfig({ durations: { kaasUpdateMs: 1500 } });
    // The PUT is applied but its answer is lost; its retries meet a busy cluster until their deadline.
    h.emulator.setFaults({ dropAfterProcessingRate: 1, methods: ["PUT"] });
    h.config["vendor:callDeadlineMs"] = "400";
    const news = await checked(kaas, outs, args({ tags: ["env:prod"] }));
    h.emulator.clearRequests();
    const { outs: after } = await kaas.update(id, outs, news);
    h.emulator.setFaults({});
    const puts = h.emulator.requests().filter((r) => r.method === "PUT");
    expect(puts[0]).toMatchObject({ status: 200, dropped: "after" });
    expect(puts.slice(1).every((r) => r.status === 400)).toBe(true);
    expect(after.tags).toEqual(["env:prod"]);
    expect(h.lines.some((l) => l.includes("the update's outcome is unknown"))).toBe(true);
    expect((await h.client.call("getKaas", { projectId: PROJECT, id })).metadata.tags).toContain("env:prod");
  });

  it("enables HA in place", async () => {
    const { id, outs } = await create();
    const result = await change(id, outs, args({ ha: true }));
    expect(result.calls).toEqual([{ method: "PUT", path: `/kaas/${id}` }]);
    expect(result.outs.ha).toBe(true);
    const live = await h.client.call("getKaas", { projectId: PROJECT, id });
    expect(live.properties.ha).toBe(true);
  });

  it("schedules an upgrade: no diff before the date, none after the emulator applied it", async () => {
    const { id, outs } = await create();
    const upgradeDate = new Date(Date.now() + 3600_000).toISOString();
    const result = await change(id, outs, args({ kubernetesVersion: "1.33.2", upgradeDate }));
    expect(result.calls).toEqual([{ method: "PUT", path: `/kaas/${id}` }]);
    expect(result.outs).toMatchObject({
      kubernetesVersion: "1.33.2",
      currentKubernetesVersion: "1.32.5",
      pendingUpgrade: { version: "1.33.2", scheduledAt: upgradeDate },
    });
    expect(result.after.changes).toBe(false);
    const program = await checked(kaas, result.inputs, args({ kubernetesVersion: "1.33.2", upgradeDate }));

    // Before the date: refresh keeps the declared version, preview shows nothing.
    const before = await kaas.read(id, result.outs);
    expect(before.inputs).toBeUndefined();
    expect(before.props.kubernetesVersion).toBe("1.33.2");
    expect((await kaas.diff(id, before.props, program)).changes).toBe(false);

    // After the date: the emulator applied the upgrade; still nothing to do.
    h.emulator.advanceClock(2 * 3600_000);
    const after = await kaas.read(id, before.props);
    expect(after.props).toMatchObject({ currentKubernetesVersion: "1.33.2", pendingUpgrade: null });
    expect((await kaas.diff(id, after.props, program)).changes).toBe(false);
  });

  it("reports a version the platform upgraded on its own without downgrading it", async () => {
    const { id, outs } = await create();
    h.emulator.platformUpgrade(id, "1.33.2");
    const read = await kaas.read(id, outs);
    expect(read.props).toMatchObject({ kubernetesVersion: "1.32.5", currentKubernetesVersion: "1.33.2" });
    const program = await checked(kaas, read.inputs ?? {}, args());
    expect((await kaas.diff(id, read.props, program)).changes).toBe(false);
    expect(h.lines.some((l) => l.includes("above the declared 1.32.5 (upgraded by the platform)"))).toBe(
      true,
    );
  });

  it("says to run pulumi refresh, then pulumi up, when the service lost the cluster", async () => {
    const { id, outs } = await create();
    await h.client.call("deleteKaas", { projectId: PROJECT, id });
    await h.client.waitUntilGone(() => h.client.find("getKaas", { projectId: PROJECT, id }), {
      what: "k",
      path: "/kaas",
      deadline: Date.now() + 10_000,
    });
    const inputs = await checked(kaas, outs, args({ tags: ["team-a"] }));
    await expect(kaas.update(id, outs, inputs)).rejects.toThrow(
      new Error(
        `Kaas "prod" (${id}) no longer exists: run \`pulumi refresh\` to drop it from the stack, ` +
          "then `pulumi up` to create it again",
      ),
    );
  });
});

describe("refused at preview, with zero mutating calls", () => {
  it("refuses to disable HA in check and in diff", async () => {
    const { id, inputs, outs } = await create({ ha: true });
    h.emulator.clearRequests();
    const { failures } = await kaas.check(inputs, { ...args({ ha: false }), projectId: PROJECT });
    expect(failures).toEqual([
      {
        property: "ha",
        reason:
          "cannot be disabled: the service cannot turn high availability off once enabled, and replacing the cluster would destroy it; keep ha: true",
      },
    ]);
    await expect(kaas.diff(id, outs, { ...inputs, ha: false })).rejects.toThrow("ha: cannot be disabled");
    expect(h.mutating()).toEqual([]);
  });

  it("refuses a downgrade below the running version", async () => {
    const { id, inputs, outs } = await create({ kubernetesVersion: "1.33.2" });
    h.emulator.clearRequests();
    const { failures } = await kaas.check(inputs, args({ kubernetesVersion: "1.32.5" }));
    expect(failures).toEqual([
      {
        property: "kubernetesVersion",
        reason: "cannot go down from 1.33.2 to 1.32.5: the service does not downgrade clusters",
      },
    ]);
    await expect(kaas.diff(id, outs, { ...inputs, kubernetesVersion: "1.32.5" })).rejects.toThrow(
      "kubernetesVersion: cannot go down from 1.33.2 to 1.32.5",
    );
    expect(h.mutating()).toEqual([]);
  });
});

describe("refresh", () => {
  it("brings out-of-band changes into the inputs, so the next up converges", async () => {
    const { id, outs } = await create();
    h.emulator.patchResource("kaas", id, { name: "renamed-by-hand", tags: ["manual"] });
    h.emulator.scaleNodePool(id, "system", 5);
    const read = await kaas.read(id, outs);
    expect(read.inputs).toMatchObject({ name: "renamed-by-hand", tags: ["manual"] });
    expect(
      (read.inputs?.nodePools as { name: string; nodes: number }[]).find((p) => p.name === "system")?.nodes,
    ).toBe(5);
    const result = await change(id, read.props, args());
    expect(result.diff.changes).toBe(true);
    expect(result.diff.replaces).toEqual([]);
    const live = await h.client.call("getKaas", { projectId: PROJECT, id });
    expect(live.metadata.name).toBe("prod");
    expect(live.properties.nodePools?.find((p) => p.name === "system")?.nodes).toBe(2);
    expect(result.after.changes).toBe(false);
  });

  it("does not report an autoscaling pool's count moving within its bounds", async () => {
    const { id, outs } = await create();
    h.emulator.scaleNodePool(id, "workers", 4);
    const read = await kaas.read(id, outs);
    const program = await checked(kaas, read.inputs ?? {}, args());
    expect((await kaas.diff(id, read.props, program)).changes).toBe(false);
    expect(
      (read.props.currentNodePools as { name: string; nodes: number }[]).find((p) => p.name === "workers")
        ?.nodes,
    ).toBe(4);
  });

  it("keeps the kubeconfig output stable when its content did not change", async () => {
    const { id, outs } = await create();
    const read = await kaas.read(id, outs);
    expect(read.props.kubeconfig).toBe(outs.kubeconfig);
  });

  it("under vendor:kubeconfigRefresh onChange reads an unchanged cluster alone, and downloads again once it changed", async () => {
    h.config["vendor:kubeconfigRefresh"] = "onChange";
    resetClients();
    const { id, outs } = await create();
    const sent = () =>
      h.emulator
        .requests()
        .map((r) => `${r.method} ${r.path.replace(`/projects/${PROJECT}/providers/Vendor.Container`, "")}`);
    expect(sent().filter((r) => r.endsWith("/download"))).toEqual([`GET /kaas/${id}/download`]);

    h.emulator.clearRequests();
    const unchanged = await kaas.read(id, outs);
    expect(unchanged.props).toEqual(outs);
    expect(sent()).toEqual([`GET /kaas/${id}`]);

    h.emulator.platformUpgrade(id, "1.33.2");
    h.emulator.clearRequests();
    const upgraded = await kaas.read(id, unchanged.props);
    expect(sent()).toEqual([`GET /kaas/${id}`, `GET /kaas/${id}/download`]);
    expect([upgraded.props.currentKubernetesVersion, upgraded.props.kubeconfig]).toEqual([
      "1.33.2",
      outs.kubeconfig,
    ]);

    // A state without a kubeconfig (one written while the cluster was not yet settled) gets one.
    h.emulator.clearRequests();
    const filled = await kaas.read(id, { ...upgraded.props, kubeconfig: null });
    expect(sent()).toEqual([`GET /kaas/${id}`, `GET /kaas/${id}/download`]);
    expect(filled.props.kubeconfig).toBe(outs.kubeconfig);
  });

  it("by default downloads the kubeconfig in every refresh", async () => {
    const { id, outs } = await create();
    for (let i = 0; i < 2; i++) {
      h.emulator.clearRequests();
      await kaas.read(id, outs);
      expect(h.emulator.requests().map((r) => r.path.split("/").slice(-2).join("/"))).toEqual([
        `kaas/${id}`,
        `${id}/download`,
      ]);
    }
  });

  it("drops a cluster deleted out of band (empty id)", async () => {
    const { id, outs } = await create();
    await h.client.call("deleteKaas", { projectId: PROJECT, id });
    await h.client.waitUntilGone(() => h.client.find("getKaas", { projectId: PROJECT, id }), {
      what: "k",
      path: "/kaas",
      deadline: Date.now() + 10_000,
    });
    expect((await kaas.read(id, outs)).id).toBe("");
    expect(h.lines).toContain(`[vendor-container] Kaas "prod": cluster ${id} no longer exists`);
  });
});

describe("adopt", () => {
  /** A settled cluster of `args()` created directly, tagged as `tags` says; returns its id. */
  async function existingCluster(tags: string[]): Promise<string> {
    const body = insertBody(asChecked<CheckedKaasInputs>(await checked(kaas, {}, args())));
    const existing = await h.client.call(
      "createKaas",
      { projectId: PROJECT },
      { ...body, metadata: { ...body.metadata, tags } },
    );
    const id = existing.metadata.id;
    await h.client.waitUntilSettled(() => h.client.find("getKaas", { projectId: PROJECT, id }), {
      what: "seed",
      path: "/kaas",
      deadline: Date.now() + 10_000,
    });
    h.emulator.clearRequests();
    return id;
  }

  const OTHER_SCOPE = "other/stack/elsewhere";

  it("adopts a cluster no resource owns by adoptId without creating one, records its owner and converges updatable arguments", async () => {
    const existing = await existingCluster(["team:a"]);
    const { id, outs } = await create({ adoptId: existing, tags: ["team:a"], billingPeriod: "Year" });
    expect(id).toBe(existing);
    expect(outs.state).toBe("Active");
    // The owner first (a metadata-only PUT), then the billing period the program declares.
    expect(h.mutating()).toEqual([
      { method: "PUT", path: `/kaas/${id}` },
      { method: "PUT", path: `/kaas/${id}` },
    ]);
    expect(h.emulator.state().kaas).toHaveLength(1);
    expect(await liveTags(h, { kind: "Kaas", id })).toEqual(["team:a", OWNER_TAG]);
    expect(
      (await h.client.call("getKaas", { projectId: PROJECT, id })).properties.billingPlan?.billingPeriod,
    ).toMatch(/^year/i);
  });

  it("adopts a cluster this resource already owns with no request when nothing differs", async () => {
    const existing = await existingCluster([OWNER_TAG]);
    const { id } = await create({ adoptId: existing });
    expect(id).toBe(existing);
    expect(h.mutating()).toEqual([]);
    expect(await liveTags(h, { kind: "Kaas", id })).toEqual([OWNER_TAG]);
  });

  it("refuses to adopt a cluster another resource owns, naming its scope, with no mutating request", async () => {
    const existing = await existingCluster(["team:a", expectedOwnerTag(OTHER_SCOPE)]);
    await expect(create({ adoptId: existing })).rejects.toThrow(
      `Kaas "prod": adoptId ${existing}: the cluster belongs to another resource, "${OTHER_SCOPE}" (its owner ` +
        "tag), and adopting it would let two stacks act on it. If that stack no longer tracks it, or is being " +
        `retired, and taking it over is intended, also set adoptFromScope: "${OTHER_SCOPE}".`,
    );
    expect(h.mutating()).toEqual([]);
    expect(await liveTags(h, { kind: "Kaas", id: existing })).toEqual([
      "team:a",
      expectedOwnerTag(OTHER_SCOPE),
    ]);
  });

  it("refuses to adopt a cluster another resource owns when adoptFromScope names a third resource", async () => {
    const existing = await existingCluster([expectedOwnerTag(OTHER_SCOPE)]);
    await expect(create({ adoptId: existing, adoptFromScope: "other/stack/third" })).rejects.toThrow(
      `Kaas "prod": adoptId ${existing}: the cluster belongs to another resource, "${OTHER_SCOPE}"`,
    );
    expect(h.mutating()).toEqual([]);
  });

  it("adopts a cluster another resource owns when adoptFromScope names it, and makes this resource its owner", async () => {
    const existing = await existingCluster(["team:a", expectedOwnerTag(OTHER_SCOPE)]);
    const { id, outs } = await create({ adoptId: existing, adoptFromScope: OTHER_SCOPE, tags: ["team:a"] });
    expect(id).toBe(existing);
    expect(outs).toMatchObject({ adoptFromScope: OTHER_SCOPE, tags: ["team:a"], state: "Active" });
    expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${id}` }]);
    expect(await liveTags(h, { kind: "Kaas", id })).toEqual(["team:a", OWNER_TAG]);
    expect(h.lines).toContain(
      `[vendor-container] Kaas "prod": recording the owner of ${id} (tags: the creation tag released)`,
    );
  });

  it("refuses to adopt a cluster whose create-only arguments differ", async () => {
    const seed = await checked(kaas, {}, args());
    const existing = await h.client.call(
      "createKaas",
      { projectId: PROJECT },
      insertBody(asChecked<CheckedKaasInputs>(seed)),
    );
    const inputs = await checked(
      kaas,
      {},
      args({ adoptId: existing.metadata.id, nodeCidr: { address: "10.99.0.0/16", name: "prod-nodes" } }),
    );
    await expect(kaas.create(inputs)).rejects.toThrow(
      `Kaas "prod": cannot adopt ${existing.metadata.id}, its create-only arguments differ: nodeCidr.address: declared "10.99.0.0/16", live "10.10.0.0/16"`,
    );
  });
});

describe("delete", () => {
  it("deletes with deleteOnCascade and waits until the cluster is gone", async () => {
    const { id, outs } = await create({ deleteOnCascade: true });
    h.emulator.clearRequests();
    await kaas.delete(id, outs);
    const deletes = h.emulator.requests().filter((r) => r.method === "DELETE");
    expect(deletes).toHaveLength(1);
    expect(deletes[0].query.deleteOnCascade).toBe("true");
    expect(await h.client.find("getKaas", { projectId: PROJECT, id })).toBeUndefined();
  });

  it("treats an already-gone cluster as deleted", async () => {
    const { id, outs } = await create();
    await h.client.call("deleteKaas", { projectId: PROJECT, id });
    await expect(kaas.delete(id, outs)).resolves.toBeUndefined();
  });
});

describe("outputs the service reports", () => {
  const NETWORK = `/projects/${PROJECT}/providers/Vendor.Network`;

  it("returns the network, version support, cluster type and status outputs with the service's values", async () => {
    const { outs } = await create();
    expect({
      currentVpcUri: outs.currentVpcUri,
      currentSubnetUri: outs.currentSubnetUri,
      currentPodCidr: outs.currentPodCidr,
      currentSecurityGroupName: outs.currentSecurityGroupName,
      kubernetesVersionEndOfSupportDate: outs.kubernetesVersionEndOfSupportDate,
      kubernetesVersionRecommended: outs.kubernetesVersionRecommended,
      clusterType: outs.clusterType,
      disabledReasons: outs.disabledReasons,
      failureReason: outs.failureReason,
    }).toEqual({
      // Created by `preset` (no vpcUri/subnetUri declared), chosen by the service (no podCidr/securityGroupName).
      currentVpcUri: `${NETWORK}/vpcs/vpc-kaas-0001`,
      currentSubnetUri: `${NETWORK}/vpcs/vpc-kaas-0001/subnets/subnet-kaas-0001`,
      currentPodCidr: "10.244.0.0/16",
      currentSecurityGroupName: "sg-kaas-0001",
      // The emulator's catalogue entry of 1.32.5.
      kubernetesVersionEndOfSupportDate: "2026-06-30T00:00:00.000Z",
      kubernetesVersionRecommended: false,
      clusterType: "KaaS",
      disabledReasons: [],
      failureReason: null,
    });
    // No output derived from a create-only argument the program did not set takes the argument's name.
    expect(outs).not.toHaveProperty("podCidr");
    expect(outs).not.toHaveProperty("vpcUri");
  });

  it("reports the declared pod CIDR and security group name, and the HA cluster type", async () => {
    const { outs } = await create({ podCidr: "172.20.0.0/16", securityGroupName: "prod-sg", ha: true });
    expect([outs.currentPodCidr, outs.currentSecurityGroupName, outs.clusterType]).toEqual([
      "172.20.0.0/16",
      "prod-sg",
      "KaaS HA",
    ]);
  });

  it("reports no node ids in currentNodePools, even when the service's answers carry them", async () => {
    // Node ids shown in responses (a richer answer than the published one), and zones by code.
    h.emulator.updateConfig({ wire: { nodeIds: "shown", dataCenter: "code" } });
    const { id, outs } = await create();
    const live = (await h.client.call("getKaas", { projectId: PROJECT, id })) as unknown as {
      properties: { nodePools: { nodeIds?: string[] }[] };
    };
    expect(live.properties.nodePools[0].nodeIds).toEqual([`${id}-system-1`, `${id}-system-2`]);
    expect(outs.currentNodePools).toEqual([
      {
        name: "system",
        nodes: 2,
        instance: "K4A8",
        dataCenter: "ITBG-1",
        autoscaling: false,
        minCount: null,
        maxCount: null,
      },
      {
        name: "workers",
        nodes: 2,
        instance: "K8A16",
        dataCenter: "ITBG-2",
        autoscaling: true,
        minCount: 1,
        maxCount: 4,
      },
    ]);
  });

  it("refresh reports why the service disabled the cluster and why it failed, without touching the inputs", async () => {
    const { id, outs } = await create();
    h.emulator.patchResource("kaas", id, {
      disabledReasons: ["NoCredit"],
      state: "Failed",
      failureReason: "Provisioning failed: insufficient capacity in the selected zone",
    });
    const read = await kaas.read(id, outs);
    expect([read.props.state, read.props.disabledReasons, read.props.failureReason]).toEqual([
      "Failed",
      ["NoCredit"],
      "Provisioning failed: insufficient capacity in the selected zone",
    ]);
    expect(read.inputs).toBeUndefined();
  });
});

describe("zones answered by name only, node ids hidden (the published shapes)", () => {
  /** The pools' zones as the outputs report them. */
  const zones = (outs: Record<string, unknown>) =>
    (outs.currentNodePools as { name: string; dataCenter: string }[]).map((p) => [p.name, p.dataCenter]);

  it("refreshes a cluster created under zone codes with no change once the service shows only display names", async () => {
    const { id, outs } = await create();
    h.emulator.updateConfig({ wire: { dataCenter: "name", nodeIds: "hidden" } });
    const read = await kaas.read(id, outs);
    // The labels differ from the codes: taking them into the inputs would plan a zone move on the next up.
    expect(zones(read.props)).toEqual([
      ["system", "Bergamo 1"],
      ["workers", "Bergamo 2"],
    ]);
    expect(read.inputs).toBeUndefined();
    const program = await checked(kaas, read.props, args());
    expect(await kaas.diff(id, read.props, program)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("creates, refreshes and updates with no zone move when the service never shows a zone code", async () => {
    await h.close();
    h = await startHarness({ wire: { dataCenter: "name", nodeIds: "hidden" } });
    kaas = h.kind("Kaas");
    const { id, inputs, outs } = await create();
    expect(zones(outs)).toEqual([
      ["system", "Bergamo 1"],
      ["workers", "Bergamo 2"],
    ]);
    expect((await kaas.diff(id, outs, inputs)).changes).toBe(false);
    const read = await kaas.read(id, outs);
    expect(read.inputs).toBeUndefined();
    // A resize goes through the node pool endpoint only: the full pool list (which would carry zones) is not sent.
    const resized = args({
      nodePools: [{ ...args().nodePools[0], nodes: 3 }, args().nodePools[1]],
    });
    const result = await change(id, read.props, resized);
    expect(result.calls).toEqual([{ method: "PUT", path: `/kaas/${id}/nodePools/system` }]);
    expect(result.after.changes).toBe(false);
    expect(h.emulator.nodes(id).map((p) => [p.nodePool, p.nodeIds.length])).toEqual([
      ["system", 3],
      ["workers", 2],
    ]);
  });
});
