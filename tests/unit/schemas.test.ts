/**
 * The wire schemas: request bodies are strict and every problem is reported once with its exact JSON path
 * and ajv message; response schemas tolerate extra fields and the spelling variants the service uses.
 */
import type { TSchema } from "@sinclair/typebox";
import {
  BackupInsert,
  BackupList,
  BackupResponse,
  BackupUpdate,
  KaasInsert,
  KaasList,
  KaasResponse,
  KaasUpdate,
  NodePoolUpdate,
  RegistryInsert,
  RegistryList,
  RegistryPasswordReset,
  RegistryResponse,
  RegistryUpdate,
  VolumeAction,
  formatProblems,
  validateSchema,
} from "../../schemas";

const DELETE = Symbol("delete");

/** A deep copy of `value` with the member at JSON pointer `pointer` set to `replacement` (or removed). */
function withChange(value: unknown, pointer: string, replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  const keys = pointer.split("/").slice(1);
  const last = keys.pop() as string;
  let target = copy as Record<string, unknown>;
  for (const key of keys) target = target[key] as Record<string, unknown>;
  if (replacement === DELETE) delete target[last];
  else target[last] = replacement;
  return copy;
}

const metadata = { name: "prod", location: { value: "ITBG-Bergamo" }, tags: ["team-a"] };

const valid: Record<string, { schema: TSchema; full: unknown; minimal: unknown }> = {
  KaasInsert: {
    schema: KaasInsert,
    full: {
      metadata,
      properties: {
        preset: false,
        vpc: { uri: "/projects/p-1/providers/Vendor.Network/vpcs/v-1" },
        subnet: { uri: "/projects/p-1/providers/Vendor.Network/subnets/s-1" },
        nodeCidr: { address: "10.0.0.0/16", name: "nodes" },
        podCidr: "10.244.0.0/16",
        securityGroup: { name: "sg-prod" },
        kubernetesVersion: { value: "1.32.3" },
        nodePools: [
          {
            name: "pool-1",
            nodes: 3,
            instance: "K2A4",
            dataCenter: "ITBG-1",
            autoscaling: true,
            minCount: 1,
            maxCount: 5,
          },
        ],
        ha: true,
        storage: { maxCumulativeVolumeSize: 500 },
        billingPlan: { billingPeriod: "Hour" },
        identity: { clientId: "cluster-identity", clientSecret: "identity-secret" },
        autoscalerProfile: { scaleDownDelay: "10m", nested: [1, 2] },
        apiServerAccessProfile: { authorizedIpRanges: ["203.0.113.0/24"], enablePrivateCluster: false },
      },
    },
    minimal: {
      metadata: { name: "prod" },
      properties: {
        nodeCidr: { address: "10.0.0.0/16", name: "nodes" },
        kubernetesVersion: { value: "1.32.3" },
        nodePools: [{ name: "pool-1", nodes: 0, instance: "K2A4", dataCenter: "ITBG-1" }],
      },
    },
  },
  KaasUpdate: {
    schema: KaasUpdate,
    full: {
      metadata: { name: "prod", tags: [] },
      properties: {
        kubernetesVersion: { value: "1.33.1", upgradeDate: "2030-01-31T02:00:00Z" },
        nodePools: [{ name: "pool-1", nodes: 4, instance: "K4A8", dataCenter: "ITBG-1" }],
        ha: true,
        storage: { maxCumulativeVolumeSize: null },
        billingPlan: { billingPeriod: "Month" },
        apiServerAccessProfile: { authorizedIpRanges: null, enablePrivateCluster: true },
      },
    },
    minimal: { metadata: { name: "prod" }, properties: {} },
  },
  NodePoolUpdate: {
    schema: NodePoolUpdate,
    full: {
      metadata: { name: "prod" },
      properties: { instance: "K4A8", nodes: 5, autoscaling: true, minNode: 2, maxNode: 8 },
    },
    minimal: { properties: {} },
  },
  BackupInsert: {
    schema: BackupInsert,
    full: { metadata, properties: { billingPeriod: "Hour", type: "Full", retentionDays: 7 } },
    minimal: { metadata: { name: "nightly" }, properties: {} },
  },
  BackupUpdate: {
    schema: BackupUpdate,
    full: { metadata: { name: "nightly" }, properties: { billingPeriod: "Month" } },
    minimal: { metadata: { name: "nightly" }, properties: {} },
  },
  RegistryInsert: {
    schema: RegistryInsert,
    full: {
      metadata,
      properties: {
        preset: false,
        subnet: { uri: "/projects/p-1/providers/Vendor.Network/subnets/s-1" },
        securityGroup: { uri: "/projects/p-1/providers/Vendor.Network/securityGroups/sg-1" },
        publicIp: { uri: "/projects/p-1/providers/Vendor.Network/elasticIps/ip-1" },
        blockStorage: { uri: "/projects/p-1/providers/Vendor.Storage/blockStorages/bs-1" },
        billingPlan: { billingPeriod: "Year" },
        adminUser: { username: "registry-admin" },
        size: "Small",
      },
    },
    minimal: { metadata: { name: "images" }, properties: { adminUser: { username: "registry-admin" } } },
  },
  RegistryUpdate: {
    schema: RegistryUpdate,
    full: {
      metadata: { name: "images", tags: ["x"] },
      properties: {
        billingPlan: { billingPeriod: "Hour" },
        publicIp: { uri: "/projects/p-1/providers/Vendor.Network/elasticIps/ip-2" },
      },
    },
    minimal: { metadata: { name: "images" }, properties: {} },
  },
  RegistryPasswordReset: {
    schema: RegistryPasswordReset,
    full: { metadata: { name: "images", location: { value: "ITBG-Bergamo" } } },
    minimal: {},
  },
  VolumeAction: {
    schema: VolumeAction,
    full: { volume: { uri: "/projects/p-1/providers/Vendor.Storage/blockStorages/bs-1" } },
    minimal: { volume: { uri: null } },
  },
};

