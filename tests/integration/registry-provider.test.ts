/** The Registry provider against the emulator. */
import type { KindProvider } from "../../provider";
import { registryInsertBody } from "../../provider/registry/mapping";
import type { CheckedRegistryInputs } from "../../provider/registry/types";
import type { WireReadings } from "../../emulator";
import { expectedCreationTag, expectedOwnerTag } from "../support/creation-token";
import {
  asChecked,
  raw,
  checked,
  liveTags,
  expectJsonSafe,
  startHarness,
  BACKEND,
  PROJECT,
  TOKEN,
  type Harness,
} from "./support/harness";
import { harnessWire } from "./support/wire";

let h: Harness;
let registries: KindProvider;

beforeEach(async () => {
  h = await startHarness();
  registries = h.kind("Registry");
});
afterEach(async () => {
  await h.close();
});

const args = (overrides: Record<string, unknown> = {}) => ({
  name: "images",
  location: "ITBG-Bergamo",
  adminUsername: "ops",
  size: "Small",
  billingPeriod: "Month",
  publicIpUri: "/projects/p-test/providers/Vendor.Network/elasticIps/ip-1",
  creationScope: "proj/dev/images",
  ...overrides,
});

/**
 * check + create, then the program's release of the creation tag once the engine has recorded the id: what
 * `pulumi up` does for a new resource.
 */
async function create(overrides: Record<string, unknown> = {}) {
  const inputs = await checked(registries, {}, args(overrides));
  const { id, outs } = await registries.create(inputs);
  await h.release("Registry", id, outs);
  return { id, inputs, outs };
}

/** The registry the service holds, as it answers it. */
const live = (id: string) => h.client.call("getRegistry", { projectId: PROJECT, id });

async function change(id: string, state: Record<string, unknown>, patch: Record<string, unknown>) {
  const inputs = await checked(registries, state, args(patch));
  const diff = await registries.diff(id, state, inputs);
  h.emulator.clearRequests();
  const { outs } = await registries.update(id, state, inputs);
  return { diff, outs, calls: h.mutating(), after: await registries.diff(id, outs, inputs) };
}

it("creates a registry and reads its engine version through the list flag", async () => {
  const { id, outs } = await create();
  expect(id).toBe("registry-0001");
  expect(outs).toMatchObject({ registryId: id, state: "Active", adminUsername: "ops", passwordSet: true });
  expect(outs.engineVersion).toEqual(expect.any(String));
  expect(outs.fqdn).toEqual(expect.any(String));
  expect(outs.publicBaseUrl).toEqual(expect.any(String));
  expectJsonSafe(outs);
  const lists = h.emulator.requests().filter((r) => r.method === "GET" && r.path.endsWith("/registries"));
  expect(lists.some((r) => r.query.loadEngineVersion === "true")).toBe(true);
  expect(Object.keys(outs).filter((k) => /password/i.test(k))).toEqual([
    "passwordSet",
    "adminPasswordLastSetDate",
  ]);
});

it("refuses the reserved admin name at check, before any call", async () => {
  const { failures } = await registries.check({}, args({ adminUsername: "admin" }));
  expect(failures).toEqual([
    { property: "adminUsername", reason: '"admin" is reserved by the service; choose another name' },
  ]);
  expect(h.mutating()).toEqual([]);
});

it.each([
  ["billingPeriod", { billingPeriod: "Year" }, "yearly"],
  ["publicIpUri", { publicIpUri: "/projects/p-test/providers/Vendor.Network/elasticIps/ip-2" }, "monthly"],
  ["name", { name: "images-2" }, "monthly"],
  ["tags", { tags: ["team:a"] }, "monthly"],
])("updates %s in place with one registry PUT", async (_field, patch, billed) => {
  const { id, outs } = await create();
  const result = await change(id, outs, patch);
  expect(result.diff.replaces).toEqual([]);
  expect(result.calls).toEqual([{ method: "PUT", path: `/registries/${id}` }]);
  expect(result.outs).toMatchObject(patch);
  expect((await live(id)).properties.billingPlan?.billingPeriod).toBe(billed);
  expect(result.after.changes).toBe(false);
});

