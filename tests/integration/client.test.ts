/**
 * The REST client (`rest/client.ts`) against the emulator, for every endpoint: create, list, iterate, get,
 * update and delete of clusters, backups and registries, kubeconfig download, node pool update, volume attach
 * and detach, password reset, the waits; bodies that never reach the network; OAuth2 client credentials; and
 * runs under injected faults with fixed seeds.
 */
import type { Emulator } from "../../emulator";
import type { ClientCredentialsTokenSource } from "../../rest/auth";
import type { VendorContainerClient } from "../../rest/client";
import { isNotFound, isVendorApiError, type VendorApiError } from "../../rest/errors";
import { collect } from "../../rest/paginate";
import type { KaasResponse } from "../../schemas/kaas";
import {
  PROJECT,
  activeKaas,
  backupBody,
  kaasBody,
  makeClient,
  registryBody,
  startHarness,
  within,
  type Harness,
} from "./support/harness";
import { expectBusyUpdateRetriedUntilSettled } from "./support/busy-retry";
import { volumeAction } from "../../schemas/volumeAction";

let h: Harness;
let emu: Emulator;
let client: VendorContainerClient;

beforeAll(async () => {
  h = await startHarness();
  emu = h.emulator;
  client = makeClient(h.url);
});
afterAll(() => h.close());
beforeEach(() => emu.reset());

const settleKaas = (id: string) =>
  client.waitUntilSettled(() => client.find("getKaas", { projectId: PROJECT, id }), {
    what: `Kaas ${id}`,
    path: `/kaas/${id}`,
    deadline: within(),
  });
const kaasGone = (id: string) =>
  client.waitUntilGone(() => client.find("getKaas", { projectId: PROJECT, id }), {
    what: `Kaas ${id}`,
    path: `/kaas/${id}`,
    deadline: within(),
  });
const settleRegistry = (id: string) =>
  client.waitUntilSettled(() => client.find("getRegistry", { projectId: PROJECT, id }), {
    what: `Registry ${id}`,
    path: `/registries/${id}`,
    deadline: within(),
  });

/** Waits until `attachedVolumes` satisfies `done`. */
function waitForVolumes(
  id: string,
  done: (volumes: NonNullable<KaasResponse["properties"]["attachedVolumes"]>) => boolean,
) {
  return client.waitUntilSettled(() => client.find("getKaas", { projectId: PROJECT, id }), {
    what: `Kaas ${id} volumes`,
    path: `/kaas/${id}`,
    deadline: within(),
    judge: (k) =>
      done(k.properties.attachedVolumes ?? [])
        ? { kind: "done" }
        : { kind: "pending", state: "volumes pending" },
  });
}

/** The API path of the log entries, below the provider prefix. */
const apiPath = (p: string) => p.replace(`/projects/${PROJECT}/providers/Vendor.Container`, "");

async function expectRejection(promise: Promise<unknown>): Promise<VendorApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isVendorApiError(error)).toBe(true);
  return error as VendorApiError;
}