const schemaOf = (name: string) => valid[name].schema;
const fullOf = (name: string) => valid[name].full;

describe("request schemas", () => {
  it.each(Object.keys(valid))("%s accepts a complete valid body", (name) => {
    expect(validateSchema(schemaOf(name), fullOf(name))).toEqual([]);
  });

  it.each(Object.keys(valid))("%s accepts a body with only the required fields", (name) => {
    expect(validateSchema(schemaOf(name), valid[name].minimal)).toEqual([]);
  });

  it.each([
    ["KaasInsert", "/extra", 1],
    ["KaasInsert", "/metadata/id", "k-1"],
    ["KaasInsert", "/metadata/location/code", "ITBG"],
    ["KaasInsert", "/properties/labels", { a: "b" }],
    ["KaasInsert", "/properties/nodeCidr/uri", "/x"],
    ["KaasInsert", "/properties/nodePools/0/taints", []],
    ["KaasInsert", "/properties/vpc/id", "v-1"],
    ["KaasInsert", "/properties/securityGroup/uri", "/x"],
    // `upgradeDate` exists on update only.
    ["KaasInsert", "/properties/kubernetesVersion/upgradeDate", "2030-01-31T02:00:00Z"],
    ["KaasInsert", "/properties/storage/unit", "GB"],
    ["KaasInsert", "/properties/billingPlan/plan", "x"],
    ["KaasInsert", "/properties/identity/tenant", "t"],
    ["KaasInsert", "/properties/apiServerAccessProfile/mode", "x"],
    // Create-only fields are not part of the update body.
    ["KaasUpdate", "/properties/vpc", { uri: "/x" }],
    ["KaasUpdate", "/properties/nodeCidr", { address: "10.0.0.0/16", name: "n" }],
    ["KaasUpdate", "/properties/nodePools/0/labels", {}],
    ["KaasUpdate", "/properties/kubernetesVersion/recommended", true],
    // The pool endpoint spells the bounds `minNode/maxNode`, not `minCount/maxCount`.
    ["NodePoolUpdate", "/properties/minCount", 1],
    ["NodePoolUpdate", "/properties/name", "pool-1"],
    ["NodePoolUpdate", "/metadata/extra", 1],
    // Backups carry a flat `billingPeriod`, not `billingPlan`.
    ["BackupInsert", "/properties/billingPlan", { billingPeriod: "Hour" }],
    ["BackupInsert", "/properties/kaas", { id: "k-1" }],
    ["BackupUpdate", "/properties/retentionDays", 7],
    ["BackupUpdate", "/extra", null],
    ["RegistryInsert", "/properties/adminUser/password", "p"],
    ["RegistryInsert", "/properties/securityGroup/name", "sg"],
    ["RegistryUpdate", "/properties/size", "Medium"],
    ["RegistryUpdate", "/properties/adminUser", { username: "u" }],
    ["RegistryPasswordReset", "/properties", {}],
    ["RegistryPasswordReset", "/metadata/password", "p"],
    ["VolumeAction", "/uri", "/x"],
    ["VolumeAction", "/volume/id", "bs-1"],
  ])("%s rejects the unknown property %s", (name, pointer, value) => {
    expect(validateSchema(schemaOf(name), withChange(fullOf(name), pointer, value))).toEqual([
      { path: pointer, message: "is not an allowed property" },
    ]);
  });

  it.each([
    ["KaasInsert", "/metadata"],
    ["KaasInsert", "/properties"],
    ["KaasInsert", "/metadata/name"],
    ["KaasInsert", "/metadata/location/value"],
    ["KaasInsert", "/properties/nodeCidr"],
    ["KaasInsert", "/properties/nodeCidr/address"],
    ["KaasInsert", "/properties/nodeCidr/name"],
    ["KaasInsert", "/properties/kubernetesVersion"],
    ["KaasInsert", "/properties/kubernetesVersion/value"],
    ["KaasInsert", "/properties/nodePools"],
    ["KaasInsert", "/properties/nodePools/0/name"],
    ["KaasInsert", "/properties/nodePools/0/nodes"],
    ["KaasInsert", "/properties/nodePools/0/instance"],
    ["KaasInsert", "/properties/nodePools/0/dataCenter"],
    ["KaasInsert", "/properties/vpc/uri"],
    ["KaasInsert", "/properties/securityGroup/name"],
    ["KaasInsert", "/properties/storage/maxCumulativeVolumeSize"],
    ["KaasInsert", "/properties/billingPlan/billingPeriod"],
    ["KaasUpdate", "/metadata"],
    ["KaasUpdate", "/properties"],
    ["KaasUpdate", "/properties/kubernetesVersion/value"],
    ["NodePoolUpdate", "/properties"],
    ["BackupInsert", "/metadata"],
    ["BackupInsert", "/properties"],
    ["BackupUpdate", "/properties"],
    ["RegistryInsert", "/properties/adminUser"],
    ["RegistryInsert", "/properties/adminUser/username"],
    ["RegistryInsert", "/properties/publicIp/uri"],
    ["RegistryUpdate", "/metadata"],
    ["RegistryUpdate", "/properties/publicIp/uri"],
    ["RegistryPasswordReset", "/metadata/name"],
    ["VolumeAction", "/volume"],
    ["VolumeAction", "/volume/uri"],
  ])("%s requires %s", (name, pointer) => {
    expect(validateSchema(schemaOf(name), withChange(fullOf(name), pointer, DELETE))).toEqual([
      { path: pointer, message: "is required" },
    ]);
  });

  it.each([
    ["KaasInsert", "/metadata/name", 7, "must be string"],
    ["KaasInsert", "/metadata/name", "", "must NOT have fewer than 1 characters"],
    ["KaasInsert", "/metadata/location", null, "must be object"],
    ["KaasInsert", "/metadata/location/value", "", "must NOT have fewer than 1 characters"],
    ["KaasInsert", "/metadata/tags", "team-a", "must be array"],
    // A wrong item of a nullable array is reported at the item only, not also as "must be null" above it.
    ["KaasInsert", "/metadata/tags/0", 1, "must be string"],
    ["KaasInsert", "/properties/preset", "yes", "must be boolean"],
    ["KaasInsert", "/properties/vpc", null, "must be object"],
    ["KaasInsert", "/properties/vpc/uri", "", "must NOT have fewer than 1 characters"],
    ["KaasInsert", "/properties/podCidr", 10, "must be string"],
    ["KaasInsert", "/properties/nodeCidr/address", ["10.0.0.0/16"], "must be string"],
    ["KaasInsert", "/properties/nodePools", {}, "must be array"],
    ["KaasInsert", "/properties/nodePools", [], "must NOT have fewer than 1 items"],
    ["KaasInsert", "/properties/nodePools/0/nodes", "3", "must be integer"],
    ["KaasInsert", "/properties/nodePools/0/nodes", 2.5, "must be integer"],
    ["KaasInsert", "/properties/nodePools/0/nodes", -1, "must be >= 0"],
    ["KaasInsert", "/properties/nodePools/0/minCount", 2147483648, "must be <= 2147483647"],
    ["KaasInsert", "/properties/nodePools/0/maxCount", -2147483649, "must be >= -2147483648"],
    ["KaasInsert", "/properties/nodePools/0/autoscaling", "on", "must be boolean"],
    ["KaasInsert", "/properties/ha", "true", "must be boolean"],
    ["KaasInsert", "/properties/storage/maxCumulativeVolumeSize", 1.5, "must be integer"],
    [
      "KaasInsert",
      "/properties/billingPlan/billingPeriod",
      "hourly",
      'must be one of "Hour", "Month", "Year"',
    ],
    ["KaasInsert", "/properties/identity", "id", "must be object"],
    ["KaasInsert", "/properties/identity/clientSecret", 42, "must be string"],
    ["KaasInsert", "/properties/apiServerAccessProfile/authorizedIpRanges/0", 5, "must be string"],
    ["KaasInsert", "/properties/apiServerAccessProfile/enablePrivateCluster", null, "must be boolean"],
    ["KaasUpdate", "/properties/kubernetesVersion/upgradeDate", "tomorrow", 'must match format "date-time"'],
    // `ha` is nullable on insert but not on update (spec §2.2 versus §2.3).
    ["KaasUpdate", "/properties/ha", null, "must be boolean"],
    ["KaasUpdate", "/properties/nodePools", [], "must NOT have fewer than 1 items"],
    ["NodePoolUpdate", "/properties/nodes", "2", "must be integer"],
    ["NodePoolUpdate", "/properties/minNode", 1.5, "must be integer"],
    ["NodePoolUpdate", "/properties/instance", "", "must NOT have fewer than 1 characters"],
    ["BackupInsert", "/properties/retentionDays", "7", "must be integer"],
    ["BackupInsert", "/properties/type", "", "must NOT have fewer than 1 characters"],
    ["BackupUpdate", "/properties/billingPeriod", 1, "must be string"],
    ["RegistryInsert", "/properties/size", 20, "must be string"],
    ["RegistryInsert", "/properties/preset", "true", "must be boolean"],
    ["RegistryInsert", "/properties/adminUser/username", "", "must NOT have fewer than 1 characters"],
    ["RegistryUpdate", "/properties/publicIp", "ip-1", "must be object"],
    ["RegistryPasswordReset", "/metadata", "images", "must be object"],
    ["VolumeAction", "/volume/uri", 5, "must be string"],
    ["VolumeAction", "/volume/uri", "", "must NOT have fewer than 1 characters"],
  ])("%s at %s rejects %j with %s", (name, pointer, value, message) => {
    expect(validateSchema(schemaOf(name), withChange(fullOf(name), pointer, value))).toEqual([
      { path: pointer, message },
    ]);
  });

  it.each([
    ["KaasInsert", "/metadata/tags"],
    ["KaasInsert", "/properties/podCidr"],
    ["KaasInsert", "/properties/ha"],
    ["KaasInsert", "/properties/storage/maxCumulativeVolumeSize"],
    ["KaasInsert", "/properties/billingPlan/billingPeriod"],
    ["KaasInsert", "/properties/identity/clientId"],
    ["KaasInsert", "/properties/identity/clientSecret"],
    ["KaasInsert", "/properties/autoscalerProfile"],
    ["KaasInsert", "/properties/apiServerAccessProfile/authorizedIpRanges"],
    ["KaasInsert", "/properties/nodePools/0/autoscaling"],
    ["KaasInsert", "/properties/nodePools/0/minCount"],
    ["KaasInsert", "/properties/nodePools/0/maxCount"],
    ["KaasUpdate", "/properties/kubernetesVersion/upgradeDate"],
    ["NodePoolUpdate", "/properties/instance"],
    ["NodePoolUpdate", "/properties/nodes"],
    ["NodePoolUpdate", "/properties/autoscaling"],
    ["NodePoolUpdate", "/properties/minNode"],
    ["NodePoolUpdate", "/properties/maxNode"],
    ["BackupInsert", "/properties/billingPeriod"],
    ["BackupInsert", "/properties/type"],
    ["BackupInsert", "/properties/retentionDays"],
    ["BackupUpdate", "/properties/billingPeriod"],
    ["RegistryInsert", "/properties/size"],
    ["RegistryUpdate", "/metadata/tags"],
    ["VolumeAction", "/volume/uri"],
  ])("%s accepts null at %s", (name, pointer) => {
    expect(validateSchema(schemaOf(name), withChange(fullOf(name), pointer, null))).toEqual([]);
  });

  it("rejects a body that is not an object at the root path", () => {
    expect(validateSchema(KaasInsert, null)).toEqual([{ path: "/", message: "must be object" }]);
    expect(validateSchema(VolumeAction, [])).toEqual([{ path: "/", message: "must be object" }]);
  });

  it("reports every problem of a body at once, in document order", () => {
    const body = {
      metadata: { name: "", tags: [1] },
      properties: {
        nodeCidr: { address: "10.0.0.0/16" },
        kubernetesVersion: { value: "1.32.3" },
        nodePools: [{ name: "pool-1", nodes: "3", instance: "K2A4", dataCenter: "ITBG-1", labels: {} }],
        podCidr: 10,
        billingPlan: { billingPeriod: "hourly" },
      },
      extra: true,
    };
    expect(validateSchema(KaasInsert, body)).toEqual([
      { path: "/extra", message: "is not an allowed property" },
      { path: "/metadata/name", message: "must NOT have fewer than 1 characters" },
      { path: "/metadata/tags/0", message: "must be string" },
      { path: "/properties/nodeCidr/name", message: "is required" },
      { path: "/properties/podCidr", message: "must be string" },
      { path: "/properties/nodePools/0/labels", message: "is not an allowed property" },
      { path: "/properties/nodePools/0/nodes", message: "must be integer" },
      { path: "/properties/billingPlan/billingPeriod", message: 'must be one of "Hour", "Month", "Year"' },
    ]);
  });

  it("reports each path once when a value breaks several rules there", () => {
    // -1.5 is neither an integer nor >= 0; a nullable string given a number fails both union branches.
    const body = withChange(
      withChange(fullOf("KaasInsert"), "/properties/nodePools/0/nodes", -1.5),
      "/properties/podCidr",
      false,
    );
    const problems = validateSchema(KaasInsert, body);
    expect(problems).toEqual([
      { path: "/properties/podCidr", message: "must be string" },
      { path: "/properties/nodePools/0/nodes", message: "must be integer" },
    ]);
  });

  it("validates the same schema object repeatedly with the same result", () => {
    const bad = withChange(fullOf("VolumeAction"), "/volume/uri", 1);
    expect(validateSchema(VolumeAction, bad)).toEqual([{ path: "/volume/uri", message: "must be string" }]);
    expect(validateSchema(VolumeAction, bad)).toEqual([{ path: "/volume/uri", message: "must be string" }]);
    expect(validateSchema(VolumeAction, fullOf("VolumeAction"))).toEqual([]);
  });
});

