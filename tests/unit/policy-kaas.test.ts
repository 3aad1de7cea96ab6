/**
 * The policy pack's Kaas rules, run as the analyzer runs them (properties behind `@pulumi/policy`'s proxy):
 * exact messages naming the resource and the property, the configured thresholds and their boundaries, and
 * values not known at preview never judged (nor turned into the library's "can't run during preview" note).
 */
import {
  kaasAuthorizedIpRanges,
  kaasHaInProduction,
  kaasKubernetesEndOfSupport,
  kaasKubernetesMinimumVersion,
  kaasNodePoolSize,
} from "../../policy/kaas";
import { SYSTEM_POOL, WORKER_POOL } from "../support/world";
import { UNKNOWN, runResourcePolicy, runStackPolicy, urnOf } from "./support/policy-args";

/** A cluster's properties as the analyzer sees them at preview: its checked inputs. */
const clusterProps = (overrides: Record<string, unknown> = {}) => ({
  name: "prod",
  location: "ITBG-Bergamo",
  projectId: "proj-1",
  kubernetesVersion: "1.33.2",
  nodeCidr: { address: "10.20.0.0/16", name: "nodes" },
  nodePools: [SYSTEM_POOL, WORKER_POOL],
  ha: true,
  authorizedIpRanges: ["192.168.10.0/24"],
  creationScope: "platform/prod/cluster",
  ...overrides,
});

const messages = async (run: Promise<{ message: string }[]>) => (await run).map((r) => r.message);

describe("kaas-ha-in-production", () => {
  const run = (props: Record<string, unknown>, stack: string, config?: Record<string, unknown>) =>
    messages(runResourcePolicy(kaasHaInProduction, "Kaas", "cluster", props, { stack, config }));

  it.each([
    [
      "not set",
      { ha: undefined },
      'Kaas "cluster" ha: not set (false by default); clusters of production stack "prod" must set ha: true',
    ],
    [
      "false",
      { ha: false },
      'Kaas "cluster" ha: false; clusters of production stack "prod" must set ha: true',
    ],
  ])("refuses a production cluster whose ha is %s", async (_label, overrides, message) => {
    expect(await run(clusterProps(overrides), "prod")).toEqual([message]);
  });

  it.each(["prod", "prod-eu", "eu-prod", "production"])(
    "treats stack %s as production by default",
    async (stack) => {
      expect(await run(clusterProps({ ha: false }), stack)).toEqual([
        `Kaas "cluster" ha: false; clusters of production stack "${stack}" must set ha: true`,
      ]);
    },
  );

  it.each(["dev", "staging", "preprod", "prod2", "eu-production"])(
    "does not judge stack %s by default",
    async (stack) => {
      expect(await run(clusterProps({ ha: false }), stack)).toEqual([]);
    },
  );

  it("accepts ha: true and leaves an ha not known yet unjudged", async () => {
    expect(await run(clusterProps(), "prod")).toEqual([]);
    expect(await run(clusterProps({ ha: UNKNOWN.boolean }), "prod")).toEqual([]);
  });

  it("uses the configured stack patterns instead of the default ones", async () => {
    const config = { stacks: ["live-*"] };
    expect(await run(clusterProps({ ha: false }), "live-eu", config)).toEqual([
      'Kaas "cluster" ha: false; clusters of production stack "live-eu" must set ha: true',
    ]);
    expect(await run(clusterProps({ ha: false }), "prod", config)).toEqual([]);
  });

  it("ignores resources of other kinds", async () => {
    const reported = await runResourcePolicy(
      kaasHaInProduction,
      "Kaas",
      "cluster",
      { ha: false },
      {
        type: "pulumi-nodejs:dynamic/vendor-container:Registry",
      },
    );
    expect(reported).toEqual([]);
  });
});