describe("KaaS endpoints", () => {
  it("creates, lists, reads, updates and deletes a cluster, waiting for each step", async () => {
    const created = await client.call(
      "createKaas",
      { projectId: PROJECT },
      kaasBody("prod", { identity: { clientId: "cid", clientSecret: "identity-secret" } }),
    );
    expect(created.metadata.id).toBe("kaas-0001");
    expect(created.status?.state).toBe("InCreation");
    const id = created.metadata.id;
    expect((await settleKaas(id)).status?.state).toBe("Active");

    const page = await client.list(
      "listKaas",
      { projectId: PROJECT },
      { filter: 'metadata.name:eq("prod")', limit: 10 },
    );
    expect(page.total).toBe(1);
    expect(page.values[0].properties.identity).toEqual({ clientId: "cid" });

    await expect(
      client.call(
        "updateKaas",
        { projectId: PROJECT, id },
        {
          metadata: { name: "prod", tags: ["env:prod"] },
          properties: {
            kubernetesVersion: { value: "1.33.2" },
            storage: { maxCumulativeVolumeSize: 100 },
            billingPlan: { billingPeriod: "Month" },
          },
        },
      ),
    ).resolves.toBeUndefined();
    const updated = await settleKaas(id);
    expect(updated.metadata.tags).toEqual(["env:prod"]);
    expect(updated.properties.kubernetesVersion?.value).toBe("1.33.2");
    expect(updated.properties.storage).toEqual({ maxCumulativeVolumeSize: 100 });
    expect(updated.properties.billingPlan).toEqual({ billingPeriod: "monthly" });

    emu.updateConfig({ durations: { tombstoneMs: 10_000 } });
    await client.call("deleteKaas", { projectId: PROJECT, id }, undefined, { deleteOnCascade: true });
    await kaasGone(id);
    expect((await client.call("getKaas", { projectId: PROJECT, id })).status?.state).toBe("Deleted");
    const ignored = await expectRejection(
      client.call("getKaas", { projectId: PROJECT, id }, undefined, { ignoreDeletedStatus: true }),
    );
    expect(isNotFound(ignored)).toBe(true);
    expect(ignored.message).toBe(
      `GET /kaas/${id} failed (404 Not Found): Resource not found: KaaS "${id}" was not found.`,
    );
    const deletes = emu.requests().filter((r) => r.method === "DELETE");
    expect(deletes.map((r) => [apiPath(r.path), r.query, r.status])).toEqual([
      [`/kaas/${id}`, { "api-version": "1", deleteOnCascade: "true" }, 202],
    ]);
  });

  it("iterates every cluster across pages", async () => {
    for (const name of ["e", "b", "d", "a", "c"])
      await client.call("createKaas", { projectId: PROJECT }, kaasBody(name));
    emu.clearRequests();
    const all = await collect(
      client.iterate("listKaas", { projectId: PROJECT }, { sort: "metadata.name" }, 2),
    );
    expect(all.map((k) => k.metadata.name)).toEqual(["a", "b", "c", "d", "e"]);
    expect(emu.requests().map((r) => [r.query.offset, r.query.limit])).toEqual([
      ["0", "2"],
      ["2", "2"],
      ["4", "2"],
    ]);
  });

  it("downloads the kubeconfig, decoded, with the cluster's own token", async () => {
    const id = await activeKaas(h);
    const kubeconfig = await client.downloadKubeconfig(PROJECT, id);
    expect(kubeconfig.startsWith("apiVersion: v1\nkind: Config\n")).toBe(true);
    expect(kubeconfig).toContain(`      token: ${emu.kubeconfigToken(id)}\n`);
    expect(kubeconfig).toContain("current-context: prod\n");
  });

  it("updates one node pool and answers the cluster", async () => {
    const id = await activeKaas(h);
    const answered = await client.call(
      "updateNodePool",
      { projectId: PROJECT, id, pool: "default" },
      { properties: { nodes: 3 } },
    );
    expect(answered?.status?.state).toBe("Updating");
    expect(answered?.properties.nodePools?.[0]).toMatchObject({ name: "default", nodes: 3 });
    const settled = await settleKaas(id);
    expect(settled.properties.nodePools?.[0].nodes).toBe(3);
    // The response schema has no node ids (no published answer carries them): the emulator's own view.
    expect(emu.nodes(id)).toEqual([
      { nodePool: "default", nodeIds: [`${id}-default-1`, `${id}-default-2`, `${id}-default-3`] },
    ]);
  });

  it("attaches and detaches volumes at node level and at cluster level", async () => {
    const id = await activeKaas(h);
    const node = `${id}-default-2`;
    await client.call(
      "attachVolume",
      { projectId: PROJECT, id, pool: "default", node },
      volumeAction("/v/data"),
    );
    await waitForVolumes(id, (v) => v.some((x) => x.uri === "/v/data"));
    await client.call(
      "detachVolumeFromNode",
      { projectId: PROJECT, id, pool: "default", node },
      volumeAction("/v/data"),
    );
    await waitForVolumes(id, (v) => v.length === 0);

    await client.call(
      "attachVolume",
      { projectId: PROJECT, id, pool: "default", node },
      volumeAction("/v/logs"),
    );
    await client.call(
      "updateNodePool",
      { projectId: PROJECT, id, pool: "default" },
      { properties: { nodes: 1 } },
    );
    const shrunk = await waitForVolumes(id, (v) => v.length === 1 && v[0].nodeId === null);
    expect(shrunk.properties.attachedVolumes).toEqual([
      { uri: "/v/logs", nodePoolName: "default", nodeId: null, sizeGb: 10 },
    ]);
    await settleKaas(id);
    await client.call("detachVolumeFromCluster", { projectId: PROJECT, id }, volumeAction("/v/logs"));
    await waitForVolumes(id, (v) => v.length === 0);
    expect(
      emu
        .requests()
        .filter((r) => r.path.endsWith("/attach") || r.path.endsWith("/detach"))
        .map((r) => r.status),
    ).toEqual([202, 202, 202, 202]);
  });

  it("retries a mutation refused as busy until the cluster settles", async () => {
    await expectBusyUpdateRetriedUntilSettled(emu, client, await activeKaas(h));
  });

  it("reports a rule violation with the field and the service's message", async () => {
    const error = await expectRejection(
      client.call(
        "createKaas",
        { projectId: PROJECT },
        kaasBody("x", { nodeCidr: { address: "11.0.0.0/16", name: "n" } }),
      ),
    );
    expect(error.message).toBe(
      "POST /kaas failed (400 Bad Request): properties.nodeCidr.address: must lie within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16",
    );
    expect(error.fieldErrors).toEqual([
      {
        field: "properties.nodeCidr.address",
        message: "must lie within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16",
      },
    ]);
    expect(error.ambiguous).toBe(false);
  });

  it("surfaces the failureReason of a failed provisioning from the wait", async () => {
    emu.setFaults({
      provisioning: { kaas: "fail", registry: "ok", backup: "ok" },
      failureReason: "quota exceeded",
    });
    const created = await client.call("createKaas", { projectId: PROJECT }, kaasBody());
    const error = await expectRejection(settleKaas(created.metadata.id));
    expect(error.kind).toBe("failed");
    expect(error.message).toBe(
      "GET /kaas/kaas-0001: Kaas kaas-0001 failed while waiting for Active: quota exceeded",
    );
  });
});