describe("formatProblems", () => {
  it("joins problems as `path: message` separated by semicolons", () => {
    expect(
      formatProblems([
        { path: "/properties/x", message: "is not an allowed property" },
        { path: "/metadata/name", message: "is required" },
      ]),
    ).toBe("/properties/x: is not an allowed property; /metadata/name: is required");
  });

  it("formats a single problem without a separator", () => {
    expect(formatProblems([{ path: "/", message: "must be object" }])).toBe("/: must be object");
  });

  it("formats no problems as the empty string", () => {
    expect(formatProblems([])).toBe("");
  });
});

const kaasResponse = {
  metadata: {
    id: "k-1",
    uri: "/projects/p-1/providers/Vendor.Container/kaas/k-1",
    name: "prod",
    location: { code: "ITBG", country: "IT", city: "Bergamo", name: "Bergamo", value: "ITBG-Bergamo" },
    project: { id: "p-1" },
    tags: ["team-a"],
    category: { name: "Container", provider: "Vendor.Container", typology: { id: "kaas", name: "KaaS" } },
    creationDate: "2025-01-01T00:00:00Z",
    createdBy: "someone",
    version: "3",
  },
  status: {
    state: "Active",
    creationDate: "2025-01-01T00:00:00Z",
    failureReason: null,
    error: null,
    disableStatusInfo: { isDisabled: false, reasons: [], previousStatus: null },
  },
  properties: {
    linkedResources: [{ uri: "/x", strictCorrelation: true }],
    preset: true,
    vpc: { uri: "/projects/p-1/providers/Vendor.Network/vpcs/v-1" },
    subnet: { uri: null },
    kubernetesVersion: {
      value: "1.32.3",
      endOfSupportDate: null,
      recommended: true,
      upgradeTo: { value: "1.33.1", scheduledAt: "2030-01-01T00:00:00Z" },
    },
    nodesPool: [
      {
        name: "pool-1",
        nodes: 3,
        autoscaling: false,
        minCount: null,
        maxCount: null,
        instance: { name: "K2A4", cpu: "2", ram: "4", diskSizeGb: "40", price: 0.05 },
        dataCenter: { code: "ITBG-1", name: "Bergamo 1" },
        nodeIds: ["n-1", "n-2", "n-3"],
        zone: "extra-field",
      },
    ],
    podcidr: { address: "10.244.0.0/16" },
    nodecidr: { address: "10.0.0.0/16", name: "nodes", uri: "/x" },
    securityGroup: { name: "sg-auto", uri: null },
    ha: null,
    storage: { maxCumulativeVolumeSize: null },
    billingPlan: { billingPeriod: "hourly" },
    openstackProject: { id: "os-1" },
    identity: { clientId: "cluster-identity" },
    apiServerAccessProfile: { authorizedIpRanges: null, enablePrivateCluster: false },
  },
  data: { private: { phase: { name: "Ready", startDate: "2025-01-01T00:10:00Z" } }, extra: 1 },
};

