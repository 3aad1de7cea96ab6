/**
 * The emulator's lifecycle and service rules over raw HTTP, with clock jumps instead of waiting: states and
 * transitions, busy answers, scheduled and platform upgrades, backups and registries, node pools, volumes,
 * and every rule that answers a 400 with field errors.
 */
import type { Emulator } from "../../emulator";
import { DEFAULT_DURATIONS } from "../../emulator";
import { BackupResponse, KaasResponse, RegistryResponse, validateSchema } from "../../schemas";
import {
  LOCATION,
  PROJECT,
  activeKaas,
  backupBody,
  kaasBody,
  pool,
  raw,
  registryBody,
  startHarness,
  type Harness,
} from "./support/harness";

let h: Harness;
let emu: Emulator;

/** Real time is pinned: only clock jumps move the emulator's time, so every timestamp is exact. */
const T0 = Date.parse("2030-01-01T00:00:00.000Z");

beforeAll(async () => {
  h = await startHarness({ realNow: () => T0, durations: DEFAULT_DURATIONS });
  emu = h.emulator;
});
afterAll(() => h.close());
beforeEach(() => emu.reset());

const get = (path: string) => raw(`${h.api}${path}`);
const post = (path: string, body?: unknown) => raw(`${h.api}${path}`, { method: "POST", body });
const put = (path: string, body?: unknown) => raw(`${h.api}${path}`, { method: "PUT", body });
const del = (path: string) => raw(`${h.api}${path}`, { method: "DELETE" });
const iso = (ms: number) => new Date(ms).toISOString();

async function stateOf(path: string): Promise<string> {
  return (await get(path)).json.status.state;
}

/** The update body that changes nothing but is valid. */
function noopUpdate(name = "prod") {
  return { metadata: { name }, properties: {} };
}

