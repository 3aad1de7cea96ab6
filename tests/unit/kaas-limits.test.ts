/**
 * The account's limits at preview: the `vendor:limits` setting parsed with exact problems, every declared limit
 * enforced by a cluster's `check` with the property, the limit and the setting named, nothing enforced where
 * nothing is declared, and the setting read from the stack configuration before the environment.
 */
import type { CheckFailure, Inputs } from "../../provider/common/check";
import { configure, declaredLimits } from "../../provider/common/context";
import { LIMIT_KEYS, parseDeclaredLimits, type DeclaredLimits } from "../../provider/common/limits";
import { UNKNOWN } from "../../provider/common/unknown";
import { checkKind } from "../../provider/common/describedProvider";
import { KAAS, KaasProvider } from "../../provider/kaas/descriptor";
import { CHECK_SETTING_SOURCES } from "../../rest/settings";
import { CHECK_CONTEXT, baselineInputs } from "./support/kaas-fixtures";

const fail = (property: string, reason: string): CheckFailure => ({ property, reason });

/** Limits declared in stack config `vendor:limits`. */
const declared = (values: DeclaredLimits["values"], problems: string[] = []): DeclaredLimits => ({
  setting: "vendor:limits",
  values,
  problems,
});

const check = (news: Inputs, limits?: DeclaredLimits) =>
  checkKind(KAAS, {}, news, { ...CHECK_CONTEXT, limits }).failures;

/**
 * The baseline cluster (pool `system`: 3 nodes; pool `workers`: autoscaling 2..10 starting at 4; storage cap
 * 500; one authorized range) with top-level arguments replaced.
 */
const withArgs = (patch: Inputs): Inputs => ({ ...baselineInputs(), ...patch });

/** The baseline with pool `index` patched. */
function withPool(index: number, patch: Inputs): Inputs {
  const inputs = baselineInputs();
  const pools = inputs.nodePools as Inputs[];
  pools[index] = { ...pools[index], ...patch };
  return inputs;
}

const SHAPE = 'vendor:limits must be a JSON object like {"maxNode": 50, "maxNodePool": 10}';
const KNOWN =
  "maxNodePool, minNodePool, maxNode, minNode, minClusterBlockStorageSize, maxClusterBlockStorageSize, " +
  "maxWhitelistCount";

describe("parseDeclaredLimits", () => {
  it("knows the seven limits of a cluster type, in the order of spec §2.8", () => {
    expect(LIMIT_KEYS).toEqual(KNOWN.split(", "));
  });

  it("declares nothing when the setting is not set", () => {
    expect(parseDeclaredLimits(undefined, "vendor:limits")).toBeUndefined();
  });

  it.each<[string, string, DeclaredLimits["values"]]>([
    ["an empty object", "{}", {}],
    ["one key", '{"maxNode": 50}', { maxNode: 50 }],
    ["null, the service's no limit", '{"maxNode": null, "minNode": 1}', { minNode: 1 }],
    ["zero", '{"maxWhitelistCount": 0}', { maxWhitelistCount: 0 }],
    ["a minimum equal to its maximum", '{"minNode": 3, "maxNode": 3}', { minNode: 3, maxNode: 3 }],
  ])("accepts %s", (_label, text, values) => {
    expect(parseDeclaredLimits(text, "vendor:limits")).toEqual(declared(values));
  });

  it.each<[string, string, DeclaredLimits["values"], string[]]>([
    ["text that is not JSON", "maxNode=50", {}, [`${SHAPE}, got "maxNode=50" (not JSON)`]],
    ["a list", "[50]", {}, [`${SHAPE}, got array`]],
    ["a number", "50", {}, [`${SHAPE}, got number`]],
    ["null", "null", {}, [`${SHAPE}, got null`]],
    [
      "an unknown key",
      '{"maxNodes": 50, "maxNodePool": 10}',
      { maxNodePool: 10 },
      [`vendor:limits: "maxNodes" is not a limit (limits: ${KNOWN})`],
    ],
    [
      "a string value",
      '{"maxNode": "50"}',
      {},
      ['vendor:limits: maxNode must be a non-negative integer or null, got "50"'],
    ],
    [
      "a fraction",
      '{"maxClusterBlockStorageSize": 99.5}',
      {},
      ["vendor:limits: maxClusterBlockStorageSize must be a non-negative integer or null, got 99.5"],
    ],
    [
      "a negative value",
      '{"minNode": -1}',
      {},
      ["vendor:limits: minNode must be a non-negative integer or null, got -1"],
    ],
    [
      "a boolean",
      '{"maxWhitelistCount": true}',
      {},
      ["vendor:limits: maxWhitelistCount must be a non-negative integer or null, got true"],
    ],
    [
      "a minimum above its maximum",
      '{"minNodePool": 4, "maxNodePool": 3}',
      { minNodePool: 4, maxNodePool: 3 },
      ["vendor:limits: minNodePool (4) must not exceed maxNodePool (3)"],
    ],
    [
      "several problems at once",
      '{"maxNode": "many", "pools": 3, "minNode": 1}',
      { minNode: 1 },
      [
        'vendor:limits: maxNode must be a non-negative integer or null, got "many"',
        `vendor:limits: "pools" is not a limit (limits: ${KNOWN})`,
      ],
    ],
  ])("reports %s, naming the setting (and the key)", (_label, text, values, problems) => {
    expect(parseDeclaredLimits(text, "vendor:limits")).toEqual(declared(values, problems));
  });

  it("names the environment variable when the limits come from there", () => {
    expect(parseDeclaredLimits('{"maxNode": "x"}', "VENDOR_LIMITS")).toEqual({
      setting: "VENDOR_LIMITS",
      values: {},
      problems: ['VENDOR_LIMITS: maxNode must be a non-negative integer or null, got "x"'],
    });
  });
});

