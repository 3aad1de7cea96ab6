/**
 * `diff` of a Kaas: pure and table-driven. Create-only arguments replace, the rest update in place, node
 * pools are matched by name, HA disable and version downgrade are refused, unknown values never replace.
 */
import fc from "fast-check";
import { sameValue, type DiffResult } from "../../provider/common/diff";
import type { Inputs } from "../../provider/common/check";
import { UNKNOWN } from "../../provider/common/unknown";
import { diffKind } from "../../provider/common/describedProvider";
import { KAAS, RefusedChange } from "../../provider/kaas/descriptor";
import { computedOutputs, liveInputs } from "../../provider/kaas/mapping";
import type { NodePoolArgs } from "../../provider/kaas/types";
import {
  KUBECONFIG,
  autoscalerProfileArb,
  baselineInputs,
  checked,
  checkedKaasInputsArb,
  cidrArb,
  fixedPoolArb,
  identityArb,
  nodeCidrArb,
  pathsOf,
  responseFor,
  setAt,
  stateOf,
} from "./support/kaas-fixtures";

const REPLACE_FIELDS = [
  "projectId",
  "location",
  "preset",
  "vpcUri",
  "subnetUri",
  "nodeCidr",
  "podCidr",
  "securityGroupName",
  "identity",
  "autoscalerProfile",
] as const;
type ReplaceField = (typeof REPLACE_FIELDS)[number];
const IGNORED_FIELDS = ["adoptId", "adoptFromScope", "creationToken", "trackedId"];
const HA_REFUSED =
  "ha: cannot be disabled: the service cannot turn high availability off once enabled, and replacing the cluster would destroy it; keep ha: true";

const NO_CHANGE: DiffResult = { changes: false, replaces: [], updates: [] };
const update = (...fields: string[]): DiffResult => ({ changes: true, replaces: [], updates: fields });
const replace = (field: string): DiffResult => ({ changes: true, replaces: [field], updates: [field] });

const base = checked(baselineInputs());
const state = stateOf(base);
/** Outputs added after version 0.1.0: a state written by 0.1.0 has none of them. */
const NEWER_OUTPUTS = [
  "currentVpcUri",
  "currentSubnetUri",
  "currentPodCidr",
  "currentSecurityGroupName",
  "kubernetesVersionEndOfSupportDate",
  "kubernetesVersionRecommended",
  "clusterType",
  "disabledReasons",
  "failureReason",
];
const pools = base.nodePools as NodePoolArgs[];
const [system, workers] = pools;

/** The checked baseline with arguments replaced (`undefined` removes one). */
function news(patch: Inputs): Inputs {
  const inputs: Inputs = { ...base, ...patch };
  for (const [key, value] of Object.entries(patch)) if (value === undefined) delete inputs[key];
  return inputs;
}