describe("backup endpoints", () => {
  it("creates, lists, iterates, reads, updates and deletes a backup", async () => {
    const kaasId = await activeKaas(h);
    const created = await client.call("createBackup", { projectId: PROJECT, kaasId }, backupBody("nightly"));
    expect(created.metadata.id).toBe("backup-0001");
    expect(created.properties.kaas).toEqual({
      uri: `/projects/${PROJECT}/providers/Vendor.Container/kaas/${kaasId}`,
      id: kaasId,
      name: "prod",
    });
    const find = () => client.find("getBackup", { projectId: PROJECT, kaasId, id: "backup-0001" });
    const wait = { what: "Backup", path: `/kaas/${kaasId}/backups/backup-0001`, deadline: within() };
    expect((await client.waitUntilSettled(find, wait)).data?.info?.sizeBytes).toBe(536_870_912);
    await client.call("createBackup", { projectId: PROJECT, kaasId }, backupBody("weekly"));

    expect(
      (
        await client.list(
          "listBackups",
          { projectId: PROJECT, kaasId },
          { filter: 'metadata.name:eq("weekly")' },
        )
      ).values.map((b) => b.metadata.id),
    ).toEqual(["backup-0002"]);
    expect(
      (await collect(client.iterate("listBackups", { projectId: PROJECT, kaasId }, {}, 1))).map(
        (b) => b.metadata.name,
      ),
    ).toEqual(["nightly", "weekly"]);
    await client.call(
      "updateBackup",
      { projectId: PROJECT, kaasId, id: "backup-0001" },
      {
        metadata: { name: "nightly" },
        properties: { billingPeriod: "Month" },
      },
    );
    expect((await client.waitUntilSettled(find, wait)).properties.billingPeriod).toBe("Month");
    await client.call("deleteBackup", { projectId: PROJECT, kaasId, id: "backup-0001" });
    await client.waitUntilGone(find, wait);
    expect(
      (await client.call("getBackup", { projectId: PROJECT, kaasId, id: "backup-0002" })).status?.state,
    ).toBe("Active");
  });

  it("answers 404 for the backups of an unknown cluster", async () => {
    const error = await expectRejection(
      client.list("listBackups", { projectId: PROJECT, kaasId: "kaas-0404" }),
    );
    expect(isNotFound(error)).toBe(true);
  });
});