describe("kaas-authorized-ip-ranges", () => {
  const run = (props: Record<string, unknown>, config?: Record<string, unknown>) =>
    messages(runResourcePolicy(kaasAuthorizedIpRanges, "Kaas", "cluster", props, { config }));
  const OPEN = "so the API server accepts connections from any address; list the networks that may reach it";

  it("refuses a cluster without ranges, or with an empty list", async () => {
    expect(await run(clusterProps({ authorizedIpRanges: undefined }))).toEqual([
      `Kaas "cluster" authorizedIpRanges: not set, ${OPEN}`,
    ]);
    expect(await run(clusterProps({ authorizedIpRanges: [] }))).toEqual([
      `Kaas "cluster" authorizedIpRanges: empty, ${OPEN}`,
    ]);
  });

  it("refuses 0.0.0.0/0 whatever the configured prefix", async () => {
    const props = clusterProps({ authorizedIpRanges: ["192.168.10.0/24", "0.0.0.0/0"] });
    const message = 'Kaas "cluster" authorizedIpRanges[1]: "0.0.0.0/0" opens the API server to every address';
    expect(await run(props)).toEqual([message]);
    expect(await run(props, { minPrefixLength: 1 })).toEqual([message]);
  });

  it.each([
    [
      8,
      "10.0.0.0/7",
      'Kaas "cluster" authorizedIpRanges[0]: "10.0.0.0/7" is wider than /8 (minPrefixLength)',
    ],
    [8, "10.0.0.0/8", undefined],
    [
      16,
      "10.0.0.0/8",
      'Kaas "cluster" authorizedIpRanges[0]: "10.0.0.0/8" is wider than /16 (minPrefixLength)',
    ],
    [16, "172.16.0.0/16", undefined],
    [
      32,
      "203.0.113.7/31",
      'Kaas "cluster" authorizedIpRanges[0]: "203.0.113.7/31" is wider than /32 (minPrefixLength)',
    ],
    [32, "203.0.113.7/32", undefined],
  ])("with minPrefixLength %i judges %s", async (minPrefixLength, range, message) => {
    const props = clusterProps({ authorizedIpRanges: [range] });
    expect(await run(props, { minPrefixLength })).toEqual(message ? [message] : []);
  });

  it("defaults to a minimum prefix of /8", async () => {
    expect(await run(clusterProps({ authorizedIpRanges: ["10.0.0.0/8", "128.0.0.0/1"] }))).toEqual([
      'Kaas "cluster" authorizedIpRanges[1]: "128.0.0.0/1" is wider than /8 (minPrefixLength)',
    ]);
  });

  it("reports every offending range, and leaves malformed ones to check", async () => {
    const props = clusterProps({ authorizedIpRanges: ["0.0.0.0/0", "not-a-cidr", "10.0.0.0/6", "1.2.3.4"] });
    expect(await run(props)).toEqual([
      'Kaas "cluster" authorizedIpRanges[0]: "0.0.0.0/0" opens the API server to every address',
      'Kaas "cluster" authorizedIpRanges[2]: "10.0.0.0/6" is wider than /8 (minPrefixLength)',
    ]);
  });

  it("leaves a list or a range not known yet unjudged, and judges the known ranges", async () => {
    expect(await run(clusterProps({ authorizedIpRanges: UNKNOWN.array }))).toEqual([]);
    expect(await run(clusterProps({ authorizedIpRanges: [UNKNOWN.string, "0.0.0.0/0"] }))).toEqual([
      'Kaas "cluster" authorizedIpRanges[1]: "0.0.0.0/0" opens the API server to every address',
    ]);
  });

  it("lets a private cluster go without ranges unless configured otherwise, but never with an open one", async () => {
    const privateCluster = clusterProps({ enablePrivateCluster: true, authorizedIpRanges: undefined });
    expect(await run(privateCluster)).toEqual([]);
    expect(await run(privateCluster, { requireForPrivateClusters: true })).toEqual([
      `Kaas "cluster" authorizedIpRanges: not set, ${OPEN}`,
    ]);
    expect(
      await run(clusterProps({ enablePrivateCluster: true, authorizedIpRanges: ["0.0.0.0/0"] })),
    ).toEqual(['Kaas "cluster" authorizedIpRanges[0]: "0.0.0.0/0" opens the API server to every address']);
    // Whether the cluster is private is not known yet: no ranges is not judged either.
    expect(
      await run(clusterProps({ enablePrivateCluster: UNKNOWN.boolean, authorizedIpRanges: undefined })),
    ).toEqual([]);
  });
});

describe("kaas-kubernetes-minimum-version", () => {
  const run = (version: unknown, config?: Record<string, unknown>) =>
    messages(
      runResourcePolicy(
        kaasKubernetesMinimumVersion,
        "Kaas",
        "cluster",
        clusterProps({ kubernetesVersion: version }),
        {
          config,
        },
      ),
    );

  it.each([
    [
      undefined,
      "1.30.14",
      'Kaas "cluster" kubernetesVersion: 1.30.14 is below the minimum 1.31.0 (minimumVersion)',
    ],
    [undefined, "1.31.0", undefined],
    [undefined, "1.31.9", undefined],
    ["1.32", "1.31.9", 'Kaas "cluster" kubernetesVersion: 1.31.9 is below the minimum 1.32 (minimumVersion)'],
    ["1.32", "1.32.0", undefined],
    ["1.32", "1.32", undefined],
    [
      "1.32.5",
      "1.32.4",
      'Kaas "cluster" kubernetesVersion: 1.32.4 is below the minimum 1.32.5 (minimumVersion)',
    ],
    ["1.32.5", "1.33", undefined],
    // Numeric, not lexicographic: 1.10 is above 1.9.
    ["1.9", "1.10.0", undefined],
  ])("with minimumVersion %s judges %s", async (minimumVersion, version, message) => {
    const config = minimumVersion === undefined ? undefined : { minimumVersion };
    expect(await run(version, config)).toEqual(message ? [message] : []);
  });

  it("leaves a version not known yet, or not a version (check refuses it), unjudged", async () => {
    expect(await run(UNKNOWN.string, { minimumVersion: "1.40" })).toEqual([]);
    expect(await run("latest", { minimumVersion: "1.40" })).toEqual([]);
  });
});

