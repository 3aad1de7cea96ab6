/**
 * Check failures as the engine gets them, through the entry point the serialized shells call
 * (`provider(kind).check`). The engine prints a failure's value from the top-level input named by its property
 * (engine notes "check"), so a nested path printed `{<nil>}` and a list was printed whole. A top-level argument
 * with a short scalar value keeps its property; every other failure names its path, and a short form of the
 * value, in the reason of a failure of the whole resource. A credential's value is never quoted.
 */
import { configure, provider } from "../../provider";
import { engineFailure, engineFailures } from "../../provider/common/engineFailures";
import { quote, type Inputs } from "../../provider/common/check";
import { resetBackendIdentity } from "../../provider/common/context";
import { UNKNOWN } from "../../provider/common/unknown";
import { registerSecret } from "../../rest/redact";

const POOL_NAME_HINT =
  "must be 1-40 lower-case letters, digits or '-', starting and ending with a letter or digit";

const pool = (i: number) => ({ name: `pool-${i}`, nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" });
const POOLS_50 = Array.from({ length: 50 }, (_, i) => pool(i));
const RANGES_200 = Array.from({ length: 200 }, (_, i) => `10.${Math.floor(i / 100)}.${i % 100}.0/24`);

function cluster(patch: Inputs = {}): Inputs {
  return {
    projectId: "proj-1",
    name: "prod",
    location: "ITBG-Bergamo",
    kubernetesVersion: "1.33.2",
    nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
    nodePools: [pool(0)],
    creationScope: "shop/dev/prod",
    ...patch,
  };
}

/** The stack configuration the provider sees. */
let config: Record<string, string> = {};
const backendBefore = process.env.PULUMI_BACKEND_URL;

beforeAll(() => {
  process.env.PULUMI_BACKEND_URL = "file:///var/tmp/engine-failures";
  resetBackendIdentity();
  configure({ get: (key) => config[key] });
});
afterAll(() => {
  configure(undefined);
  if (backendBefore === undefined) delete process.env.PULUMI_BACKEND_URL;
  else process.env.PULUMI_BACKEND_URL = backendBefore;
  resetBackendIdentity();
});
beforeEach(() => {
  config = {};
});

const failuresOf = async (kind: string, news: Inputs, olds: Inputs = {}) =>
  (await provider(kind).check(olds, news)).failures;

describe("a Kaas's failures as the engine gets them", () => {
  it("names the bad pool of fifty, and the pool limit, without quoting the list", async () => {
    config["vendor:limits"] = '{"maxNodePool": 10}';
    const pools = POOLS_50.map((p, i) => (i === 37 ? { ...p, name: "Pool_37" } : p));
    expect(await failuresOf("Kaas", cluster({ nodePools: pools }))).toEqual([
      {
        property: "",
        reason: "nodePools: must have at most 10 node pools (vendor:limits maxNodePool), got 50",
      },
      { property: "", reason: `nodePools[37].name = "Pool_37": ${POOL_NAME_HINT}` },
    ]);
  });

  it("names a bad range of two hundred, and the range limit, without quoting the list", async () => {
    config["vendor:limits"] = '{"maxWhitelistCount": 20}';
    const ranges = RANGES_200.map((r, i) => (i === 150 ? "10.1.50.0/33" : r));
    expect(await failuresOf("Kaas", cluster({ authorizedIpRanges: ranges }))).toEqual([
      {
        property: "",
        reason: 'authorizedIpRanges[150]: must be an IPv4 CIDR like 10.0.0.0/16, got "10.1.50.0/33"',
      },
      {
        property: "",
        reason: "authorizedIpRanges: must have at most 20 entries (vendor:limits maxWhitelistCount), got 200",
      },
    ]);
  });

  it("gives a nested pool value as it is, and a missing one as missing", async () => {
    config["vendor:limits"] = '{"maxNode": 50}';
    const pools = [
      { ...pool(0), nodes: 1000 },
      { ...pool(1), name: "bad name!" },
      { name: "pool-2", nodes: 1 },
    ];
    expect(await failuresOf("Kaas", cluster({ nodePools: pools }))).toEqual([
      {
        property: "",
        reason: "nodePools[0].nodes: must be at most 50 (vendor:limits maxNode), got 1000",
      },
      { property: "", reason: `nodePools[1].name = "bad name!": ${POOL_NAME_HINT}` },
      { property: "", reason: "nodePools[2].instance: is required" },
      { property: "", reason: "nodePools[2].dataCenter: is required" },
    ]);
  });

  it("never quotes a value of the identity, which holds a credential", async () => {
    const secret = "identity-secret-7f3a9c";
    const failures = await failuresOf(
      "Kaas",
      cluster({ identity: { clientId: 42, clientSecret: 918273645, extra: secret } }),
    );
    expect(failures).toEqual([
      {
        property: "",
        reason: "identity.extra = [secret]: is not a known argument (allowed: clientId, clientSecret)",
      },
      { property: "", reason: "identity.clientId = [secret]: must be a string, got number" },
      { property: "", reason: "identity.clientSecret = [secret]: must be a string, got number" },
    ]);
    expect(JSON.stringify(failures)).not.toMatch(/identity-secret|918273645|42/);
  });

  it("keeps the property of a top-level argument with a short scalar value: the engine prints it", async () => {
    const failures = await failuresOf(
      "Kaas",
      cluster({ ha: false, billingPeriod: "Weekly" }),
      cluster({ ha: true }),
    );
    expect(failures).toEqual([
      {
        property: "ha",
        reason:
          "cannot be disabled: the service cannot turn high availability off once enabled, and replacing the cluster would destroy it; keep ha: true",
      },
      { property: "billingPeriod", reason: 'must be one of Hour, Month, Year, got "Weekly"' },
    ]);
  });

  it("names a missing top-level argument instead of letting the engine print {<nil>}", async () => {
    const { nodeCidr: _nodeCidr, name: _name, ...rest } = cluster();
    expect(await failuresOf("Kaas", rest)).toEqual([
      { property: "", reason: "name: is required" },
      { property: "", reason: "nodeCidr: is required" },
    ]);
  });

  it("quotes only the start of a long value, with its length", async () => {
    const long = "x".repeat(5000);
    expect(await failuresOf("Kaas", cluster({ name: long, podCidr: long }))).toEqual([
      {
        property: "",
        reason: `name = "${"x".repeat(128)}"… (5000 characters): must be at most 63 characters`,
      },
      {
        property: "",
        reason:
          `podCidr: must be an IPv4 CIDR like 10.0.0.0/16, ` + `got "${"x".repeat(128)}"… (5000 characters)`,
      },
    ]);
  });
});

describe("the other kinds' failures as the engine gets them", () => {
  it("KaasBackup: a tag by its index", async () => {
    const backup = { kaasId: "kaas-1", name: "nightly", location: "ITBG-Bergamo", projectId: "proj-1" };
    expect(await failuresOf("KaasBackup", { ...backup, tags: ["ok", "pulumi-ct-x"] })).toEqual([
      { property: "", reason: 'tags[1] = "pulumi-ct-x": must not start with "pulumi-ct-" (reserved)' },
    ]);
  });

  it("Registry: a timeout by its path; a short top-level value keeps its property", async () => {
    const registry = { name: "images", location: "ITBG-Bergamo", projectId: "proj-1" };
    expect(
      await failuresOf("Registry", { ...registry, adminUsername: "admin", timeouts: { create: "soon" } }),
    ).toEqual([
      { property: "adminUsername", reason: '"admin" is reserved by the service; choose another name' },
      {
        property: "",
        reason: 'timeouts.create: must be a duration like "40m", "1h30m" or "90s", got "soon"',
      },
    ]);
  });

  it("VolumeAttachment: a timeout by its path; a short top-level value keeps its property", async () => {
    const attachment = {
      projectId: "proj-1",
      kaasId: "kaas-1",
      nodePoolName: "system",
      nodeId: "kaas-1-system-1",
      volumeUri: "v-1",
      timeouts: { delete: -5 },
      creationScope: "shop/dev/data",
    };
    expect(await failuresOf("VolumeAttachment", attachment)).toEqual([
      {
        property: "volumeUri",
        reason:
          "must be a block storage URI like /projects/<project>/providers/Vendor.Storage/blockStorages/<id>",
      },
      {
        property: "",
        reason: 'timeouts.delete: must be a duration like "40m", "1h30m" or "90s", got -5',
      },
    ]);
  });
});

describe("engineFailure", () => {
  const news = { name: "prod", nodePools: [{ name: UNKNOWN, nodes: 3 }], tags: ["a"] };

  it("passes a failure of the whole resource as it is", () => {
    expect(engineFailure({ property: "", reason: "vendor:limits: bad" }, news)).toEqual({
      property: "",
      reason: "vendor:limits: bad",
    });
  });

  it("quotes no unknown value (preview), and no list or object", () => {
    expect(
      engineFailures(
        [
          { property: "nodePools[0].name", reason: "r1" },
          { property: "nodePools[0]", reason: "r2" },
          { property: "tags", reason: "r3" },
          { property: "nodePools[7].name", reason: "r4" },
        ],
        news,
      ),
    ).toEqual([
      { property: "", reason: "nodePools[0].name: r1" },
      { property: "", reason: "nodePools[0]: r2" },
      { property: "", reason: "tags: r3" },
      { property: "", reason: "nodePools[7].name: r4" },
    ]);
  });

  it("never quotes an argument named like a credential, even a short top-level one", () => {
    expect(
      engineFailures(
        [
          { property: "adminPassword", reason: "is not a known argument" },
          { property: "token", reason: "is not a known argument" },
          { property: "adminPasswordResetTrigger", reason: "must be a string, got number" },
        ],
        { adminPassword: "hunter2-hunter2", token: "t-0123456789", adminPasswordResetTrigger: 7 },
      ),
    ).toEqual([
      { property: "", reason: "adminPassword = [secret]: is not a known argument" },
      { property: "", reason: "token = [secret]: is not a known argument" },
      { property: "adminPasswordResetTrigger", reason: "must be a string, got number" },
    ]);
  });

  it("quotes a value once: not again where the reason quotes it", () => {
    const pools = { nodePools: [{ name: "System_1", nodes: 2, minCount: 2.5 }] };
    expect(
      engineFailures(
        [
          { property: "nodePools[0].name", reason: 'duplicates the pool name "System_1"' },
          { property: "nodePools[0].nodes", reason: "must be at most 1, got 2" },
          { property: "nodePools[0].nodes", reason: "must be within 2..4, got 20" },
          { property: "nodePools[0].minCount", reason: "must be an integer, got 2.5" },
          { property: "nodePools[0].minCount", reason: "must not exceed 2" },
        ],
        pools,
      ),
    ).toEqual([
      { property: "", reason: 'nodePools[0].name: duplicates the pool name "System_1"' },
      { property: "", reason: "nodePools[0].nodes: must be at most 1, got 2" },
      { property: "", reason: "nodePools[0].nodes = 2: must be within 2..4, got 20" },
      { property: "", reason: "nodePools[0].minCount: must be an integer, got 2.5" },
      { property: "", reason: "nodePools[0].minCount = 2.5: must not exceed 2" },
    ]);
  });

  it("clears a secret the package knows from a quoted value and from the reason", () => {
    registerSecret("api-token-0a1b2c3d");
    expect(
      engineFailures(
        [
          { property: "nodePools[0].name", reason: "r" },
          { property: "location", reason: 'got "api-token-0a1b2c3d"' },
        ],
        { nodePools: [{ name: "api-token-0a1b2c3d" }], location: "x" },
      ),
    ).toEqual([
      { property: "", reason: 'nodePools[0].name = "[redacted]": r' },
      { property: "location", reason: 'got "[redacted]"' },
    ]);
  });
});

describe("quote", () => {
  it.each([
    ["a short string whole", "short", '"short"'],
    ["a number", 1000, "1000"],
    ["a boolean", true, "true"],
    ["a small object as JSON", { a: 1 }, '{"a":1}'],
    ["a string of 128 characters whole", "y".repeat(128), `"${"y".repeat(128)}"`],
    ["the start of a longer string", "y".repeat(129), `"${"y".repeat(128)}"… (129 characters)`],
    ["the start of a long list's JSON", ["z".repeat(130)], `["${"z".repeat(126)}… (134 characters)`],
  ])("quotes %s", (_label, value, text) => {
    expect(quote(value)).toBe(text);
  });
});