describe("registry endpoints", () => {
  it("creates, lists with loadEngineVersion, reads, updates, resets the password and deletes a registry", async () => {
    const created = await client.call("createRegistry", { projectId: PROJECT }, registryBody("images"));
    const id = created.metadata.id;
    expect(id).toBe("registry-0001");
    expect(created.metadata.uri).toBe(
      `/projects/${PROJECT}/providers/Vendor.Container/containerRegistries/${id}`,
    );
    const active = await settleRegistry(id);
    expect(active.data?.info?.version).toBeNull();
    expect(
      (await client.list("listRegistries", { projectId: PROJECT }, { loadEngineVersion: true })).values[0]
        .data?.info?.version,
    ).toBe("2.11.1");
    expect((await client.call("getRegistry", { projectId: PROJECT, id })).data?.info?.version).toBeNull();
    expect(
      (
        await collect(client.iterate("listRegistries", { projectId: PROJECT }, { loadEngineVersion: true }))
      ).map((r) => r.data?.info?.version),
    ).toEqual(["2.11.1"]);

    await client.call(
      "updateRegistry",
      { projectId: PROJECT, id },
      {
        metadata: { name: "images" },
        properties: { billingPlan: { billingPeriod: "Year" } },
      },
    );
    expect((await settleRegistry(id)).properties.billingPlan).toEqual({ billingPeriod: "yearly" });

    const before = active.data?.private?.adminPasswordLastSetDate;
    await client.call("resetAdminPassword", { projectId: PROJECT, id }, {});
    const reset = await settleRegistry(id);
    expect(reset.data?.private?.passwordSet).toBe(true);
    expect(Date.parse(reset.data?.private?.adminPasswordLastSetDate as string)).toBeGreaterThan(
      Date.parse(before as string),
    );

    await client.call("deleteRegistry", { projectId: PROJECT, id });
    await client.waitUntilGone(() => client.find("getRegistry", { projectId: PROJECT, id }), {
      what: "Registry",
      path: `/registries/${id}`,
      deadline: within(),
    });
  });
});