const backupResponse = {
  metadata: { id: "b-1", name: "nightly", somethingNew: true },
  status: { state: "Active" },
  properties: {
    linkedResources: null,
    billingPeriod: "monthly",
    type: "Full",
    retentionDays: 7,
    kaas: { uri: "/projects/p-1/providers/Vendor.Container/kaas/k-1", id: "k-1", name: "prod" },
  },
  data: {
    info: { sizeBytes: 1073741824, expiresAt: "2025-02-01T00:00:00Z" },
    private: { phase: null },
  },
};

const registryResponse = {
  metadata: {
    id: "r-1",
    uri: "/projects/p-1/providers/Vendor.Container/containerRegistries/r-1",
    name: "images",
  },
  status: { state: "InCreation", disableStatusInfo: null },
  properties: {
    preset: false,
    vpc: { uri: "/v" },
    publicIp: { uri: "/ip" },
    billingPlan: { billingPeriod: "yearly" },
    adminUser: { username: "registry-admin" },
    size: "100",
    concurrentUsers: 50,
  },
  data: {
    private: { passwordSet: true, adminPasswordLastSetDate: null },
    info: { version: "2.11", privateBaseUrl: null, publicBaseUrl: "https://r", fqdn: "r.example" },
  },
};

describe("response schemas", () => {
  it("KaasResponse accepts extra fields and the reference spellings nodecidr, podcidr, nodesPool", () => {
    expect(validateSchema(KaasResponse, kaasResponse)).toEqual([]);
  });

  it("KaasResponse accepts node pools under nodePools with a dataCenter of name only", () => {
    const pools = [{ name: "pool-1", dataCenter: { name: "Bergamo 1" }, instance: { name: "K2A4" } }];
    const body = withChange(
      withChange(kaasResponse, "/properties/nodesPool", DELETE),
      "/properties/nodePools",
      pools,
    );
    expect(validateSchema(KaasResponse, body)).toEqual([]);
  });

  it("KaasResponse accepts a body with only metadata.id and properties", () => {
    expect(validateSchema(KaasResponse, { metadata: { id: "k-1" }, properties: {} })).toEqual([]);
  });

  it.each([
    ["KaasResponse", KaasResponse, kaasResponse],
    ["BackupResponse", BackupResponse, backupResponse],
    ["RegistryResponse", RegistryResponse, registryResponse],
  ])("%s rejects a response without metadata.id", (_name, schema, body) => {
    expect(validateSchema(schema, withChange(body, "/metadata/id", DELETE))).toEqual([
      { path: "/metadata/id", message: "is required" },
    ]);
  });

  it.each([
    ["KaasResponse", KaasResponse, kaasResponse],
    ["BackupResponse", BackupResponse, backupResponse],
    ["RegistryResponse", RegistryResponse, registryResponse],
  ])("%s rejects an empty metadata.id", (_name, schema, body) => {
    expect(validateSchema(schema, withChange(body, "/metadata/id", ""))).toEqual([
      { path: "/metadata/id", message: "must NOT have fewer than 1 characters" },
    ]);
  });

  it("BackupResponse accepts extra fields and billingPeriod `monthly`", () => {
    expect(validateSchema(BackupResponse, backupResponse)).toEqual([]);
  });

  it("RegistryResponse accepts extra fields and a metadata.uri that says containerRegistries", () => {
    expect(validateSchema(RegistryResponse, registryResponse)).toEqual([]);
  });

  it("reports a wrongly typed status.state once, without a spurious `must be null` on status", () => {
    expect(validateSchema(KaasResponse, withChange(kaasResponse, "/status/state", 5))).toEqual([
      { path: "/status/state", message: "must be string" },
    ]);
  });

  it.each([
    ["KaasList", KaasList, kaasResponse],
    ["BackupList", BackupList, backupResponse],
    ["RegistryList", RegistryList, registryResponse],
  ])(
    "%s accepts the envelope with total, with totalCount instead, and with extra fields",
    (_name, schema, item) => {
      const page = { self: "/a?offset=0", prev: null, next: "", first: "/a", last: "/a", values: [item] };
      expect(validateSchema(schema, { ...page, total: 1 })).toEqual([]);
      expect(validateSchema(schema, { ...page, totalCount: 1 })).toEqual([]);
      expect(validateSchema(schema, { values: [], pageSize: 100 })).toEqual([]);
    },
  );

  it.each([
    ["KaasList", KaasList, kaasResponse],
    ["BackupList", BackupList, backupResponse],
    ["RegistryList", RegistryList, registryResponse],
  ])("%s rejects an item without metadata.id at its index", (_name, schema, item) => {
    const page = { total: 2, values: [item, withChange(item, "/metadata/id", DELETE)] };
    expect(validateSchema(schema, page)).toEqual([{ path: "/values/1/metadata/id", message: "is required" }]);
  });

  it("names an item that is not an object by its index, after the envelope's own problems", () => {
    expect(validateSchema(KaasList, { total: "2", values: [kaasResponse, 7] })).toEqual([
      { path: "/total", message: "must be integer" },
      { path: "/values/1", message: "must be object" },
    ]);
  });

  it("reports an item's problems as the item schema does, under the item's index", () => {
    const broken = withChange(kaasResponse, "/metadata/id", DELETE);
    expect(validateSchema(KaasList, { values: [broken] })).toEqual(
      validateSchema(KaasResponse, broken).map((p) => ({ ...p, path: `/values/0${p.path}` })),
    );
  });

  it("rejects a list without values and a total that is not an integer", () => {
    expect(validateSchema(KaasList, { total: "3" })).toEqual([
      { path: "/values", message: "is required" },
      { path: "/total", message: "must be integer" },
    ]);
  });
});