/** The diff, or the refusal's message. */
function outcome(olds: Inputs, next: Inputs): DiffResult | { refused: string } {
  try {
    return diffKind(KAAS, olds, next);
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

/** The error `fn` throws (fails the test when it does not throw). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("diffKaas", () => {
  it("finds no change between the state and the inputs it was made from", () => {
    expect(diffKind(KAAS, state, base)).toStrictEqual(NO_CHANGE);
  });

  it.each<[ReplaceField, string, unknown]>([
    ["location", "moved to another region", "ITMI-Milano"],
    ["location", "removed", undefined],
    ["projectId", "moved to another project", "proj-2"],
    ["preset", "turned from true to false", false],
    ["vpcUri", "set", "/vpcs/v-1"],
    ["subnetUri", "set", "/subnets/s-1"],
    ["nodeCidr", "given another address", { address: "10.11.0.0/16", name: "prod-nodes" }],
    ["nodeCidr", "renamed", { address: "10.10.0.0/16", name: "other" }],
    ["podCidr", "given another range", "100.65.0.0/16"],
    ["podCidr", "removed", undefined],
    ["securityGroupName", "renamed", "other-sg"],
    ["identity", "given another client id", { clientId: "client-2", clientSecret: "s3cret" }],
    ["identity", "given another secret", { clientId: "client-1", clientSecret: "rotated" }],
    ["autoscalerProfile", "set", { expander: "random" }],
  ])("replaces the cluster when %s is %s", (field, _how, value) => {
    expect(diffKind(KAAS, state, news({ [field]: value }))).toStrictEqual(replace(field));
  });

  it("replaces when vpcUri changes from one VPC to another", () => {
    const olds = stateOf({ ...base, vpcUri: "/vpcs/v-1", subnetUri: "/subnets/s-1", preset: false });
    const next = { ...base, vpcUri: "/vpcs/v-2", subnetUri: "/subnets/s-1", preset: false };
    expect(diffKind(KAAS, olds, next)).toStrictEqual(replace("vpcUri"));
  });

  it("lists every replaced argument when several change", () => {
    expect(
      diffKind(KAAS, state, news({ location: "ITMI-Milano", podCidr: "100.65.0.0/16", name: "x" })),
    ).toStrictEqual({
      changes: true,
      replaces: ["location", "podCidr"],
      updates: ["name", "location", "podCidr"],
    });
  });

  it.each<[string, string, unknown]>([
    ["name", "renamed", "staging"],
    ["tags", "changed", ["team-b"]],
    ["tags", "reordered", ["env-prod", "team-a"]],
    ["tags", "removed", undefined],
    ["billingPeriod", "changed", "Year"],
    ["billingPeriod", "removed", undefined],
    ["maxCumulativeVolumeSize", "raised", 900],
    ["maxCumulativeVolumeSize", "removed", undefined],
    ["authorizedIpRanges", "changed", ["198.51.100.0/24"]],
    ["authorizedIpRanges", "removed", undefined],
    ["enablePrivateCluster", "turned on", true],
    ["upgradeDate", "set", "2026-07-01T02:00:00Z"],
    ["deleteOnCascade", "set", true],
    ["timeouts", "set", { create: "1h" }],
    ["ha", "turned on (false -> true)", true],
    ["kubernetesVersion", "raised", "1.34.0"],
  ])("updates in place when %s is %s", (field, _how, value) => {
    expect(diffKind(KAAS, state, news({ [field]: value }))).toStrictEqual(update(field));
  });

  it("updates in place when ha goes from absent to true", () => {
    const olds = stateOf(news({ ha: undefined }));
    expect(diffKind(KAAS, olds, news({ ha: true }))).toStrictEqual(update("ha"));
  });

  it.each<[string, unknown]>([
    ["adoptId", "kaas-7"],
    ["adoptFromScope", "shop/dev/old"],
    ["creationToken", "0123456789abcdef0123"],
    ["trackedId", "kaas-0009"],
  ])("ignores a change of the bookkeeping argument %s", (field, value) => {
    expect(diffKind(KAAS, state, news({ [field]: value }))).toStrictEqual(NO_CHANGE);
  });

  it("updates in place when the scope changed (a renamed stack or project): the owner tag follows", () => {
    expect(diffKind(KAAS, state, news({ creationScope: "shop/prod/prod" }))).toStrictEqual(
      update("creationScope"),
    );
    expect(diffKind(KAAS, state, news({ creationScope: "web/dev/prod" }))).toStrictEqual(
      update("creationScope"),
    );
  });

  it("sees no change of scope in a state written without one, nor while the new one is unknown", () => {
    expect(diffKind(KAAS, stateOf(news({ creationScope: undefined })), base)).toStrictEqual(NO_CHANGE);
    expect(diffKind(KAAS, state, news({ creationScope: UNKNOWN }))).toStrictEqual(NO_CHANGE);
  });

  it.each<[string, Inputs, Inputs]>([
    ["ha false -> absent", state, news({ ha: undefined })],
    ["ha absent -> false", stateOf(news({ ha: undefined })), base],
    ["podCidr null -> absent", stateOf(news({ podCidr: null })), news({ podCidr: undefined })],
    [
      "a pool's autoscaling false made explicit",
      state,
      news({ nodePools: [{ ...system, autoscaling: false }, workers] }),
    ],
    ["the pools reordered", state, news({ nodePools: [workers, system] })],
    ["the computed outputs changed", { ...state, state: "Updating", managementIp: null }, base],
    [
      "the state predates the outputs added in later versions and still holds node ids",
      {
        ...Object.fromEntries(Object.entries(state).filter(([k]) => !NEWER_OUTPUTS.includes(k))),
        currentNodePools: (state.currentNodePools as object[]).map((p) => ({ ...p, nodeIds: ["n-1"] })),
      },
      base,
    ],
    [
      "a refresh read zones answered by display name only",
      {
        ...liveInputs(base, responseFor(base, { dataCenter: "name" })),
        ...computedOutputs(responseFor(base, { dataCenter: "name" }), KUBECONFIG),
      },
      base,
    ],
    [
      "the platform upgraded above the declared version",
      stateOf(base, responseFor(base, { liveVersion: "1.34.1" })),
      base,
    ],
    [
      "an autoscaling pool's live count moved within its bounds",
      stateOf(base, responseFor(base, { liveNodes: { workers: 9 } })),
      base,
    ],
  ])("finds no change when %s", (_title, olds, next) => {
    expect(diffKind(KAAS, olds, next)).toStrictEqual(NO_CHANGE);
  });

  it.each<[string, NodePoolArgs[]]>([
    ["a pool is added", [...pools, { name: "gpu", nodes: 1, instance: "K8A16", dataCenter: "ITBG-3" }]],
    ["a pool is removed", [system]],
    ["a pool is resized", [{ ...system, nodes: 5 }, workers]],
    ["a pool is resized and the pools reordered", [workers, { ...system, nodes: 5 }]],
    ["a pool changes flavour", [{ ...system, instance: "K8A16" }, workers]],
    ["a pool moves zone", [{ ...system, dataCenter: "ITBG-3" }, workers]],
    ["a pool starts autoscaling", [{ ...system, autoscaling: true, minCount: 1, maxCount: 5 }, workers]],
    [
      "a pool stops autoscaling",
      [system, { name: "workers", nodes: 4, instance: "K8A16", dataCenter: "ITBG-2" }],
    ],
    ["an autoscaling pool's bounds change", [system, { ...workers, maxCount: 20 }]],
    ["a pool is renamed", [{ ...system, name: "core" }, workers]],
    [
      "the pools are swapped for others of the same count",
      [
        { ...workers, name: "a" },
        { ...system, name: "b" },
      ],
    ],
  ])("updates the node pools in place, never replacing, when %s", (_title, nextPools) => {
    expect(diffKind(KAAS, state, news({ nodePools: nextPools }))).toStrictEqual(update("nodePools"));
  });

  it("matches pools by name, not position: same position, different pool, is a change", () => {
    const olds = stateOf(news({ nodePools: [system, workers] }));
    const next = news({ nodePools: [system, { ...workers, nodes: 5 }] });
    expect(diffKind(KAAS, olds, next)).toStrictEqual(update("nodePools"));
    expect(diffKind(KAAS, olds, news({ nodePools: [{ ...workers }, { ...system }] }))).toStrictEqual(
      NO_CHANGE,
    );
  });

  it("reports several in-place changes together", () => {
    const next = news({ tags: [], ha: true, kubernetesVersion: "1.34.0", nodePools: [system] });
    expect(diffKind(KAAS, state, next)).toStrictEqual(update("tags", "ha", "kubernetesVersion", "nodePools"));
  });

  describe("refusals", () => {
    const haState = stateOf(news({ ha: true }));

    it.each<[string, unknown]>([
      ["false", false],
      ["absent", undefined],
    ])("refuses ha true -> %s with a RefusedChange naming ha", (_title, ha) => {
      const error = thrown(() => diffKind(KAAS, haState, news({ ha })));
      expect(error).toBeInstanceOf(RefusedChange);
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({ name: "RefusedChange", property: "ha", message: HA_REFUSED });
    });

    it("refuses ha true -> false even when a replacing argument changes too", () => {
      expect(outcome(haState, news({ ha: false, location: "ITMI-Milano" }))).toEqual({ refused: HA_REFUSED });
    });

    it.each<[string, string | null, string, string]>([
      // [declared, live (currentKubernetesVersion), new declared, version named as current]
      ["1.33.2", "1.33.2", "1.32.9", "1.33.2"],
      ["1.33.2", "1.33.2", "1.33.1", "1.33.2"],
      ["1.33.2", "1.33.2", "1.33", "1.33.2"],
      ["1.33.2", "1.34.1", "1.34.0", "1.34.1"],
      ["1.33.2", "1.34.1", "1.33.9", "1.34.1"],
      ["1.33.2", null, "1.33.1", "1.33.2"],
    ])("refuses declared %s (live %s) -> %s, naming %s as the current version", (from, live, to, current) => {
      const olds = { ...stateOf(news({ kubernetesVersion: from })), currentKubernetesVersion: live };
      const error = thrown(() => diffKind(KAAS, olds, news({ kubernetesVersion: to })));
      expect(error).toBeInstanceOf(RefusedChange);
      expect(error).toMatchObject({
        name: "RefusedChange",
        property: "kubernetesVersion",
        message: `kubernetesVersion: cannot go down from ${current} to ${to}: the service does not downgrade clusters`,
      });
    });

    it.each<[string, string, string]>([
      ["1.33.2", "1.34.1", "1.34.2"],
      ["1.33.2", "1.34.1", "1.34.1"],
      ["1.33.2", "1.34.1", "1.35"],
      ["1.33.2", "1.33.2", "1.33.10"],
    ])("updates declared %s (live %s) -> %s in place", (from, live, to) => {
      const olds = { ...stateOf(news({ kubernetesVersion: from })), currentKubernetesVersion: live };
      expect(diffKind(KAAS, olds, news({ kubernetesVersion: to }))).toStrictEqual(
        update("kubernetesVersion"),
      );
    });
  });

  describe("unknown values", () => {
    it.each(REPLACE_FIELDS)("an unknown %s is an update, not a replacement", (field) => {
      expect(diffKind(KAAS, state, news({ [field]: UNKNOWN }))).toStrictEqual(update(field));
    });

    it.each<[string, Inputs]>([
      ["nodeCidr.address", news({ nodeCidr: { address: UNKNOWN, name: "prod-nodes" } })],
      ["identity.clientSecret", news({ identity: { clientId: "client-1", clientSecret: UNKNOWN } })],
    ])("an unknown nested %s is an update, not a replacement", (_title, next) => {
      expect(diffKind(KAAS, state, next).replaces).toEqual([]);
      expect(diffKind(KAAS, state, next).changes).toBe(true);
    });

    it.each<[string, Inputs]>([
      ["ha", news({ ha: UNKNOWN })],
      ["kubernetesVersion", news({ kubernetesVersion: UNKNOWN })],
      ["nodePools", news({ nodePools: UNKNOWN })],
      ["nodePools", news({ nodePools: [system, { ...workers, nodes: UNKNOWN }] })],
      ["nodePools", news({ nodePools: [UNKNOWN] })],
      ["nodePools", news({ nodePools: [{ ...system, autoscaling: UNKNOWN }, workers] })],
      ["nodePools", news({ nodePools: [{ ...system, minCount: UNKNOWN }, workers] })],
    ])("an unknown %s is an update", (field, next) => {
      expect(diffKind(KAAS, state, next)).toStrictEqual(update(field));
    });

    it("an unknown ha is not refused even when ha was true", () => {
      expect(diffKind(KAAS, stateOf(news({ ha: true })), news({ ha: UNKNOWN }))).toStrictEqual(update("ha"));
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Properties.

const replaceValueArbs: Record<ReplaceField, fc.Arbitrary<unknown>> = {
  projectId: fc.constantFrom("proj-1", "proj-2", "proj-3"),
  location: fc.constantFrom("ITBG-Bergamo", "ITMI-Milano", "ITAR-Arezzo"),
  preset: fc.boolean(),
  vpcUri: fc.integer({ min: 1, max: 99 }).map((n) => `/vpcs/vpc-${n}`),
  subnetUri: fc.integer({ min: 1, max: 99 }).map((n) => `/subnets/sn-${n}`),
  nodeCidr: nodeCidrArb,
  podCidr: cidrArb,
  securityGroupName: fc.constantFrom("sg-a", "sg-b"),
  identity: identityArb,
  autoscalerProfile: autoscalerProfileArb,
};

/** Pools sorted by name with `autoscaling` defaulted: what "the same pools" means. */
function poolSet(list: NodePoolArgs[]): unknown {
  return [...list]
    .map((p) => ({ ...p, autoscaling: p.autoscaling === true }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const permutationOf = <T>(items: T[]): fc.Arbitrary<T[]> =>
  fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });

/** Each pool kept, dropped, resized or moved, plus up to two new pools. */
function editedPoolsArb(list: NodePoolArgs[]): fc.Arbitrary<NodePoolArgs[]> {
  const names = new Set(list.map((p) => p.name));
  const edits = list.map((pool) =>
    fc.oneof(
      fc.constant([pool]),
      fc.constant([]),
      (pool.autoscaling
        ? fc.integer({ min: pool.minCount!, max: pool.maxCount! })
        : fc.integer({ min: 1, max: 50 })
      ).map((nodes) => [{ ...pool, nodes }]),
      fc.constantFrom("ITBG-1", "ITBG-2", "ITBG-3").map((dataCenter) => [{ ...pool, dataCenter }]),
    ),
  );
  const added = fc
    .uniqueArray(fixedPoolArb, { selector: (p) => p.name, maxLength: 2 })
    .map((extra) => extra.filter((p) => !names.has(p.name)));
  return fc.tuple(fc.tuple(...edits), added).map(([kept, extra]) => [...kept.flat(), ...extra]);
}

describe("diffKaas properties", () => {
  it("diff(state(x), x) has no change for any valid x", () => {
    fc.assert(
      fc.property(checkedKaasInputsArb, (x) => {
        expect(diffKind(KAAS, stateOf(x), x)).toStrictEqual(NO_CHANGE);
      }),
    );
  });

  it("any change to a replacing argument is in replaces, and only it", () => {
    const change = fc
      .constantFrom(...REPLACE_FIELDS)
      .chain((field) => fc.tuple(fc.constant(field), fc.option(replaceValueArbs[field], { nil: undefined })));
    fc.assert(
      fc.property(checkedKaasInputsArb, change, (x, [field, value]) => {
        fc.pre(!sameValue(x[field], value));
        const next = { ...x, [field]: value };
        expect(diffKind(KAAS, stateOf(x), next)).toStrictEqual(replace(field));
      }),
    );
  });

  it("an unknown value at any path never causes a replacement by itself", () => {
    const withPath = checkedKaasInputsArb.chain((x) =>
      fc.tuple(fc.constant(x), fc.constantFrom(...pathsOf(x))),
    );
    fc.assert(
      fc.property(withPath, ([x, path]) => {
        const top = path[0] as string;
        const result = diffKind(KAAS, stateOf(x), setAt(x, path, UNKNOWN));
        // The scope is compared only once known (`scopeRenamed`).
        const ignored = IGNORED_FIELDS.includes(top) || top === "creationScope";
        expect(result).toStrictEqual(ignored ? NO_CHANGE : update(top));
      }),
    );
  });

  it("changes is always a boolean that says whether anything changed, and replaces are among the updates", () => {
    fc.assert(
      fc.property(checkedKaasInputsArb, checkedKaasInputsArb, (x, y) => {
        const result = outcome(stateOf(x), y);
        if ("refused" in result) return;
        expect(typeof result.changes).toBe("boolean");
        expect(result.changes).toBe(result.updates.length > 0);
        for (const field of result.replaces) expect(result.updates).toContain(field);
      }),
    );
  });

  it("adding, removing, resizing or moving pools is an in-place update exactly when the pools differ by name", () => {
    const edited = checkedKaasInputsArb.chain((x) =>
      fc.tuple(fc.constant(x), editedPoolsArb(x.nodePools as NodePoolArgs[])),
    );
    fc.assert(
      fc.property(edited, ([x, nextPools]) => {
        const differs = !sameValue(poolSet(x.nodePools as NodePoolArgs[]), poolSet(nextPools));
        expect(diffKind(KAAS, stateOf(x), { ...x, nodePools: nextPools })).toStrictEqual(
          differs ? update("nodePools") : NO_CHANGE,
        );
      }),
    );
  });

  it("permuting the pool order (in state or inputs) never changes the result", () => {
    const scenario = fc
      .tuple(checkedKaasInputsArb, checkedKaasInputsArb)
      .chain(([x, y]) =>
        editedPoolsArb(x.nodePools as NodePoolArgs[]).chain((nextPools) =>
          fc.tuple(
            fc.constant(x),
            fc.constant({ ...y, nodePools: nextPools }),
            permutationOf(x.nodePools as NodePoolArgs[]),
            permutationOf(nextPools),
          ),
        ),
      );
    fc.assert(
      fc.property(scenario, ([x, next, oldOrder, newOrder]) => {
        const expected = outcome(stateOf(x), next);
        expect(outcome({ ...stateOf(x), nodePools: oldOrder }, { ...next, nodePools: newOrder })).toEqual(
          expected,
        );
      }),
    );
  });

  it("an autoscaling pool's live count moving within its bounds is not a change, also after refresh", () => {
    const scenario = checkedKaasInputsArb.chain((x) => {
      const autoscaling = (x.nodePools as NodePoolArgs[]).filter((p) => p.autoscaling === true);
      const counts = fc.tuple(...autoscaling.map((p) => fc.integer({ min: p.minCount!, max: p.maxCount! })));
      return fc.tuple(
        fc.constant(x),
        counts.map((n) => Object.fromEntries(autoscaling.map((p, i) => [p.name, n[i]]))),
      );
    });
    fc.assert(
      fc.property(scenario, ([x, liveNodes]) => {
        const response = responseFor(x, { liveNodes });
        expect(diffKind(KAAS, stateOf(x, response), x)).toStrictEqual(NO_CHANGE);
        const refreshed = { ...liveInputs(x, response), ...computedOutputs(response, KUBECONFIG) };
        expect(diffKind(KAAS, refreshed, x)).toStrictEqual(NO_CHANGE);
      }),
    );
  });

  it("an autoscaling pool's live count outside its bounds is a pool update after refresh", () => {
    const scenario = checkedKaasInputsArb
      .filter((x) => (x.nodePools as NodePoolArgs[]).some((p) => p.autoscaling === true))
      .chain((x) => {
        const pool = (x.nodePools as NodePoolArgs[]).find((p) => p.autoscaling === true)!;
        const outside =
          pool.minCount! > 0
            ? fc.oneof(
                fc.integer({ min: 0, max: pool.minCount! - 1 }),
                fc.integer({ min: pool.maxCount! + 1, max: 1000 }),
              )
            : fc.integer({ min: pool.maxCount! + 1, max: 1000 });
        return fc.tuple(fc.constant(x), fc.constant(pool.name), outside);
      });
    fc.assert(
      fc.property(scenario, ([x, name, count]) => {
        const response = responseFor(x, { liveNodes: { [name]: count } });
        const refreshed = { ...liveInputs(x, response), ...computedOutputs(response, KUBECONFIG) };
        expect(diffKind(KAAS, refreshed, x)).toStrictEqual(update("nodePools"));
      }),
    );
  });
});