describe("request bodies are validated before any I/O", () => {
  const bad = <T>(value: unknown) => value as T;
  it.each<[string, (c: VendorContainerClient) => Promise<unknown>, string]>([
    [
      "an unknown cluster property",
      (c) =>
        c.call(
          "createKaas",
          { projectId: PROJECT },
          bad({ ...kaasBody(), properties: { ...kaasBody().properties, colour: "blue" } }),
        ),
      "POST /kaas not sent: invalid request body: /properties/colour: is not an allowed property",
    ],
    [
      "a mistyped node count",
      (c) =>
        c.call(
          "createKaas",
          { projectId: PROJECT },
          bad({
            ...kaasBody(),
            properties: {
              ...kaasBody().properties,
              nodePools: [{ name: "p", nodes: "2", instance: "K2A4", dataCenter: "d" }],
            },
          }),
        ),
      "POST /kaas not sent: invalid request body: /properties/nodePools/0/nodes: must be integer",
    ],
    [
      "a create-only property in an update",
      (c) =>
        c.call(
          "updateKaas",
          { projectId: PROJECT, id: "kaas-0001" },
          bad({ metadata: { name: "x" }, properties: { podCidr: "10.0.0.0/16" } }),
        ),
      "PUT /kaas/kaas-0001 not sent: invalid request body: /properties/podCidr: is not an allowed property",
    ],
    [
      "minCount instead of minNode on the node pool endpoint",
      (c) =>
        c.call(
          "updateNodePool",
          { projectId: PROJECT, id: "kaas-0001", pool: "default" },
          bad({ properties: { minCount: 1 } }),
        ),
      "PUT /kaas/kaas-0001/nodePools/default not sent: invalid request body: /properties/minCount: is not an allowed property",
    ],
    [
      "a registry without admin user",
      (c) =>
        c.call(
          "createRegistry",
          { projectId: PROJECT },
          bad({ metadata: { name: "r", location: { value: "l" } }, properties: {} }),
        ),
      "POST /registries not sent: invalid request body: /properties/adminUser: is required",
    ],
    [
      "a mistyped retention",
      (c) =>
        c.call(
          "createBackup",
          { projectId: PROJECT, kaasId: "kaas-0001" },
          bad({ metadata: { name: "b" }, properties: { retentionDays: "7" } }),
        ),
      "POST /kaas/kaas-0001/backups not sent: invalid request body: /properties/retentionDays: must be integer",
    ],
  ])("never sends %s", async (_what, call, message) => {
    const error = await expectRejection(call(client));
    expect(error.kind).toBe("validation");
    expect(error.message).toBe(message);
    expect(emu.requests()).toEqual([]);
  });
});

describe("OAuth2 client credentials", () => {
  const tokenSourceOf = (c: VendorContainerClient) =>
    c.http.settings.tokenSource as ClientCredentialsTokenSource;
  const summary = () => emu.requests().map((r) => `${r.method} ${apiPath(r.path)} ${r.status}`);

  it("fetches one token and reuses it", async () => {
    const oauth = makeClient(h.url, { oauth: true });
    await oauth.list("listKaas", { projectId: PROJECT });
    await oauth.list("listRegistries", { projectId: PROJECT });
    await oauth.call("createKaas", { projectId: PROJECT }, kaasBody());
    expect(tokenSourceOf(oauth).exchanges).toBe(1);
    expect(summary()).toEqual([
      "POST /oauth2/token 200",
      "GET /kaas 200",
      "GET /registries 200",
      "POST /kaas 201",
    ]);
  });

  it("refreshes the token once after a 401 when the service revoked it", async () => {
    const oauth = makeClient(h.url, { oauth: true });
    await oauth.list("listKaas", { projectId: PROJECT });
    expect(emu.revokeTokens()).toBe(1);
    emu.clearRequests();
    await oauth.list("listKaas", { projectId: PROJECT });
    expect(summary()).toEqual(["GET /kaas 401", "POST /oauth2/token 200", "GET /kaas 200"]);
    expect(tokenSourceOf(oauth).exchanges).toBe(2);
  });

  it("refreshes the token after the service expired it", async () => {
    const oauth = makeClient(h.url, { oauth: true });
    await oauth.list("listKaas", { projectId: PROJECT });
    emu.advanceClock(3_600_000);
    emu.clearRequests();
    await oauth.list("listKaas", { projectId: PROJECT });
    expect(summary()).toEqual(["GET /kaas 401", "POST /oauth2/token 200", "GET /kaas 200"]);
  });
});