describe("a cluster's check against the declared limits", () => {
  const rows: [string, DeclaredLimits["values"], Inputs, CheckFailure[]][] = [
    [
      "a pool of 1000 nodes when maxNode is 50",
      { maxNode: 50 },
      withPool(0, { nodes: 1000 }),
      [fail("nodePools[0].nodes", "must be at most 50 (vendor:limits maxNode), got 1000")],
    ],
    [
      "a pool below minNode",
      { minNode: 4 },
      withPool(1, { nodes: 5, minCount: 4 }),
      [fail("nodePools[0].nodes", "must be at least 4 (vendor:limits minNode), got 3")],
    ],
    [
      "an autoscaling pool whose maxCount is above maxNode",
      { maxNode: 8 },
      baselineInputs(),
      [fail("nodePools[1].maxCount", "must be at most 8 (vendor:limits maxNode), got 10")],
    ],
    [
      "an autoscaling pool whose minCount is below minNode",
      { minNode: 3 },
      baselineInputs(),
      [fail("nodePools[1].minCount", "must be at least 3 (vendor:limits minNode), got 2")],
    ],
    [
      "an autoscaling pool starting at zero nodes when minNode is 1",
      { minNode: 1 },
      withPool(1, { nodes: 0, minCount: 0 }),
      [
        fail("nodePools[1].nodes", "must be at least 1 (vendor:limits minNode), got 0"),
        fail("nodePools[1].minCount", "must be at least 1 (vendor:limits minNode), got 0"),
      ],
    ],
    [
      "more pools than maxNodePool",
      { maxNodePool: 1 },
      baselineInputs(),
      [fail("nodePools", "must have at most 1 node pool (vendor:limits maxNodePool), got 2")],
    ],
    [
      "fewer pools than minNodePool",
      { minNodePool: 3 },
      baselineInputs(),
      [fail("nodePools", "must have at least 3 node pools (vendor:limits minNodePool), got 2")],
    ],
    [
      "a storage cap above maxClusterBlockStorageSize",
      { maxClusterBlockStorageSize: 100 },
      baselineInputs(),
      [
        fail(
          "maxCumulativeVolumeSize",
          "must be at most 100 (vendor:limits maxClusterBlockStorageSize), got 500",
        ),
      ],
    ],
    [
      "a storage cap below minClusterBlockStorageSize",
      { minClusterBlockStorageSize: 1000 },
      baselineInputs(),
      [
        fail(
          "maxCumulativeVolumeSize",
          "must be at least 1000 (vendor:limits minClusterBlockStorageSize), got 500",
        ),
      ],
    ],
    [
      "more authorized ranges than maxWhitelistCount",
      { maxWhitelistCount: 2 },
      withArgs({ authorizedIpRanges: ["203.0.113.0/24", "198.51.100.0/24", "192.0.2.0/24"] }),
      [fail("authorizedIpRanges", "must have at most 2 entries (vendor:limits maxWhitelistCount), got 3")],
    ],
    [
      "one authorized range when maxWhitelistCount is 0",
      { maxWhitelistCount: 0 },
      baselineInputs(),
      [fail("authorizedIpRanges", "must have at most 0 entries (vendor:limits maxWhitelistCount), got 1")],
    ],
    [
      "every limit broken at once, in argument order",
      {
        maxNode: 2,
        maxNodePool: 1,
        maxClusterBlockStorageSize: 10,
        maxWhitelistCount: 0,
      },
      baselineInputs(),
      [
        fail("nodePools", "must have at most 1 node pool (vendor:limits maxNodePool), got 2"),
        fail("nodePools[0].nodes", "must be at most 2 (vendor:limits maxNode), got 3"),
        fail("nodePools[1].nodes", "must be at most 2 (vendor:limits maxNode), got 4"),
        fail("nodePools[1].maxCount", "must be at most 2 (vendor:limits maxNode), got 10"),
        fail(
          "maxCumulativeVolumeSize",
          "must be at most 10 (vendor:limits maxClusterBlockStorageSize), got 500",
        ),
        fail("authorizedIpRanges", "must have at most 0 entries (vendor:limits maxWhitelistCount), got 1"),
      ],
    ],
  ];

  it.each(rows)("refuses %s", (_label, values, news, failures) => {
    expect(check(news, declared(values))).toEqual(failures);
  });

  it.each<[string, DeclaredLimits["values"], Inputs]>([
    ["values on the limits", { maxNode: 10, minNode: 2, maxNodePool: 2, minNodePool: 2 }, baselineInputs()],
    [
      "the storage and range limits when the cluster sets neither",
      { maxClusterBlockStorageSize: 10, minClusterBlockStorageSize: 1000, maxWhitelistCount: 0 },
      withArgs({ maxCumulativeVolumeSize: undefined, authorizedIpRanges: undefined }),
    ],
    [
      "an empty list of authorized ranges when maxWhitelistCount is 0",
      { maxWhitelistCount: 0 },
      withArgs({ authorizedIpRanges: [] }),
    ],
    ["a node count still unknown (preview)", { maxNode: 50 }, withPool(0, { nodes: UNKNOWN })],
    ["a list of pools still unknown (preview)", { maxNodePool: 1 }, withArgs({ nodePools: UNKNOWN })],
    [
      "a storage cap still unknown (preview)",
      { maxClusterBlockStorageSize: 10 },
      withArgs({ maxCumulativeVolumeSize: UNKNOWN }),
    ],
  ])("accepts %s", (_label, values, news) => {
    expect(check(news, declared(values))).toEqual([]);
  });

  it("enforces nothing of the account's when no limits are declared: 1000 nodes pass", () => {
    expect(check(withPool(0, { nodes: 1000 }))).toEqual([]);
  });

  it("reports a value the argument's own rule refuses once, without the limit", () => {
    expect(check(withPool(0, { nodes: 1001 }), declared({ maxNode: 50 }))).toEqual([
      fail("nodePools[0].nodes", "must be between 0 and 1000, got 1001"),
    ]);
  });

  it("fails with each problem of the setting, next to the limits it could read", () => {
    const limits = parseDeclaredLimits('{"maxNodes": 50, "maxNodePool": 1}', "vendor:limits");
    expect(check(baselineInputs(), limits)).toEqual([
      fail("", `vendor:limits: "maxNodes" is not a limit (limits: ${KNOWN})`),
      fail("nodePools", "must have at most 1 node pool (vendor:limits maxNodePool), got 2"),
    ]);
  });

  it("fails a cluster that breaks no limit when the setting cannot be read", () => {
    const limits = parseDeclaredLimits("{maxNode: 50}", "VENDOR_LIMITS");
    expect(check(baselineInputs(), limits)).toEqual([
      fail(
        "",
        'VENDOR_LIMITS must be a JSON object like {"maxNode": 50, "maxNodePool": 10}, got "{maxNode: 50}" (not JSON)',
      ),
    ]);
  });
});