describe("kaas-node-pool-size", () => {
  const run = (pools: unknown, config?: Record<string, unknown>) =>
    messages(
      runResourcePolicy(kaasNodePoolSize, "Kaas", "cluster", clusterProps({ nodePools: pools }), { config }),
    );

  it("accepts pools within the default bounds of 1 to 20 nodes", async () => {
    expect(await run([SYSTEM_POOL, WORKER_POOL])).toEqual([]);
    expect(
      await run([
        { ...SYSTEM_POOL, nodes: 1 },
        { ...WORKER_POOL, maxCount: 20 },
      ]),
    ).toEqual([]);
  });

  it("names the pool, its field and the bound for each count outside the bounds", async () => {
    expect(
      await run([
        { ...SYSTEM_POOL, nodes: 0 },
        { ...WORKER_POOL, nodes: 21, maxCount: 25 },
      ]),
    ).toEqual([
      'Kaas "cluster" nodePools[0] ("system").nodes: 0 is below the minimum of 1 node per pool (minNodes)',
      'Kaas "cluster" nodePools[1] ("workers").nodes: 21 is above the maximum of 20 nodes per pool (maxNodes)',
      'Kaas "cluster" nodePools[1] ("workers").maxCount: 25 is above the maximum of 20 nodes per pool (maxNodes)',
    ]);
  });

  it("uses the configured bounds", async () => {
    const config = { minNodes: 3, maxNodes: 5 };
    expect(
      await run(
        [
          { ...SYSTEM_POOL, nodes: 3 },
          { ...WORKER_POOL, nodes: 3, minCount: 3, maxCount: 5 },
        ],
        config,
      ),
    ).toEqual([]);
    expect(await run([SYSTEM_POOL, WORKER_POOL], config)).toEqual([
      'Kaas "cluster" nodePools[0] ("system").nodes: 2 is below the minimum of 3 nodes per pool (minNodes)',
      'Kaas "cluster" nodePools[1] ("workers").nodes: 2 is below the minimum of 3 nodes per pool (minNodes)',
      'Kaas "cluster" nodePools[1] ("workers").minCount: 1 is below the minimum of 3 nodes per pool (minNodes)',
      'Kaas "cluster" nodePools[1] ("workers").maxCount: 6 is above the maximum of 5 nodes per pool (maxNodes)',
    ]);
    expect(await run([{ ...SYSTEM_POOL, nodes: 2 }], { maxNodes: 1 })).toEqual([
      'Kaas "cluster" nodePools[0] ("system").nodes: 2 is above the maximum of 1 node per pool (maxNodes)',
    ]);
  });

  it("leaves pools, pools' counts and pools' names not known yet unjudged", async () => {
    expect(await run(UNKNOWN.array)).toEqual([]);
    expect(await run([UNKNOWN.object, { ...SYSTEM_POOL, nodes: 40 }])).toEqual([
      'Kaas "cluster" nodePools[1] ("system").nodes: 40 is above the maximum of 20 nodes per pool (maxNodes)',
    ]);
    expect(await run([{ ...WORKER_POOL, nodes: UNKNOWN.number, maxCount: 30 }])).toEqual([
      'Kaas "cluster" nodePools[0] ("workers").maxCount: 30 is above the maximum of 20 nodes per pool (maxNodes)',
    ]);
    expect(await run([{ ...SYSTEM_POOL, name: UNKNOWN.string, nodes: 40 }])).toEqual([
      'Kaas "cluster" nodePools[0].nodes: 40 is above the maximum of 20 nodes per pool (maxNodes)',
    ]);
  });
});