describe("under injected faults", () => {
  /** Drives every idempotent endpoint once; each call must succeed despite the faults. */
  async function idempotentScenario(kaasId: string, registryId: string) {
    expect((await client.call("getKaas", { projectId: PROJECT, id: kaasId })).metadata.id).toBe(kaasId);
    expect((await client.list("listKaas", { projectId: PROJECT })).total).toBe(1);
    expect(await collect(client.iterate("listKaas", { projectId: PROJECT }, {}, 1))).toHaveLength(1);
    await client.call(
      "updateKaas",
      { projectId: PROJECT, id: kaasId },
      {
        metadata: { name: "prod", tags: ["faulty"] },
        properties: {},
      },
    );
    await settleKaas(kaasId);
    await client.call(
      "updateNodePool",
      { projectId: PROJECT, id: kaasId, pool: "default" },
      { properties: { nodes: 3 } },
    );
    expect((await settleKaas(kaasId)).properties.nodePools?.[0].nodes).toBe(3);
    expect(await client.downloadKubeconfig(PROJECT, kaasId)).toContain(emu.kubeconfigToken(kaasId));
    await client.call(
      "attachVolume",
      { projectId: PROJECT, id: kaasId, pool: "default", node: `${kaasId}-default-3` },
      volumeAction("/v/f"),
    );
    await waitForVolumes(kaasId, (v) => v.length === 1);
    await client.call("detachVolumeFromCluster", { projectId: PROJECT, id: kaasId }, volumeAction("/v/f"));
    await waitForVolumes(kaasId, (v) => v.length === 0);
    expect((await client.list("listBackups", { projectId: PROJECT, kaasId })).total).toBe(0);
    expect((await client.call("getRegistry", { projectId: PROJECT, id: registryId })).metadata.id).toBe(
      registryId,
    );
    await client.call(
      "updateRegistry",
      { projectId: PROJECT, id: registryId },
      {
        metadata: { name: "images" },
        properties: { billingPlan: { billingPeriod: "Hour" } },
      },
    );
    await settleRegistry(registryId);
    await client.call("resetAdminPassword", { projectId: PROJECT, id: registryId }, {});
    await settleRegistry(registryId);
    await client.call("deleteRegistry", { projectId: PROJECT, id: registryId });
    await client.waitUntilGone(() => client.find("getRegistry", { projectId: PROJECT, id: registryId }), {
      what: "Registry",
      path: "/registries",
      deadline: within(),
    });
    await client.call("deleteKaas", { projectId: PROJECT, id: kaasId });
    await kaasGone(kaasId);
  }

  it.each([11, 12, 13])(
    "completes every idempotent call with 30%% 503/429/500 and 10%% dropped connections (seed %i)",
    async (seed) => {
      const kaasId = await activeKaas(h);
      const registryId = (await client.call("createRegistry", { projectId: PROJECT }, registryBody("images")))
        .metadata.id;
      await settleRegistry(registryId);
      emu.setFaults({ seed, errorRates: { 503: 0.1, 429: 0.1, 500: 0.1 }, dropRate: 0.1 });
      emu.clearRequests();
      await idempotentScenario(kaasId, registryId);
      // The n-th request's fate depends only on the seed and n; with these seeds each fault kind first hits
      // within the first 26 requests, and the scenario always sends more, so these counts cannot come out 0.
      const log = emu.requests();
      const count = (pred: (r: (typeof log)[number]) => boolean) => log.filter(pred).length;
      expect(count((r) => r.status === 503)).toBeGreaterThan(0);
      expect(count((r) => r.status === 429)).toBeGreaterThan(0);
      expect(count((r) => r.status === 500)).toBeGreaterThan(0);
      expect(count((r) => r.dropped === "before")).toBeGreaterThan(0);
      // Nothing left but the deleted cluster, which the emulator forgets after a while: on a loaded machine
      // that while may already have passed.
      expect(emu.state().kaas.filter((k) => k.status?.state !== "Deleted")).toEqual([]);
    },
  );

  it("retries plain-text 502 and 504 gateway answers of idempotent calls", async () => {
    const id = await activeKaas(h);
    emu.setFaults({ seed: 2, errorRates: { 502: 0.3, 504: 0.3 } });
    emu.clearRequests();
    for (let i = 0; i < 5; i++)
      expect((await client.call("getKaas", { projectId: PROJECT, id })).metadata.id).toBe(id);
    const statuses = emu.requests().map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses).toContain(502);
    expect(statuses).toContain(504);
  });

  it("fails a POST create dropped after processing with an ambiguous network error, without retrying", async () => {
    emu.setFaults({ dropAfterProcessingRate: 1, methods: ["POST"] });
    const error = await expectRejection(client.call("createKaas", { projectId: PROJECT }, kaasBody()));
    expect(error.kind).toBe("network");
    expect(error.ambiguous).toBe(true);
    expect(error.message).toMatch(/^POST \/kaas failed \(network\): /);
    expect(emu.requests().map((r) => [r.method, r.status, r.dropped])).toEqual([["POST", 201, "after"]]);
    expect(emu.state().kaas.map((k) => k.metadata.name)).toEqual(["prod"]);
  });

  it("fails a POST create answered 500 as ambiguous, without retrying", async () => {
    emu.setFaults({ errorRates: { 500: 1 }, methods: ["POST"] });
    const error = await expectRejection(
      client.call("createRegistry", { projectId: PROJECT }, registryBody()),
    );
    expect([error.kind, error.status, error.ambiguous]).toEqual(["http", 500, true]);
    expect(error.message).toBe(
      "POST /registries failed (500 Internal Server Error): Internal Server Error: Injected fault.",
    );
    expect(emu.requests()).toHaveLength(1);
  });

  it("retries a POST create answered 429, which says it was not processed, and creates exactly once", async () => {
    emu.setFaults({ seed: 5, errorRates: { 429: 0.8 }, methods: ["POST"] });
    const created = await client.call("createKaas", { projectId: PROJECT }, kaasBody());
    // With seed 5 the first eight draws fall below 0.8.
    expect(emu.requests().map((r) => [r.method, r.status])).toEqual([
      ...Array(8).fill(["POST", 429]),
      ["POST", 201],
    ]);
    expect(emu.state().kaas.map((k) => k.metadata.id)).toEqual([created.metadata.id]);
  });

  it.each([
    ["before", { errorRates: { 503: 1 } }, [["POST", 503, undefined]], []],
    ["after", { errorAfterProcessingRates: { 503: 1 } }, [["POST", 503, 201]], ["prod"]],
  ] as const)(
    "fails a POST create answered 503 %s processing as ambiguous, without retrying",
    async (when, faults, requests, clusters) => {
      emu.setFaults({ ...faults, methods: ["POST"] });
      const error = await expectRejection(client.call("createKaas", { projectId: PROJECT }, kaasBody()));
      expect([error.kind, error.status, error.ambiguous]).toEqual(["http", 503, true]);
      expect(error.message).toBe(
        "POST /kaas failed (503 Service Unavailable): Service Unavailable: " +
          (when === "before" ? "Injected fault." : "Injected fault after processing."),
      );
      // The client cannot tell the two apart; only the service knows whether the cluster exists.
      expect(emu.requests().map((r) => [r.method, r.status, r.processedStatus])).toEqual(requests);
      expect(emu.state().kaas.map((k) => k.metadata.name)).toEqual(clusters);
    },
  );

  it.each([502, 504] as const)(
    "fails a POST create answered %i after processing as ambiguous; the cluster exists",
    async (status) => {
      emu.setFaults({ errorAfterProcessingRates: { [status]: 1 }, methods: ["POST"] });
      const error = await expectRejection(client.call("createKaas", { projectId: PROJECT }, kaasBody()));
      expect([error.kind, error.status, error.ambiguous]).toEqual(["http", status, true]);
      expect(emu.requests().map((r) => [r.method, r.status, r.processedStatus])).toEqual([
        ["POST", status, 201],
      ]);
      expect(
        (await client.list("listKaas", { projectId: PROJECT })).values?.map((k) => k.metadata.name),
      ).toEqual(["prod"]);
    },
  );
});