describe("declaredLimits: the setting as the provider reads it", () => {
  const envBefore = process.env.VENDOR_LIMITS;
  afterEach(() => {
    configure(undefined);
    if (envBefore === undefined) delete process.env.VENDOR_LIMITS;
    else process.env.VENDOR_LIMITS = envBefore;
  });
  const withConfig = (values: Record<string, string>) => configure({ get: (key) => values[key] });

  it("is stack config vendor:limits, then the environment variable VENDOR_LIMITS", () => {
    expect(CHECK_SETTING_SOURCES).toEqual({ limits: ["vendor:limits", "VENDOR_LIMITS"] });
  });

  it("prefers the stack configuration, and names it", () => {
    process.env.VENDOR_LIMITS = '{"maxNode": 5}';
    withConfig({ "vendor:limits": ' {"maxNode": 50} ' });
    expect(declaredLimits()).toEqual(declared({ maxNode: 50 }));
  });

  it("falls back to the environment when the configuration is unset or blank, and names the variable", () => {
    process.env.VENDOR_LIMITS = '{"maxNode": 5}';
    withConfig({ "vendor:limits": "  " });
    expect(declaredLimits()).toEqual({ setting: "VENDOR_LIMITS", values: { maxNode: 5 }, problems: [] });
  });

  it("declares nothing when neither is set", () => {
    delete process.env.VENDOR_LIMITS;
    withConfig({});
    expect(declaredLimits()).toBeUndefined();
  });

  it("reaches the Kaas provider's check", async () => {
    delete process.env.VENDOR_LIMITS;
    withConfig({ "vendor:limits": '{"maxNode": 50}' });
    const { failures } = await new KaasProvider().check({}, withPool(0, { nodes: 1000 }));
    expect(failures).toEqual([
      fail("nodePools[0].nodes", "must be at most 50 (vendor:limits maxNode), got 1000"),
    ]);
  });
});