describe("kaas-kubernetes-end-of-support", () => {
  const NOW = new Date("2026-11-26T12:00:00.000Z");
  const policy = kaasKubernetesEndOfSupport(() => NOW);
  /** A running cluster's outputs, as the stack rule sees them. */
  const running = (overrides: Record<string, unknown> = {}) =>
    clusterProps({
      kubernetesVersion: "1.32.5",
      kaasId: "kaas-0001",
      currentKubernetesVersion: "1.32.5",
      kubernetesVersionEndOfSupportDate: "2026-06-30T00:00:00.000Z",
      pendingUpgrade: null,
      ...overrides,
    });
  const run = (props: Record<string, unknown>, config?: Record<string, unknown>) =>
    runStackPolicy(policy, [{ kind: "Kaas", name: "cluster", props }], { config });
  const PAST =
    'Kaas "cluster" kubernetesVersionEndOfSupportDate: Kubernetes 1.32.5, which the cluster runs (currentKubernetesVersion), reached its end of support on 2026-06-30; raise kubernetesVersion';

  it("refuses a cluster running a version past its end of support, on the cluster", async () => {
    expect(await run(running())).toEqual([{ message: PAST, urn: urnOf("Kaas", "cluster") }]);
  });

  it("counts the end of support as reached at its very instant", async () => {
    const atNow = running({ kubernetesVersionEndOfSupportDate: NOW.toISOString() });
    expect((await run(atNow)).map((r) => r.message)).toEqual([
      'Kaas "cluster" kubernetesVersionEndOfSupportDate: Kubernetes 1.32.5, which the cluster runs (currentKubernetesVersion), reached its end of support on 2026-11-26; raise kubernetesVersion',
    ]);
    const justAfter = running({ kubernetesVersionEndOfSupportDate: "2026-11-26T12:00:00.001Z" });
    expect(await run(justAfter)).toEqual([]);
  });

  it("refuses a version within the configured days of its end, and no earlier", async () => {
    // 2027-02-28 is 93.5 days after NOW.
    const soon = running({
      currentKubernetesVersion: "1.34.1",
      kubernetesVersion: "1.34.1",
      kubernetesVersionEndOfSupportDate: "2027-02-28T00:00:00.000Z",
    });
    expect(await run(soon)).toEqual([]);
    expect(await run(soon, { minDaysOfSupportLeft: 93 })).toEqual([]);
    expect((await run(soon, { minDaysOfSupportLeft: 94 })).map((r) => r.message)).toEqual([
      'Kaas "cluster" kubernetesVersionEndOfSupportDate: Kubernetes 1.34.1, which the cluster runs (currentKubernetesVersion), reaches its end of support on 2027-02-28, within 94 days (minDaysOfSupportLeft); raise kubernetesVersion',
    ]);
  });

  it("lets a cluster on its way off the version pass: a higher declared version or a scheduled upgrade", async () => {
    expect(await run(running({ kubernetesVersion: "1.34.1" }))).toEqual([]);
    expect(
      await run(running({ pendingUpgrade: { version: "1.34.1", scheduledAt: "2026-12-01T00:00:00Z" } })),
    ).toEqual([]);
    // An upgrade to the running version itself changes nothing.
    expect(await run(running({ pendingUpgrade: { version: "1.32.5", scheduledAt: null } }))).toEqual([
      { message: PAST, urn: urnOf("Kaas", "cluster") },
    ]);
  });

  it("judges only what the live outputs say", async () => {
    // At preview a cluster being created or updated has its inputs only.
    expect(await run(clusterProps({ kubernetesVersion: "1.32.5" }))).toEqual([]);
    expect(await run(running({ kubernetesVersionEndOfSupportDate: null }))).toEqual([]);
    expect(await run(running({ kubernetesVersionEndOfSupportDate: UNKNOWN.string }))).toEqual([]);
    expect(await run(running({ currentKubernetesVersion: UNKNOWN.string }))).toEqual([]);
    expect(await run(running({ kubernetesVersionEndOfSupportDate: "end of 2026" }))).toEqual([]);
    // A declared version not known yet does not excuse the running one.
    expect(await run(running({ kubernetesVersion: UNKNOWN.string }))).toEqual([
      { message: PAST, urn: urnOf("Kaas", "cluster") },
    ]);
  });

  it("judges every cluster of the stack and nothing else", async () => {
    const reported = await runStackPolicy(policy, [
      { kind: "Kaas", name: "blue", props: running() },
      {
        kind: "Registry",
        name: "images",
        props: { kubernetesVersionEndOfSupportDate: "2020-01-01T00:00:00Z" },
      },
      {
        kind: "Kaas",
        name: "green",
        props: running({ kubernetesVersionEndOfSupportDate: "2027-02-28T00:00:00.000Z" }),
      },
    ]);
    expect(reported.map((r) => r.urn)).toEqual([urnOf("Kaas", "blue")]);
  });
});