describe("cluster lifecycle", () => {
  it("answers 201 InCreation with the cluster, then reads Active once kaasCreateMs has passed", async () => {
    const created = await post(
      "/kaas",
      kaasBody("prod", { identity: { clientId: "cid-1", clientSecret: "s3cr3t-value" } }),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(created.headers.get("location")).toBe(
      `/projects/${PROJECT}/providers/Vendor.Container/kaas/kaas-0001`,
    );
    const body = created.json;
    expect(validateSchema(KaasResponse, body)).toEqual([]);
    expect(body.metadata).toMatchObject({
      id: "kaas-0001",
      uri: `/projects/${PROJECT}/providers/Vendor.Container/kaas/kaas-0001`,
      name: "prod",
      location: { code: LOCATION, country: "IT", city: "Bergamo", name: LOCATION, value: LOCATION },
      project: { id: PROJECT },
      tags: [],
      version: "1",
    });
    expect(body.metadata.creationDate).toBe("2030-01-01T00:00:00.000Z");
    expect(body.status).toEqual({
      state: "InCreation",
      creationDate: "2030-01-01T00:00:00.000Z",
      failureReason: null,
      error: null,
      disableStatusInfo: { isDisabled: false, reasons: [], previousStatus: null },
    });
    expect(body.properties).toMatchObject({
      preset: true,
      nodecidr: { address: "10.10.0.0/16", name: "nodes" },
      // Not set on create: the pod CIDR the service chose, clear of the node CIDR.
      podcidr: { address: "10.244.0.0/16" },
      kubernetesVersion: {
        value: "1.32.5",
        endOfSupportDate: "2026-06-30T00:00:00.000Z",
        recommended: false,
        upgradeTo: null,
      },
      nodePools: [
        {
          name: "default",
          nodes: 2,
          autoscaling: false,
          minCount: null,
          maxCount: null,
          instance: { name: "K2A4", cpu: "2", ram: "4", diskSizeGb: "40", price: 0.04 },
          dataCenter: { code: "ITBG-1", name: "Bergamo 1" },
          nodeIds: ["kaas-0001-default-1", "kaas-0001-default-2"],
        },
      ],
      securityGroup: { name: "sg-kaas-0001" },
      ha: false,
      storage: { maxCumulativeVolumeSize: null },
      billingPlan: { billingPeriod: "hourly" },
      managementIp: null,
      identity: { clientId: "cid-1" },
      apiServerAccessProfile: { authorizedIpRanges: null, enablePrivateCluster: false },
      attachedVolumes: [],
    });
    // spec §2.4: the identity secret is never returned.
    expect(created.text).not.toContain("s3cr3t-value");
    expect(body.data.private.phase).toEqual({ name: "Provisioning", startDate: "2030-01-01T00:00:00.000Z" });

    emu.advanceClock(DEFAULT_DURATIONS.kaasCreateMs - 1);
    expect(await stateOf("/kaas/kaas-0001")).toBe("InCreation");
    emu.advanceClock(1);
    const active = (await get("/kaas/kaas-0001")).json;
    expect(active.status.state).toBe("Active");
    expect(active.properties.managementIp).toBe("192.0.2.2");
    expect(active.data.private.phase).toEqual({ name: "Running", startDate: "2030-01-01T00:00:01.500Z" });
  });

  it("answers PUT with 200 and no body, reads Updating, then Active after kaasUpdateMs", async () => {
    const id = await activeKaas(h);
    const updated = await put(`/kaas/${id}`, {
      metadata: { name: "renamed", tags: ["team:a"] },
      properties: {},
    });
    expect(updated.status).toBe(200);
    expect(updated.text).toBe("");
    const during = (await get(`/kaas/${id}`)).json;
    expect(during.status.state).toBe("Updating");
    expect(during.metadata).toMatchObject({ name: "renamed", tags: ["team:a"], version: "2" });
    emu.advanceClock(DEFAULT_DURATIONS.kaasUpdateMs);
    expect(await stateOf(`/kaas/${id}`)).toBe("Active");
  });

  it.each([
    ["PUT", "/kaas/kaas-0001", noopUpdate()],
    ["DELETE", "/kaas/kaas-0001", undefined],
    ["PUT", "/kaas/kaas-0001/nodePools/default", { properties: { nodes: 3 } }],
    [
      "POST",
      "/kaas/kaas-0001/nodePools/default/nodes/kaas-0001-default-1/attach",
      { volume: { uri: "/v/1" } },
    ],
    ["POST", "/kaas/kaas-0001/detach", { volume: { uri: "/v/1" } }],
  ])(
    "refuses %s %s while the cluster is InCreation with a 400 without field errors",
    async (method, path, body) => {
      await post("/kaas", kaasBody());
      const answer = await raw(`${h.api}${path}`, { method, body });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        type: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
        title: "Resource is busy: InCreation",
        status: 400,
        detail: 'KaaS "kaas-0001" is InCreation; retry once the operation in progress completes.',
        instance: `/projects/${PROJECT}/providers/Vendor.Container${path}`,
        traceId: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/),
      });
    },
  );

  it("refuses a DELETE while Updating with 'Resource is busy: Updating'", async () => {
    const id = await activeKaas(h);
    await put(`/kaas/${id}`, noopUpdate());
    const answer = await del(`/kaas/${id}`);
    expect(answer.status).toBe(400);
    expect(answer.json.title).toBe("Resource is busy: Updating");
    expect(answer.json.errors).toBeUndefined();
  });

  it("deletes with 202, reads Deleting, then Deleted (404 with ignoreDeletedStatus), then is gone", async () => {
    const id = await activeKaas(h);
    const deleted = await del(`/kaas/${id}?deleteOnCascade=true`);
    expect(deleted.status).toBe(202);
    expect(deleted.text).toBe("");
    expect(await stateOf(`/kaas/${id}`)).toBe("Deleting");
    // A retried DELETE of a cluster already being deleted is harmless.
    expect((await del(`/kaas/${id}`)).status).toBe(202);
    expect((await get("/kaas")).json.total).toBe(1);

    emu.advanceClock(DEFAULT_DURATIONS.kaasDeleteMs);
    expect(await stateOf(`/kaas/${id}`)).toBe("Deleted");
    expect((await get(`/kaas/${id}?ignoreDeletedStatus=false`)).json.status.state).toBe("Deleted");
    const ignored = await get(`/kaas/${id}?ignoreDeletedStatus=true`);
    expect(ignored.status).toBe(404);
    expect(ignored.json.detail).toBe(`KaaS "${id}" was not found.`);
    expect((await get("/kaas")).json.total).toBe(0);
    expect((await del(`/kaas/${id}`)).status).toBe(404);
    expect(emu.state().kaas).toHaveLength(1);

    emu.advanceClock(DEFAULT_DURATIONS.tombstoneMs);
    const gone = await get(`/kaas/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({
      title: "Resource not found",
      status: 404,
      detail: `KaaS "${id}" was not found.`,
    });
    expect(emu.state().kaas).toEqual([]);
  });

  it("keeps a cluster InCreation forever when provisioning is stuck", async () => {
    emu.setFaults({ provisioning: { kaas: "stuck", registry: "ok", backup: "ok" } });
    await post("/kaas", kaasBody());
    emu.advanceClock(86_400_000);
    expect(await stateOf("/kaas/kaas-0001")).toBe("InCreation");
  });

  it("ends Failed with the configured failureReason; a Failed cluster can only be deleted", async () => {
    emu.setFaults({
      provisioning: { kaas: "fail", registry: "ok", backup: "ok" },
      failureReason: "No capacity in ITBG-1",
    });
    await post("/kaas", kaasBody());
    emu.advanceClock(DEFAULT_DURATIONS.kaasCreateMs);
    const failed = (await get("/kaas/kaas-0001")).json;
    expect(failed.status).toMatchObject({
      state: "Failed",
      failureReason: "No capacity in ITBG-1",
      error: { reason: null, message: "No capacity in ITBG-1" },
    });
    expect(failed.properties.managementIp).toBeNull();
    const refused = await put("/kaas/kaas-0001", noopUpdate());
    expect(refused.status).toBe(400);
    expect(refused.json.title).toBe("Resource is not operational: Failed");
    expect((await get("/kaas/kaas-0001/download")).json.title).toBe("Resource is not active: Failed");
    expect((await del("/kaas/kaas-0001")).status).toBe(202);
  });
});

describe("Kubernetes upgrades", () => {
  it("schedules an upgrade with upgradeDate and applies it when the clock passes the date", async () => {
    const id = await activeKaas(h);
    const at = emu.now() + 3_600_000;
    expect(
      (
        await put(`/kaas/${id}`, {
          metadata: { name: "prod" },
          properties: { kubernetesVersion: { value: "1.33.2", upgradeDate: iso(at) } },
        })
      ).status,
    ).toBe(200);
    emu.advanceClock(DEFAULT_DURATIONS.kaasUpdateMs);
    const scheduled = (await get(`/kaas/${id}`)).json;
    expect(scheduled.status.state).toBe("Active");
    expect(scheduled.properties.kubernetesVersion).toEqual({
      value: "1.32.5",
      endOfSupportDate: "2026-06-30T00:00:00.000Z",
      recommended: false,
      upgradeTo: { value: "1.33.2", scheduledAt: iso(at) },
    });

    emu.setClock(at);
    const upgrading = (await get(`/kaas/${id}`)).json;
    expect(upgrading.properties.kubernetesVersion).toMatchObject({
      value: "1.33.2",
      recommended: true,
      upgradeTo: null,
    });
    expect(upgrading.status.state).toBe("Updating");
    emu.advanceClock(DEFAULT_DURATIONS.kaasUpdateMs);
    expect(await stateOf(`/kaas/${id}`)).toBe("Active");
  });

  it("applies an upgrade without upgradeDate with the update", async () => {
    const id = await activeKaas(h);
    await put(`/kaas/${id}`, {
      metadata: { name: "prod" },
      properties: { kubernetesVersion: { value: "1.34.1" } },
    });
    expect((await get(`/kaas/${id}`)).json.properties.kubernetesVersion).toMatchObject({
      value: "1.34.1",
      upgradeTo: null,
    });
  });

  it("lets the platform move the live version ahead, after which the old version is a downgrade", async () => {
    const id = await activeKaas(h);
    const upgraded = await raw(`${h.url}/_emulator/kaas/${id}/platform-upgrade`, {
      method: "POST",
      body: { version: "1.33.2" },
      token: null,
    });
    expect(upgraded.status).toBe(200);
    expect(upgraded.json.properties.kubernetesVersion.value).toBe("1.33.2");
    const backwards = await raw(`${h.url}/_emulator/kaas/${id}/platform-upgrade`, {
      method: "POST",
      body: { version: "1.31.9" },
      token: null,
    });
    expect(backwards.json.errors).toEqual([
      { fieldName: "version", errorMessage: "must be higher than 1.33.2" },
    ]);
    const refused = await put(`/kaas/${id}`, {
      metadata: { name: "prod" },
      properties: { kubernetesVersion: { value: "1.32.5" } },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual([
      {
        fieldName: "properties.kubernetesVersion.value",
        errorMessage: "cannot downgrade from 1.33.2 to 1.32.5",
      },
    ]);
  });

  it("orders only major.minor[.patch] versions: any other is refused as not admissible, not as a downgrade", async () => {
    const id = await activeKaas(h);
    // Read digit by digit, `v1.34.1` would sort below 1.32.5 and `1.34.1-rc.1` above it.
    for (const value of ["v1.34.1", "1.34.1-rc.1"]) {
      const answer = await put(`/kaas/${id}`, {
        metadata: { name: "prod" },
        properties: { kubernetesVersion: { value } },
      });
      expect(answer.status).toBe(400);
      expect(answer.json.errors).toEqual([
        {
          fieldName: "properties.kubernetesVersion.value",
          errorMessage: `"${value}" is not an admissible Kubernetes version (admissible: 1.31.9, 1.32.5, 1.33.2, 1.34.1)`,
        },
      ]);
    }
    const upgraded = await raw(`${h.url}/_emulator/kaas/${id}/platform-upgrade`, {
      method: "POST",
      body: { version: "1.34.1-rc.1" },
      token: null,
    });
    expect(upgraded.status).toBe(400);
    expect(upgraded.json.errors).toEqual([
      { fieldName: "version", errorMessage: "must be major.minor or major.minor.patch" },
    ]);
  });
});

describe("cluster rules", () => {
  async function createErrors(body: unknown) {
    const answer = await post("/kaas", body);
    expect(answer.status).toBe(400);
    expect(answer.json.title).toBe("One or more validation errors occurred.");
    return answer.json.errors;
  }

  it.each([
    ["11.0.0.0/16", "must lie within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16"],
    ["172.32.0.0/16", "must lie within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16"],
    ["10.0.0.1/16", '"10.0.0.1/16" is not a network address: host bits are set'],
    ["10.0.0/16", '"10.0.0/16" is not a valid CIDR (expected a.b.c.d/n)'],
  ])("refuses nodeCidr.address %s", async (address, message) => {
    expect(await createErrors(kaasBody("x", { nodeCidr: { address, name: "n" } }))).toEqual([
      { fieldName: "properties.nodeCidr.address", errorMessage: message },
    ]);
  });

  it.each(["10.0.0.0/8", "172.16.4.0/22", "192.168.1.0/24"])(
    "accepts nodeCidr.address %s",
    async (address) => {
      expect((await post("/kaas", kaasBody("x", { nodeCidr: { address, name: "n" } }))).status).toBe(201);
    },
  );

  it("reports every problem of a body at once", async () => {
    const body = kaasBody("x", {
      preset: false,
      podCidr: "10.10.0.0/20",
      kubernetesVersion: { value: "1.30.0" },
      nodePools: [
        pool("a", { nodes: 0, instance: "Huge" }),
        pool("a", { autoscaling: true, minCount: 3, maxCount: 5 }),
      ],
    });
    body.metadata = { name: "x" };
    expect(await createErrors(body)).toEqual([
      { fieldName: "metadata.location", errorMessage: "Location is required" },
      { fieldName: "properties.vpc", errorMessage: "is required unless preset is true" },
      { fieldName: "properties.subnet", errorMessage: "is required unless preset is true" },
      { fieldName: "properties.podCidr", errorMessage: "must not overlap nodeCidr.address" },
      {
        fieldName: "properties.kubernetesVersion.value",
        errorMessage:
          '"1.30.0" is not an admissible Kubernetes version (admissible: 1.31.9, 1.32.5, 1.33.2, 1.34.1)',
      },
      { fieldName: "properties.nodePools[0].instance", errorMessage: '"Huge" is not a known instance size' },
      { fieldName: "properties.nodePools[0].nodes", errorMessage: "must be between 1 and 50 (got 0)" },
      { fieldName: "properties.nodePools[1].name", errorMessage: 'duplicate node pool name "a"' },
      {
        fieldName: "properties.nodePools[1].nodes",
        errorMessage: "must lie between minCount (3) and maxCount (5) when autoscaling is enabled (got 2)",
      },
    ]);
  });

  it("enforces the configured per-cluster-type limits", async () => {
    emu.updateConfig({
      clusterTypes: {
        standard: { maxNodePool: 2, maxNode: 4, maxWhitelistCount: 1, maxClusterBlockStorageSize: 100 },
      },
    });
    const body = kaasBody("x", {
      nodePools: [pool("a"), pool("b", { nodes: 5 }), pool("c")],
      storage: { maxCumulativeVolumeSize: 500 },
      apiServerAccessProfile: { authorizedIpRanges: ["203.0.113.0/24", "not-an-ip"] },
    });
    expect(await createErrors(body)).toEqual([
      {
        fieldName: "properties.nodePools",
        errorMessage: "a cluster needs between 1 and 2 node pools (got 3)",
      },
      { fieldName: "properties.nodePools[1].nodes", errorMessage: "must be between 1 and 4 (got 5)" },
      {
        fieldName: "properties.storage.maxCumulativeVolumeSize",
        errorMessage: "must be between 10 and 100 GB (got 500)",
      },
      {
        fieldName: "properties.apiServerAccessProfile.authorizedIpRanges",
        errorMessage: "at most 1 authorized IP ranges are allowed (maxWhitelistCount; got 2)",
      },
      {
        fieldName: "properties.apiServerAccessProfile.authorizedIpRanges[1]",
        errorMessage: '"not-an-ip" is not a valid IPv4 address or CIDR',
      },
    ]);
    // HA clusters have their own limits, untouched here.
    expect(
      (
        await post("/kaas", {
          ...body,
          properties: { ...body.properties, ha: true, apiServerAccessProfile: undefined },
        })
      ).status,
    ).toBe(201);
  });

  it("admits versions from the configured catalogue", async () => {
    emu.updateConfig({ kubernetesVersions: ["1.35.0"] });
    expect((await post("/kaas", kaasBody("x", { kubernetesVersion: { value: "1.35.0" } }))).status).toBe(201);
    expect(await createErrors(kaasBody("y"))).toEqual([
      {
        fieldName: "properties.kubernetesVersion.value",
        errorMessage: '"1.32.5" is not an admissible Kubernetes version (admissible: 1.35.0)',
      },
    ]);
  });

  it("refuses to disable HA after creation", async () => {
    const id = await activeKaas(h, kaasBody("ha", { ha: true }));
    const answer = await put(`/kaas/${id}`, { metadata: { name: "ha" }, properties: { ha: false } });
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([
      { fieldName: "properties.ha", errorMessage: "high availability cannot be disabled after creation" },
    ]);
    expect((await put(`/kaas/${id}`, { metadata: { name: "ha" }, properties: { ha: true } })).status).toBe(
      200,
    );
  });

  it("refuses a create-only property in an update (the schema forbids it)", async () => {
    const id = await activeKaas(h);
    const answer = await put(`/kaas/${id}`, {
      metadata: { name: "prod" },
      properties: { nodeCidr: { address: "10.0.0.0/8", name: "n" } },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([
      { fieldName: "properties.nodeCidr", errorMessage: "is not an allowed property" },
    ]);
  });

  it("applies the location rule of spec §9 on update: absent is fine, empty is invalid, a change is refused", async () => {
    const id = await activeKaas(h);
    const empty = await put(`/kaas/${id}`, {
      metadata: { name: "prod", location: { value: "" } },
      properties: {},
    });
    expect(empty.status).toBe(400);
    expect(empty.json.errors).toEqual([{ fieldName: "metadata.location", errorMessage: "Location Invalid" }]);
    const moved = await put(`/kaas/${id}`, {
      metadata: { name: "prod", location: { value: "ITMI-Milano" } },
      properties: {},
    });
    expect(moved.json.errors).toEqual([
      {
        fieldName: "metadata.location",
        errorMessage: `Location cannot be changed (the resource is in "${LOCATION}")`,
      },
    ]);
    expect(
      (
        await put(`/kaas/${id}`, {
          metadata: { name: "prod", location: { value: LOCATION } },
          properties: {},
        })
      ).status,
    ).toBe(200);
    emu.advanceClock(DEFAULT_DURATIONS.kaasUpdateMs);
    expect((await put(`/kaas/${id}`, noopUpdate())).status).toBe(200);
    expect((await get(`/kaas/${id}`)).json.metadata.location.value).toBe(LOCATION);
  });

  it("refuses a storage limit below the volumes already attached", async () => {
    const id = await activeKaas(h);
    emu.updateConfig({ volumeSizesGb: { "/v/big": 40 } });
    await post(`/kaas/${id}/nodePools/default/nodes/${id}-default-1/attach`, { volume: { uri: "/v/big" } });
    const answer = await put(`/kaas/${id}`, {
      metadata: { name: "prod" },
      properties: { storage: { maxCumulativeVolumeSize: 30 } },
    });
    expect(answer.json.errors).toEqual([
      {
        fieldName: "properties.storage.maxCumulativeVolumeSize",
        errorMessage: "must not be below the 40 GB of volumes already attached (got 30)",
      },
    ]);
  });

  it("applies the full desired node pool list of an update: missing pools go, new pools come", async () => {
    const id = await activeKaas(h, kaasBody("prod", { nodePools: [pool("a"), pool("b")] }));
    await put(`/kaas/${id}`, {
      metadata: { name: "prod" },
      properties: { nodePools: [pool("b", { nodes: 3, instance: "K4A8" }), pool("c", { nodes: 1 })] },
    });
    const pools = (await get(`/kaas/${id}`)).json.properties.nodePools;
    expect(
      pools.map((p: { name: string; nodes: number; nodeIds: string[]; instance: { name: string } }) => [
        p.name,
        p.nodes,
        p.instance.name,
        p.nodeIds,
      ]),
    ).toEqual([
      ["b", 3, "K4A8", [`${id}-b-1`, `${id}-b-2`, `${id}-b-3`]],
      ["c", 1, "K2A4", [`${id}-c-1`]],
    ]);
  });
});

describe("node pools", () => {
  it("grows and shrinks a pool through its endpoint: new ids for new nodes, the highest go first", async () => {
    const id = await activeKaas(h);
    const grown = await put(`/kaas/${id}/nodePools/default`, { properties: { nodes: 4 } });
    expect(grown.status).toBe(200);
    expect(validateSchema(KaasResponse, grown.json)).toEqual([]);
    expect(grown.json.status.state).toBe("Updating");
    expect(grown.json.properties.nodePools[0].nodeIds).toEqual([1, 2, 3, 4].map((n) => `${id}-default-${n}`));
    emu.advanceClock(DEFAULT_DURATIONS.kaasUpdateMs);
    await put(`/kaas/${id}/nodePools/default`, { properties: { nodes: 1 } });
    emu.advanceClock(DEFAULT_DURATIONS.kaasUpdateMs);
    const regrown = await put(`/kaas/${id}/nodePools/default`, { properties: { nodes: 2 } });
    expect(regrown.json.properties.nodePools[0]).toMatchObject({
      nodes: 2,
      nodeIds: [`${id}-default-1`, `${id}-default-5`],
    });
  });

  it("maps minNode/maxNode to the pool's minCount/maxCount and checks nodes against them", async () => {
    const id = await activeKaas(h);
    const scaled = await put(`/kaas/${id}/nodePools/default`, {
      properties: { autoscaling: true, minNode: 1, maxNode: 3 },
    });
    expect(scaled.json.properties.nodePools[0]).toMatchObject({
      autoscaling: true,
      minCount: 1,
      maxCount: 3,
      nodes: 2,
    });
    emu.advanceClock(DEFAULT_DURATIONS.kaasUpdateMs);
    const refused = await put(`/kaas/${id}/nodePools/default`, { properties: { nodes: 4 } });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual([
      {
        fieldName: "properties.nodes",
        errorMessage: "must lie between minCount (1) and maxCount (3) when autoscaling is enabled (got 4)",
      },
    ]);
  });

  it("answers 404 for an unknown pool", async () => {
    const id = await activeKaas(h);
    const answer = await put(`/kaas/${id}/nodePools/nope`, { properties: { nodes: 1 } });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({
      title: "Node pool not found",
      detail: `KaaS "${id}" has no node pool "nope".`,
    });
  });
});

describe("volumes", () => {
  const attach = (id: string, node: string, uri: string, poolName = "default") =>
    post(`/kaas/${id}/nodePools/${poolName}/nodes/${node}/attach`, { volume: { uri } });
  const volumesOf = async (id: string) => (await get(`/kaas/${id}`)).json.properties.attachedVolumes;

  it("attaches at node level; the volume shows in attachedVolumes after attachMs", async () => {
    const id = await activeKaas(h);
    const answer = await attach(id, `${id}-default-1`, "/v/a");
    expect(answer.status).toBe(202);
    expect(answer.text).toBe("");
    expect(await volumesOf(id)).toEqual([]);
    emu.advanceClock(DEFAULT_DURATIONS.attachMs);
    expect(await volumesOf(id)).toEqual([
      { uri: "/v/a", nodePoolName: "default", nodeId: `${id}-default-1`, sizeGb: 10 },
    ]);
    const again = await attach(id, `${id}-default-2`, "/v/a");
    expect(again.status).toBe(400);
    expect(again.json.errors).toEqual([
      {
        fieldName: "volume.uri",
        errorMessage: `is already attached to KaaS "${id}" (node "${id}-default-1")`,
      },
    ]);
  });

  it("answers 404 for an unknown node or pool", async () => {
    const id = await activeKaas(h);
    const node = await attach(id, `${id}-default-9`, "/v/a");
    expect(node.status).toBe(404);
    expect(node.json).toMatchObject({
      title: "Node not found",
      detail: `Node pool "default" of KaaS "${id}" has no node "${id}-default-9".`,
    });
    expect((await attach(id, `${id}-default-1`, "/v/a", "other")).json.title).toBe("Node pool not found");
  });

  it("refuses an attach beyond storage.maxCumulativeVolumeSize, naming the limit", async () => {
    const id = await activeKaas(h, kaasBody("prod", { storage: { maxCumulativeVolumeSize: 20 } }));
    emu.updateConfig({ volumeSizesGb: { "/v/big": 15 } });
    expect((await attach(id, `${id}-default-1`, "/v/a")).status).toBe(202);
    const refused = await attach(id, `${id}-default-2`, "/v/big");
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual([
      {
        fieldName: "volume.uri",
        errorMessage:
          "attaching 15 GB would bring the cluster's volumes to 25 GB, beyond storage.maxCumulativeVolumeSize (20 GB)",
      },
    ]);
    expect((await attach(id, `${id}-default-2`, "/v/b")).status).toBe(202);
  });

  it("detaches at node level: 404 when not attached there, gone from attachedVolumes after detachMs", async () => {
    const id = await activeKaas(h);
    await attach(id, `${id}-default-1`, "/v/a");
    emu.advanceClock(DEFAULT_DURATIONS.attachMs);
    const wrongNode = await post(`/kaas/${id}/nodePools/default/nodes/${id}-default-2/detach`, {
      volume: { uri: "/v/a" },
    });
    expect(wrongNode.status).toBe(404);
    expect(wrongNode.json).toMatchObject({
      title: "Volume not attached",
      detail: `Volume "/v/a" is not attached to node "${id}-default-2".`,
    });
    expect(
      (await post(`/kaas/${id}/nodePools/default/nodes/${id}-default-1/detach`, { volume: { uri: "/v/a" } }))
        .status,
    ).toBe(202);
    expect(await volumesOf(id)).toHaveLength(1);
    emu.advanceClock(DEFAULT_DURATIONS.detachMs);
    expect(await volumesOf(id)).toEqual([]);
  });

  it("keeps volumes of removed nodes with nodeId null; the cluster-level detach removes them", async () => {
    const id = await activeKaas(h);
    await attach(id, `${id}-default-2`, "/v/a");
    emu.advanceClock(DEFAULT_DURATIONS.attachMs);
    await put(`/kaas/${id}/nodePools/default`, { properties: { nodes: 1 } });
    emu.advanceClock(DEFAULT_DURATIONS.kaasUpdateMs);
    expect(await volumesOf(id)).toEqual([{ uri: "/v/a", nodePoolName: "default", nodeId: null, sizeGb: 10 }]);
    const nodeGone = await post(`/kaas/${id}/nodePools/default/nodes/${id}-default-2/detach`, {
      volume: { uri: "/v/a" },
    });
    expect(nodeGone.status).toBe(404);
    expect(nodeGone.json.title).toBe("Node not found");
    expect((await post(`/kaas/${id}/detach`, { volume: { uri: "/v/a" } })).status).toBe(202);
    const twice = await post(`/kaas/${id}/detach`, { volume: { uri: "/v/a" } });
    expect(twice.status).toBe(404);
    expect(twice.json.detail).toBe(`Volume "/v/a" is not attached to KaaS "${id}".`);
    emu.advanceClock(DEFAULT_DURATIONS.detachMs);
    expect(await volumesOf(id)).toEqual([]);
  });
});

describe("backups", () => {
  it("creates a backup under its cluster, then reads Active with size and expiry", async () => {
    const id = await activeKaas(h);
    const created = await post(`/kaas/${id}/backups`, backupBody());
    expect(created.status).toBe(201);
    expect(validateSchema(BackupResponse, created.json)).toEqual([]);
    expect(created.json).toMatchObject({
      metadata: {
        id: "backup-0001",
        uri: `/projects/${PROJECT}/providers/Vendor.Container/kaas/${id}/backups/backup-0001`,
        name: "nightly",
      },
      status: { state: "InCreation" },
      properties: {
        billingPeriod: "Hour",
        type: "Full",
        retentionDays: 7,
        kaas: { uri: `/projects/${PROJECT}/providers/Vendor.Container/kaas/${id}`, id, name: "prod" },
      },
      data: { info: { sizeBytes: null, expiresAt: null }, private: { phase: { name: "Provisioning" } } },
    });
    emu.advanceClock(DEFAULT_DURATIONS.backupCreateMs);
    const active = (await get(`/kaas/${id}/backups/backup-0001`)).json;
    expect(active.status.state).toBe("Active");
    expect(active.data.info).toEqual({
      sizeBytes: 2 * 268_435_456,
      expiresAt: iso(emu.now() + 7 * 86_400_000),
    });

    expect(
      (
        await put(`/kaas/${id}/backups/backup-0001`, {
          metadata: { name: "nightly" },
          properties: { billingPeriod: "Month" },
        })
      ).status,
    ).toBe(200);
    expect((await get(`/kaas/${id}/backups/backup-0001`)).json.properties.billingPeriod).toBe("Month");
  });

  it("answers 404 for the backups of a cluster that does not exist", async () => {
    const created = await post("/kaas/kaas-9999/backups", backupBody());
    expect(created.status).toBe(404);
    expect(created.json.detail).toBe('KaaS "kaas-9999" was not found.');
    expect((await get("/kaas/kaas-9999/backups")).status).toBe(404);
  });

  it("refuses a backup of a cluster that is still InCreation with a busy 400", async () => {
    await post("/kaas", kaasBody());
    const answer = await post("/kaas/kaas-0001/backups", backupBody());
    expect(answer.status).toBe(400);
    expect(answer.json.title).toBe("Resource is busy: InCreation");
  });

  it("removes the backups of a deleted cluster", async () => {
    const id = await activeKaas(h);
    await post(`/kaas/${id}/backups`, backupBody());
    emu.advanceClock(DEFAULT_DURATIONS.backupCreateMs);
    await del(`/kaas/${id}`);
    expect(await stateOf(`/kaas/${id}/backups/backup-0001`)).toBe("Deleting");
    emu.advanceClock(DEFAULT_DURATIONS.kaasDeleteMs);
    expect(await stateOf(`/kaas/${id}/backups/backup-0001`)).toBe("Deleted");
    emu.advanceClock(DEFAULT_DURATIONS.tombstoneMs);
    expect((await get(`/kaas/${id}/backups/backup-0001`)).status).toBe(404);
    expect(emu.state().backups).toEqual([]);
  });

  it("refuses a retention below one day", async () => {
    const id = await activeKaas(h);
    const answer = await post(`/kaas/${id}/backups`, { ...backupBody(), properties: { retentionDays: 0 } });
    expect(answer.json.errors).toEqual([
      { fieldName: "properties.retentionDays", errorMessage: "must be at least 1 (got 0)" },
    ]);
  });
});

describe("registries", () => {
  it("creates a registry whose metadata.uri says containerRegistries; info appears once Active", async () => {
    const created = await post("/registries", registryBody());
    expect(created.status).toBe(201);
    expect(validateSchema(RegistryResponse, created.json)).toEqual([]);
    expect(created.headers.get("location")).toBe(
      `/projects/${PROJECT}/providers/Vendor.Container/registries/registry-0001`,
    );
    expect(created.json).toMatchObject({
      metadata: {
        id: "registry-0001",
        uri: `/projects/${PROJECT}/providers/Vendor.Container/containerRegistries/registry-0001`,
      },
      status: { state: "InCreation" },
      properties: {
        adminUser: { username: "registry-admin" },
        billingPlan: { billingPeriod: "monthly" },
        size: "Small",
      },
      data: {
        private: { passwordSet: false, adminPasswordLastSetDate: null },
        info: { version: null, privateBaseUrl: null, publicBaseUrl: null, fqdn: null },
      },
    });
    emu.advanceClock(DEFAULT_DURATIONS.registryCreateMs);
    const provisionedAt = iso(emu.now());
    const active = (await get("/registries/registry-0001")).json;
    expect(active.data).toEqual({
      private: { passwordSet: true, adminPasswordLastSetDate: provisionedAt },
      info: {
        version: null,
        privateBaseUrl: "https://registry-0001.internal.cr.emulator.invalid",
        publicBaseUrl: "https://images-registry-0001.cr.emulator.invalid",
        fqdn: "images-registry-0001.cr.emulator.invalid",
      },
    });
    expect((await get("/registries?loadEngineVersion=true")).json.values[0].data.info.version).toBe("2.11.1");
    expect((await get("/registries?loadEngineVersion=false")).json.values[0].data.info.version).toBeNull();
  });

  it("resets the admin password: 200 without body, Updating, new adminPasswordLastSetDate", async () => {
    await post("/registries", registryBody());
    emu.advanceClock(DEFAULT_DURATIONS.registryCreateMs + 5_000);
    const resetAt = iso(emu.now());
    const answer = await put("/registries/registry-0001/resetAdminPassword", {});
    expect(answer.status).toBe(200);
    expect(answer.text).toBe("");
    const during = (await get("/registries/registry-0001")).json;
    expect(during.status.state).toBe("Updating");
    expect(during.data.private.adminPasswordLastSetDate).toBe(resetAt);
    expect((await put("/registries/registry-0001/resetAdminPassword", {})).json.title).toBe(
      "Resource is busy: Updating",
    );
  });

  it("reserves the admin user name 'admin'", async () => {
    const body = registryBody();
    body.properties.adminUser.username = "admin";
    const answer = await post("/registries", body);
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([
      { fieldName: "properties.adminUser.username", errorMessage: '"admin" is reserved' },
    ]);
  });

  it("updates billingPlan and publicIp only, then deletes", async () => {
    await post("/registries", registryBody());
    emu.advanceClock(DEFAULT_DURATIONS.registryCreateMs);
    const update = {
      metadata: { name: "images" },
      properties: { billingPlan: { billingPeriod: "Year" }, publicIp: { uri: "/eip/1" } },
    };
    expect((await put("/registries/registry-0001", update)).status).toBe(200);
    const updated = (await get("/registries/registry-0001")).json;
    expect(updated.properties).toMatchObject({
      billingPlan: { billingPeriod: "yearly" },
      publicIp: { uri: "/eip/1" },
    });
    const sizeChange = await put("/registries/registry-0001", {
      metadata: { name: "images" },
      properties: { size: "Large" },
    });
    expect(sizeChange.json.errors).toEqual([
      { fieldName: "properties.size", errorMessage: "is not an allowed property" },
    ]);
    emu.advanceClock(DEFAULT_DURATIONS.registryUpdateMs);
    expect((await del("/registries/registry-0001")).status).toBe(202);
    emu.advanceClock(DEFAULT_DURATIONS.registryDeleteMs + DEFAULT_DURATIONS.tombstoneMs);
    expect((await get("/registries/registry-0001")).status).toBe(404);
  });
});