it("reads a registry it created back with nothing for the next preview to do, sending nothing", async () => {
  const { id, inputs, outs } = await create();
  h.emulator.clearRequests();
  const read = await registries.read(id, outs);
  expect(read).toEqual({ id, props: outs, inputs: undefined });
  const program = await checked(registries, inputs, args());
  expect(await registries.diff(id, read.props, program)).toEqual({
    changes: false,
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect(h.mutating()).toEqual([]);
});

it("leaves an undeclared billing period to the service, which bills hourly, and sees no drift in it", async () => {
  const { id, inputs, outs } = await create({ billingPeriod: undefined });
  expect(outs).not.toHaveProperty("billingPeriod");
  expect((await live(id)).properties.billingPlan?.billingPeriod).toBe("hourly");
  const read = await registries.read(id, outs);
  expect(read).toEqual({ id, props: outs, inputs: undefined });
  const program = await checked(registries, inputs, args({ billingPeriod: undefined }));
  expect((await registries.diff(id, read.props, program)).changes).toBe(false);
});

it.each([
  ["size", { size: "Medium" }],
  ["adminUsername", { adminUsername: "ops2" }],
  ["location", { location: "ITMI-Milano" }],
])("replaces the registry when %s changes", async (field, patch) => {
  const { id, inputs, outs } = await create();
  const news = await checked(registries, inputs, args(patch));
  expect(await registries.diff(id, outs, news)).toEqual({
    changes: true,
    replaces: [field],
    deleteBeforeReplace: false,
  });
});

it("resets the admin password when the trigger changes, and only then", async () => {
  const { id, outs } = await create({ adminPasswordResetTrigger: "2026-11" });
  expect(h.mutating().some((c) => c.path.endsWith("resetAdminPassword"))).toBe(false);
  expect(outs.adminPasswordLastSetDate).toBe((await live(id)).data?.private?.adminPasswordLastSetDate);
  h.emulator.advanceClock(1000);
  const result = await change(id, outs, { adminPasswordResetTrigger: "2026-12" });
  expect(result.calls).toEqual([{ method: "PUT", path: `/registries/${id}/resetAdminPassword` }]);
  expect(Date.parse(result.outs.adminPasswordLastSetDate as string)).toBeGreaterThan(
    Date.parse(outs.adminPasswordLastSetDate as string),
  );
  expect(result.outs.adminPasswordLastSetDate).toBe((await live(id)).data?.private?.adminPasswordLastSetDate);
  expect(result.outs.adminPasswordResetTrigger).toBe("2026-12");
  expect(result.after.changes).toBe(false);
});

it("never resets the password twice when the reset's answer was lost", async () => {
  const { id, outs } = await create({ adminPasswordResetTrigger: "2026-11" });
  h.emulator.updateConfig({ durations: { resetPasswordMs: 1500 } });
  h.emulator.setFaults({ dropAfterProcessingRate: 1, methods: ["PUT"] });
  h.config["vendor:callDeadlineMs"] = "400";
  const news = await checked(registries, outs, args({ adminPasswordResetTrigger: "2026-12" }));
  h.emulator.clearRequests();
  const { outs: after } = await registries.update(id, outs, news);
  h.emulator.setFaults({});
  const applied = h.emulator
    .requests()
    .filter((r) => r.method === "PUT" && r.path.endsWith("/resetAdminPassword") && r.status === 200);
  expect(applied).toHaveLength(1);
  expect(after.adminPasswordLastSetDate).not.toBe(outs.adminPasswordLastSetDate);
});

/** The tags the service holds on a registry. */
it("does not create a duplicate after an interrupted create, and leaves its creation tag to the program's release", async () => {
  const inputs = await checked(registries, {}, args());
  const orphan = await h.client.call(
    "createRegistry",
    { projectId: PROJECT },
    registryInsertBody(asChecked<CheckedRegistryInputs>(inputs)),
  );
  h.emulator.clearRequests();
  const { id, outs } = await registries.create(inputs);
  expect(id).toBe(orphan.metadata.id);
  expect(h.mutating()).toEqual([]);
  expect(await liveTags(h, { kind: "Registry", id })).toEqual([
    expectedCreationTag("proj/dev/images", BACKEND),
    expectedOwnerTag("proj/dev/images"),
  ]);

  await h.release("Registry", id, outs);
  expect(h.mutating()).toEqual([{ method: "PUT", path: `/registries/${id}` }]);
  expect(await liveTags(h, { kind: "Registry", id })).toEqual([expectedOwnerTag("proj/dev/images")]);
});

it("adopts a registry another resource owns only when adoptFromScope names that resource", async () => {
  const other = await h.client.call(
    "createRegistry",
    { projectId: PROJECT },
    registryInsertBody(
      asChecked<CheckedRegistryInputs>(
        await checked(registries, {}, args({ name: "other", creationScope: "a/b/c" })),
      ),
    ),
  );
  const id = other.metadata.id;
  h.emulator.clearRequests();
  const adoption = { name: "other", adoptId: id, creationScope: "proj/dev/other" };

  await expect(create(adoption)).rejects.toThrow(
    `Registry "other": adoptId ${id}: the registry belongs to another resource, "a/b/c" (its owner tag), ` +
      "and adopting it would let two stacks act on it. If that stack no longer tracks it, or is being " +
      'retired, and taking it over is intended, also set adoptFromScope: "a/b/c".',
  );
  expect(h.mutating()).toEqual([]);

  const adopted = await create({ ...adoption, adoptFromScope: "a/b/c" });
  expect(adopted.id).toBe(id);
  expect(h.emulator.state().registries).toHaveLength(1);
  // The other resource's creation tag released and its owner tag replaced by this resource's, in one PUT.
  expect(h.mutating()).toEqual([{ method: "PUT", path: `/registries/${id}` }]);
  expect(await liveTags(h, { kind: "Registry", id })).toEqual([expectedOwnerTag("proj/dev/other")]);
});

it("keeps a registry whose provisioning failed in the stack with the service's reason, and resumes it in update once repaired, with no new POST", async () => {
  h.emulator.setFaults({ provisioning: { kaas: "ok", registry: "fail", backup: "ok" } });
  const inputs = await checked(registries, {}, args());
  const error = (await registries
    .create({ ...inputs, __provider: "shell" })
    .catch((e: unknown) => e)) as Error & {
    id: string;
    reasons: string[];
    properties: Record<string, unknown>;
  };
  const reason =
    'Registry "images" (registry-0001) was created but is not ready: GET /registries/registry-0001: ' +
    'Registry "images" (registry-0001) failed while waiting for Active: Provisioning failed: insufficient ' +
    "capacity in the selected zone";
  expect(error.message).toBe(reason);
  expect(error).toMatchObject({
    id: "registry-0001",
    properties: { registryId: "registry-0001", state: "Failed", __provider: "shell" },
  });
  expect(h.mutating()).toEqual([{ method: "POST", path: "/registries" }]);

  h.emulator.setFaults({});
  h.emulator.patchResource("registry", error.id, { state: "Active", failureReason: null });
  h.emulator.clearRequests();
  const { outs } = await registries.update(error.id, error.properties, inputs);

  expect(outs.state).toBe("Active");
  // No create: only the update that records the owner and releases the creation tag.
  expect(h.mutating()).toEqual([{ method: "PUT", path: "/registries/registry-0001" }]);
  expect(h.emulator.state().registries.map((r) => r.metadata.id)).toEqual(["registry-0001"]);
  expect(await liveTags(h, { kind: "Registry", id: error.id })).toEqual([
    expectedOwnerTag("proj/dev/images"),
  ]);
});

it("keeps a failed registry in the stack and resumes a stuck one in update", async () => {
  h.emulator.setFaults({ provisioning: { kaas: "ok", registry: "stuck", backup: "ok" } });
  const inputs = await checked(registries, {}, args({ timeouts: { create: "1s" } }));
  const error = (await registries.create(inputs).catch((e: unknown) => e)) as {
    id: string;
    message: string;
    properties: Record<string, unknown>;
  };
  expect(error.id).toBe("registry-0001");
  // The deadline counts from the create's start: what is left of it once the create was accepted.
  expect(error.message).toMatch(
    /^Registry "images" \(registry-0001\) was created but is not ready: GET \/registries\/registry-0001 failed \(deadline\): Registry "images" \(registry-0001\) did not reach Active within [01]s \(last state InCreation\)$/,
  );
  h.emulator.patchResource("registry", error.id, { state: "Active" });
  const { outs } = await registries.update(error.id, error.properties, inputs);
  expect(outs.state).toBe("Active");
});

it("refreshes out-of-band changes, drops a deleted registry, and deletes idempotently", async () => {
  const { id, outs } = await create();
  h.emulator.patchResource("registry", id, { tags: ["manual"] });
  const read = await registries.read(id, outs);
  expect(read.inputs).toMatchObject({ tags: ["manual"] });
  await registries.delete(id, outs);
  expect(await h.client.find("getRegistry", { projectId: PROJECT, id })).toBeUndefined();
  expect((await registries.read(id, outs)).id).toBe("");
  await expect(registries.delete(id, outs)).resolves.toBeUndefined();
});

describe("outputs the service reports", () => {
  const NETWORK = `/projects/${PROJECT}/providers/Vendor.Network`;
  const PUBLIC_IP = `${NETWORK}/elasticIps/ip-1`;

  it("reports the VPC and subnet the preset created, the public IP, size and admin user", async () => {
    const { outs } = await create();
    expect({
      currentVpcUri: outs.currentVpcUri,
      currentSubnetUri: outs.currentSubnetUri,
      currentSecurityGroupUri: outs.currentSecurityGroupUri,
      currentBlockStorageUri: outs.currentBlockStorageUri,
      currentPublicIpUri: outs.currentPublicIpUri,
      currentSize: outs.currentSize,
      currentAdminUsername: outs.currentAdminUsername,
    }).toEqual({
      currentVpcUri: `${NETWORK}/vpcs/vpc-registry-0001`,
      currentSubnetUri: `${NETWORK}/vpcs/vpc-registry-0001/subnets/subnet-registry-0001`,
      currentSecurityGroupUri: null,
      currentBlockStorageUri: null,
      currentPublicIpUri: PUBLIC_IP,
      currentSize: "Small",
      currentAdminUsername: "ops",
    });
  });

  it("reports the network and storage the program gave", async () => {
    const given = {
      preset: false,
      vpcUri: `${NETWORK}/vpcs/vpc-7`,
      subnetUri: `${NETWORK}/vpcs/vpc-7/subnets/sn-7`,
      securityGroupUri: `${NETWORK}/securityGroups/sg-7`,
      blockStorageUri: `/projects/${PROJECT}/providers/Vendor.Storage/blockStorages/bs-7`,
    };
    const { outs } = await create(given);
    expect([
      outs.currentVpcUri,
      outs.currentSubnetUri,
      outs.currentSecurityGroupUri,
      outs.currentBlockStorageUri,
    ]).toEqual([given.vpcUri, given.subnetUri, given.securityGroupUri, given.blockStorageUri]);
  });

  it("follows a public IP changed out of band in both the refreshed input and the output", async () => {
    const { id, outs } = await create();
    const moved = `${NETWORK}/elasticIps/ip-2`;
    h.emulator.patchResource("registry", id, { properties: { publicIpUri: moved } });
    const read = await registries.read(id, outs);
    expect(read.props.currentPublicIpUri).toBe(moved);
    expect(read.inputs?.publicIpUri).toBe(moved);
  });
});

describe.each<WireReadings["registryVpc"]>(["accepted", "rejected"])(
  'the registry\'s VPC with registryVpc=%s (api-notes "Registry")',
  (registryVpc) => {
    const NETWORK = `/projects/${PROJECT}/providers/Vendor.Network`;
    const VPC = `${NETWORK}/vpcs/vpc-7`;
    const SUBNET = `${VPC}/subnets/sn-7`;

    beforeEach(async () => {
      await h.close();
      h = await startHarness({ wire: { ...harnessWire(), registryVpc } });
      registries = h.kind("Registry");
    });

    it("creates a registry with vpcUri and subnetUri, sending no vpc, and outputs the subnet's VPC", async () => {
      const inputs = await checked(registries, {}, args({ vpcUri: VPC, subnetUri: SUBNET }));
      const { outs } = await registries.create(inputs);
      expect([outs.state, outs.vpcUri, outs.currentVpcUri, outs.currentSubnetUri]).toEqual([
        "Active",
        VPC,
        VPC,
        SUBNET,
      ]);
      expect(h.mutating()).toEqual([{ method: "POST", path: "/registries" }]);
    });

    it("refuses a vpcUri other than the subnet's VPC after create, naming vpcUri, and keeps the registry", async () => {
      const other = `${NETWORK}/vpcs/vpc-8`;
      const inputs = await checked(registries, {}, args({ vpcUri: other, subnetUri: SUBNET }));
      const error = await registries.create(inputs).then(
        () => undefined,
        (e: unknown) => e as { message: string; id?: string },
      );
      expect(error?.message).toBe(
        `Registry "images" (registry-0001) was created but is not ready: Registry "images": vpcUri "${other}" ` +
          `is not the registry's VPC: the service reports "${VPC}" for subnetUri "${SUBNET}"; set vpcUri to ` +
          "that VPC, or leave it out",
      );
      expect(error?.id).toBe("registry-0001");
    });

    it("refuses to adopt a registry in another VPC than vpcUri, naming vpcUri", async () => {
      const { id } = await create({ subnetUri: SUBNET });
      const other = `${NETWORK}/vpcs/vpc-8`;
      const inputs = await checked(registries, {}, args({ vpcUri: other, subnetUri: SUBNET, adoptId: id }));
      await expect(registries.create(inputs)).rejects.toThrow(
        `Registry "images": cannot adopt ${id}: vpcUri "${other}" is not the registry's VPC: the service ` +
          `reports "${VPC}" for subnetUri "${SUBNET}"; set vpcUri to that VPC, or leave it out`,
      );
    });

    it(`${registryVpc === "accepted" ? "takes" : "refuses"} a vpc sent on create`, async () => {
      await h.close();
      h = await startHarness({ wire: { ...harnessWire(), registryVpc, errors: "array" } });
      const body = {
        metadata: { name: "images", location: { value: "ITBG-Bergamo" } },
        properties: { subnet: { uri: SUBNET }, vpc: { uri: VPC }, adminUser: { username: "ops" } },
      };
      const answer = await raw(`${h.url}/projects/${PROJECT}/providers/Vendor.Container/registries`, {
        method: "POST",
        body,
        token: TOKEN,
      });
      if (registryVpc === "accepted") {
        expect([answer.status, answer.json.properties.vpc]).toEqual([201, { uri: VPC }]);
      } else {
        expect([answer.status, answer.json.errors]).toEqual([
          400,
          [{ fieldName: "properties.vpc", errorMessage: "is not an allowed property" }],
        ]);
      }
    });
  },
);
