/**
 * Kaas wire mapping: the insert body, the update plan (cluster PUT and node pool PUTs), the computed
 * outputs of a service answer in its spelling variants, and the inputs refreshed from a live cluster.
 */
import fc from "fast-check";
import {
  KaasInsert,
  KaasUpdate,
  NodePoolUpdate,
  validateSchema,
  type KaasResponse,
  type NodePoolResponse,
} from "../../schemas";
import type { Inputs } from "../../provider/common/check";
import {
  computedOutputs,
  insertBody,
  liveInputs,
  updatePlan,
  type UpdatePlan,
} from "../../provider/kaas/mapping";
import type { CheckedKaasInputs, NodePoolArgs } from "../../provider/kaas/types";
import { KAAS_COMPUTED_OUTPUTS } from "../support/output-names";
import {
  KUBECONFIG,
  baselineInputs,
  checked,
  checkedKaasInputsArb,
  fullInputs,
  responseFor,
  undefinedPaths,
  versionArb,
  withArguments,
} from "./support/kaas-fixtures";
import { expectedCreationTag, expectedCreationToken, expectedOwnerTag } from "../support/creation-token";

const base = checked(baselineInputs());
/** The tags of the baseline's scope, `shop/dev/prod`, with no backend (the check context has none). */
const CREATION_TAG = expectedCreationTag("shop/dev/prod");
const OWNER_TAG = expectedOwnerTag("shop/dev/prod");
const [system, workers] = base.nodePools as NodePoolArgs[];
const SYSTEM_REQUEST = {
  name: "system",
  nodes: 3,
  instance: "K4A8",
  dataCenter: "ITBG-1",
  autoscaling: false,
};
const WORKERS_REQUEST = {
  name: "workers",
  nodes: 4,
  instance: "K8A16",
  dataCenter: "ITBG-2",
  autoscaling: true,
  minCount: 2,
  maxCount: 10,
};
/** The metadata of an update: the user tags and the owner tag, never the creation tag. */
const METADATA = {
  name: "prod",
  location: { value: "ITBG-Bergamo" },
  tags: ["team-a", "env-prod", OWNER_TAG],
};
/** The metadata of the create request: the user tags, then the creation tag, then the owner tag. */
const INSERT_METADATA = { ...METADATA, tags: ["team-a", "env-prod", CREATION_TAG, OWNER_TAG] };
const NOTHING: UpdatePlan = { cluster: undefined, pools: [] };

/** The checked baseline with arguments replaced (`undefined` removes one). */
function news(patch: Inputs, from: CheckedKaasInputs = base): CheckedKaasInputs {
  return withArguments(from, patch);
}

/** Every body of a plan passes its wire schema. */
function expectPlanMatchesSchemas(plan: UpdatePlan): void {
  if (plan.cluster) expect(validateSchema(KaasUpdate, plan.cluster)).toEqual([]);
  for (const pool of plan.pools) expect(validateSchema(NodePoolUpdate, pool.body)).toEqual([]);
}

describe("insertBody", () => {
  it("builds the exact body of the baseline, with the creation and owner tags appended and identity passed through", () => {
    const body = insertBody(base);
    expect(body).toStrictEqual({
      metadata: INSERT_METADATA,
      properties: {
        preset: true,
        nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
        podCidr: "100.64.0.0/16",
        securityGroup: { name: "prod-sg" },
        kubernetesVersion: { value: "1.33.2" },
        nodePools: [SYSTEM_REQUEST, WORKERS_REQUEST],
        ha: false,
        storage: { maxCumulativeVolumeSize: 500 },
        billingPlan: { billingPeriod: "Month" },
        identity: { clientId: "client-1", clientSecret: "s3cret" },
        apiServerAccessProfile: { authorizedIpRanges: ["203.0.113.0/24"], enablePrivateCluster: false },
      },
    });
    expect(undefinedPaths(body)).toEqual([]);
    expect(validateSchema(KaasInsert, body)).toEqual([]);
  });

  it("sends the VPC, subnet and autoscaler profile, never the upgrade date or provider-only arguments", () => {
    const full = checked(fullInputs());
    const body = insertBody(full);
    expect(full.creationToken).toBe(expectedCreationToken("shop/dev/prod"));
    expect(body.metadata).toStrictEqual(INSERT_METADATA);
    expect(body.properties).toStrictEqual({
      preset: false,
      vpc: { uri: "/projects/proj-1/providers/Vendor.Network/vpcs/vpc-1" },
      subnet: { uri: "/projects/proj-1/providers/Vendor.Network/vpcs/vpc-1/subnets/sn-1" },
      nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
      podCidr: "10.244.0.0/16",
      securityGroup: { name: "prod-sg" },
      kubernetesVersion: { value: "1.33.2" },
      nodePools: [SYSTEM_REQUEST, WORKERS_REQUEST],
      ha: false,
      storage: { maxCumulativeVolumeSize: 500 },
      billingPlan: { billingPeriod: "Month" },
      identity: { clientId: "client-1", clientSecret: "s3cret" },
      autoscalerProfile: { "scale-down-delay-after-add": "10m", expander: "least-waste" },
      apiServerAccessProfile: { authorizedIpRanges: ["203.0.113.0/24"], enablePrivateCluster: false },
    });
    expect(validateSchema(KaasInsert, body)).toEqual([]);
  });

  it("sends only what is set for minimal inputs without a scope: no tags but the creation tag, no owner tag, no optional objects", () => {
    const minimal = checked({
      name: "mini",
      location: "ITBG-Bergamo",
      nodeCidr: { address: "192.168.0.0/24", name: "mini-nodes" },
      kubernetesVersion: "1.33",
      nodePools: [{ name: "p", nodes: 1, instance: "K2A4", dataCenter: "ITBG-1" }],
    });
    const body = insertBody(minimal);
    expect(body).toStrictEqual({
      metadata: {
        name: "mini",
        location: { value: "ITBG-Bergamo" },
        tags: [expectedCreationTag("")],
      },
      properties: {
        preset: true,
        nodeCidr: { address: "192.168.0.0/24", name: "mini-nodes" },
        kubernetesVersion: { value: "1.33" },
        nodePools: [{ name: "p", nodes: 1, instance: "K2A4", dataCenter: "ITBG-1", autoscaling: false }],
      },
    });
    expect(validateSchema(KaasInsert, body)).toEqual([]);
  });

  it.each<[string, Inputs, unknown]>([
    [
      "only authorizedIpRanges",
      { authorizedIpRanges: ["198.51.100.0/24"], enablePrivateCluster: undefined },
      {
        authorizedIpRanges: ["198.51.100.0/24"],
        enablePrivateCluster: false,
      },
    ],
    [
      "only enablePrivateCluster",
      { authorizedIpRanges: undefined, enablePrivateCluster: true },
      {
        enablePrivateCluster: true,
      },
    ],
    ["neither", { authorizedIpRanges: undefined, enablePrivateCluster: undefined }, undefined],
  ])("builds the API server access profile from %s", (_title, patch, expected) => {
    expect(insertBody(news(patch)).properties.apiServerAccessProfile).toStrictEqual(expected);
  });

  it("sends an identity with only a client id as such", () => {
    expect(insertBody(news({ identity: { clientId: "c-9" } })).properties.identity).toStrictEqual({
      clientId: "c-9",
    });
  });

  it("produces a schema-valid body without undefined for any valid inputs", () => {
    fc.assert(
      fc.property(checkedKaasInputsArb, (x) => {
        const body = insertBody(x);
        expect(undefinedPaths(body)).toEqual([]);
        expect(validateSchema(KaasInsert, body)).toEqual([]);
        const scope = x.creationScope;
        expect(body.metadata.tags).toEqual([
          ...((x.tags as string[] | undefined) ?? []),
          expectedCreationTag(scope ?? ""),
          ...(scope === undefined ? [] : [expectedOwnerTag(scope)]),
        ]);
      }),
    );
  });
});

describe("updatePlan", () => {
  const plan = (next: CheckedKaasInputs, live: string | null = "1.33.2", olds: CheckedKaasInputs = base) => {
    const result = updatePlan(olds, next, live);
    expectPlanMatchesSchemas(result);
    return result;
  };

  it.each<[string, CheckedKaasInputs]>([
    ["nothing changed", base],
    ["only the pool order changed", news({ nodePools: [workers, system] })],
    [
      "only deleteOnCascade and timeouts changed",
      news({ deleteOnCascade: true, timeouts: { update: "1h" } }),
    ],
    ["only the billing period was removed", news({ billingPeriod: undefined })],
    ["ha stays off (false -> absent)", news({ ha: undefined })],
  ])("sends nothing when %s", (_title, next) => {
    expect(plan(next)).toStrictEqual(NOTHING);
  });

  it("sends only metadata for a tags-only change, with the owner tag and without the creation tag", () => {
    expect(plan(news({ tags: ["team-a"] }))).toStrictEqual({
      cluster: { metadata: { ...METADATA, tags: ["team-a", OWNER_TAG] }, properties: {} },
      pools: [],
    });
  });

  it("sends only metadata for a rename", () => {
    expect(plan(news({ name: "production" }))).toStrictEqual({
      cluster: { metadata: { ...METADATA, name: "production" }, properties: {} },
      pools: [],
    });
  });

  it("omits location from the metadata when it is absent", () => {
    const olds = news({ location: undefined });
    expect(plan(news({ tags: [] }, olds), "1.33.2", olds)).toStrictEqual({
      cluster: { metadata: { name: "prod", tags: [OWNER_TAG] }, properties: {} },
      pools: [],
    });
  });

  it.each<[string, NodePoolArgs[], string, unknown]>([
    ["a resize", [{ ...system, nodes: 5 }, workers], "system", { nodes: 5 }],
    ["a resize of an autoscaling pool", [system, { ...workers, nodes: 6 }], "workers", { nodes: 6 }],
    ["a flavour change", [{ ...system, instance: "K8A16" }, workers], "system", { instance: "K8A16" }],
    [
      "a resize and flavour change",
      [{ ...system, nodes: 4, instance: "K2A4" }, workers],
      "system",
      { instance: "K2A4", nodes: 4 },
    ],
    [
      "autoscaling turned on",
      [{ ...system, autoscaling: true, minCount: 1, maxCount: 5 }, workers],
      "system",
      { autoscaling: true, minNode: 1, maxNode: 5 },
    ],
    ["a new upper bound", [system, { ...workers, maxCount: 20 }], "workers", { maxNode: 20 }],
    ["a new lower bound", [system, { ...workers, minCount: 1 }], "workers", { minNode: 1 }],
  ])("updates one pool through the pool endpoint for %s", (_title, nextPools, name, properties) => {
    expect(plan(news({ nodePools: nextPools }))).toStrictEqual({
      cluster: undefined,
      pools: [{ name, body: { properties } }],
    });
  });

  it("turns autoscaling off through the pool endpoint with null bounds", () => {
    const fixed = { name: "workers", nodes: 4, instance: "K8A16", dataCenter: "ITBG-2" };
    expect(plan(news({ nodePools: [system, fixed] }))).toStrictEqual({
      cluster: undefined,
      pools: [
        { name: "workers", body: { properties: { autoscaling: false, minNode: null, maxNode: null } } },
      ],
    });
  });

  it("updates every changed pool, one request each, in the declared order", () => {
    expect(
      plan(
        news({
          nodePools: [
            { ...workers, nodes: 8 },
            { ...system, nodes: 1 },
          ],
        }),
      ),
    ).toStrictEqual({
      cluster: undefined,
      pools: [
        { name: "workers", body: { properties: { nodes: 8 } } },
        { name: "system", body: { properties: { nodes: 1 } } },
      ],
    });
  });

  it("sends metadata and the pool update together when tags and a pool size change", () => {
    expect(plan(news({ tags: [], nodePools: [{ ...system, nodes: 2 }, workers] }))).toStrictEqual({
      cluster: { metadata: { ...METADATA, tags: [OWNER_TAG] }, properties: {} },
      pools: [{ name: "system", body: { properties: { nodes: 2 } } }],
    });
  });

  const GPU = { name: "gpu", nodes: 1, instance: "K8A16", dataCenter: "ITBG-3" };
  it.each<[string, NodePoolArgs[], unknown[]]>([
    [
      "a pool is added",
      [system, workers, GPU],
      [SYSTEM_REQUEST, WORKERS_REQUEST, { ...GPU, autoscaling: false }],
    ],
    ["a pool is removed", [workers], [WORKERS_REQUEST]],
    [
      "a pool is renamed",
      [{ ...system, name: "core" }, workers],
      [{ ...SYSTEM_REQUEST, name: "core" }, WORKERS_REQUEST],
    ],
    [
      "a pool moves to another zone",
      [{ ...system, dataCenter: "ITBG-3" }, workers],
      [{ ...SYSTEM_REQUEST, dataCenter: "ITBG-3" }, WORKERS_REQUEST],
    ],
    [
      "a pool moves zone while another is resized",
      [
        { ...system, dataCenter: "ITBG-3" },
        { ...workers, nodes: 9 },
      ],
      [
        { ...SYSTEM_REQUEST, dataCenter: "ITBG-3" },
        { ...WORKERS_REQUEST, nodes: 9 },
      ],
    ],
  ])("sends the full pool list in the cluster update when %s", (_title, nextPools, expected) => {
    expect(plan(news({ nodePools: nextPools }))).toStrictEqual({
      cluster: { metadata: METADATA, properties: { nodePools: expected } },
      pools: [],
    });
  });

  const scheduled = news({ kubernetesVersion: "1.34.1", upgradeDate: "2026-07-01T02:00:00Z" });
  it.each<[string, CheckedKaasInputs, CheckedKaasInputs, string | null, unknown]>([
    [
      "an upgrade scheduled at upgradeDate",
      base,
      scheduled,
      "1.33.2",
      { value: "1.34.1", upgradeDate: "2026-07-01T02:00:00Z" },
    ],
    ["an immediate upgrade", base, news({ kubernetesVersion: "1.34.1" }), "1.33.2", { value: "1.34.1" }],
    [
      "an upgrade while the live version is unknown",
      base,
      news({ kubernetesVersion: "1.34.1" }),
      null,
      { value: "1.34.1" },
    ],
    [
      "a new date for a version not reached yet",
      scheduled,
      news({ upgradeDate: "2026-08-01T02:00:00Z" }, scheduled),
      "1.33.2",
      { value: "1.34.1", upgradeDate: "2026-08-01T02:00:00Z" },
    ],
    [
      "a removed date for a version not reached yet (upgrade now)",
      scheduled,
      news({ upgradeDate: undefined }, scheduled),
      "1.33.2",
      { value: "1.34.1" },
    ],
  ])("sends kubernetesVersion for %s", (_title, olds, next, live, expected) => {
    expect(plan(next, live, olds)).toStrictEqual({
      cluster: { metadata: METADATA, properties: { kubernetesVersion: expected } },
      pools: [],
    });
  });

  it.each<[string, string]>([
    ["the platform already runs the declared version", "1.34.0"],
    ["the platform already runs a higher version", "1.34.2"],
  ])("sends no kubernetesVersion when %s", (_title, live) => {
    expect(plan(news({ kubernetesVersion: "1.34.0" }), live)).toStrictEqual(NOTHING);
  });

  it.each<[string, CheckedKaasInputs, unknown]>([
    ["HA enabled", news({ ha: true }), { ha: true }],
    [
      "the storage cap raised",
      news({ maxCumulativeVolumeSize: 900 }),
      { storage: { maxCumulativeVolumeSize: 900 } },
    ],
    [
      "the storage cap removed",
      news({ maxCumulativeVolumeSize: undefined }),
      { storage: { maxCumulativeVolumeSize: null } },
    ],
    [
      "the billing period changed",
      news({ billingPeriod: "Year" }),
      { billingPlan: { billingPeriod: "Year" } },
    ],
    [
      "the authorized ranges removed",
      news({ authorizedIpRanges: undefined }),
      { apiServerAccessProfile: { authorizedIpRanges: null, enablePrivateCluster: false } },
    ],
    [
      "the cluster made private",
      news({ enablePrivateCluster: true }),
      { apiServerAccessProfile: { authorizedIpRanges: ["203.0.113.0/24"], enablePrivateCluster: true } },
    ],
  ])("sends exactly the changed property for %s", (_title, next, properties) => {
    expect(plan(next)).toStrictEqual({ cluster: { metadata: METADATA, properties }, pools: [] });
  });

  it("combines several changed properties in one cluster update", () => {
    const next = news({ ha: true, billingPeriod: "Hour", kubernetesVersion: "1.34.0", tags: ["x"] });
    expect(plan(next)).toStrictEqual({
      cluster: {
        metadata: { ...METADATA, tags: ["x", OWNER_TAG] },
        properties: {
          kubernetesVersion: { value: "1.34.0" },
          ha: true,
          billingPlan: { billingPeriod: "Hour" },
        },
      },
      pools: [],
    });
  });

  it("produces schema-valid bodies without undefined for any pair of valid inputs", () => {
    fc.assert(
      fc.property(
        checkedKaasInputsArb,
        checkedKaasInputsArb,
        fc.option(versionArb, { nil: null }),
        (x, y, live) => {
          const result = updatePlan(x, y, live);
          expectPlanMatchesSchemas(result);
          expect(undefinedPaths(result.cluster ?? {})).toEqual([]);
          expect(undefinedPaths(result.pools)).toEqual([]);
        },
      ),
    );
  });

  it("sends the owner tag of the new inputs' scope and never a creation tag in any update", () => {
    fc.assert(
      fc.property(checkedKaasInputsArb, checkedKaasInputsArb, versionArb, (x, y, live) => {
        const tags = updatePlan(x, y, live).cluster?.metadata?.tags;
        if (tags === undefined) return;
        const scope = y.creationScope;
        expect(tags).toEqual([
          ...((y.tags as string[] | undefined) ?? []),
          ...(scope === undefined ? [] : [expectedOwnerTag(scope)]),
        ]);
      }),
    );
  });

  it("sends nothing for inputs that did not change", () => {
    fc.assert(
      fc.property(checkedKaasInputsArb, versionArb, (x, live) => {
        expect(updatePlan(x, x, live)).toStrictEqual(NOTHING);
      }),
    );
  });
});

type UpgradeTo = NonNullable<KaasResponse["properties"]["kubernetesVersion"]>["upgradeTo"];

/** A response with the spelling variants: `nodesPool`, `dataCenter` by name or code, no uri, status dates. */
function variantResponse(): KaasResponse {
  const pools: NodePoolResponse[] = [
    { name: "a", nodes: 2, instance: { name: "K2A4" }, dataCenter: { name: "ITBG-1" } },
    {
      name: "b",
      nodes: null,
      autoscaling: true,
      minCount: 1,
      maxCount: 3,
      instance: null,
      dataCenter: { code: "ITBG-2", name: "Bergamo 2" },
    },
  ];
  return {
    metadata: { id: "kaas-2", name: "prod", tags: ["pulumi-ct-abc"] },
    status: { state: "Updating", creationDate: "2026-05-02T00:00:00Z" },
    properties: {
      nodesPool: pools,
      kubernetesVersion: {
        value: "1.33.2",
        upgradeTo: { value: "1.34.1", scheduledAt: "2026-07-01T02:00:00Z" },
      },
      billingPlan: { billingPeriod: "hourly" },
      nodecidr: { address: "10.10.0.0/16", name: "prod-nodes" },
    },
    data: { private: { phase: null } },
  };
}

describe("computedOutputs", () => {
  it("maps a complete answer exactly", () => {
    expect(computedOutputs(responseFor(base), KUBECONFIG)).toStrictEqual({
      kaasId: "kaas-1",
      uri: "/projects/proj-1/providers/Vendor.Container/kaas/kaas-1",
      state: "Active",
      phase: "Ready",
      managementIp: "198.51.100.7",
      currentKubernetesVersion: "1.33.2",
      pendingUpgrade: null,
      currentNodePools: [
        {
          name: "system",
          nodes: 3,
          instance: "K4A8",
          dataCenter: "ITBG-1",
          autoscaling: false,
          minCount: null,
          maxCount: null,
        },
        {
          name: "workers",
          nodes: 4,
          instance: "K8A16",
          dataCenter: "ITBG-2",
          autoscaling: true,
          minCount: 2,
          maxCount: 10,
        },
      ],
      securityGroupUri: "/projects/proj-1/providers/Vendor.Network/securityGroups/sg-kaas-1",
      nodeCidrUri: "/projects/proj-1/providers/Vendor.Container/kaas/kaas-1/nodecidr",
      creationDate: "2026-05-01T10:00:00Z",
      kubeconfig: KUBECONFIG,
      currentVpcUri: "/projects/proj-1/providers/Vendor.Network/vpcs/vpc-kaas-1",
      currentSubnetUri: "/projects/proj-1/providers/Vendor.Network/vpcs/vpc-kaas-1/subnets/subnet-kaas-1",
      currentPodCidr: "100.64.0.0/16",
      currentSecurityGroupName: "prod-sg",
      kubernetesVersionEndOfSupportDate: "2026-10-31T00:00:00.000Z",
      kubernetesVersionRecommended: true,
      clusterType: "KaaS",
      disabledReasons: [],
      failureReason: null,
    });
  });

  it("produces exactly the computed outputs the SDK class declares", () => {
    expect(Object.keys(computedOutputs(responseFor(base), null)).sort()).toEqual(
      [...KAAS_COMPUTED_OUTPUTS].sort(),
    );
  });

  it("never reads node ids, even from an answer that carries them", () => {
    const response = responseFor(base);
    expect(JSON.stringify(response.properties.nodePools)).toContain('"nodeIds":["system-node-1"');
    const outputs = computedOutputs(response, null);
    expect(JSON.stringify(outputs)).not.toContain("nodeIds");
    expect(JSON.stringify(outputs)).not.toContain("system-node-1");
  });

  it("reports the zone's name when the answer has no code (the published shape)", () => {
    const response = responseFor(base, { dataCenter: "name" });
    expect(computedOutputs(response, null).currentNodePools.map((p) => p.dataCenter)).toEqual([
      "Zone ITBG-1",
      "Zone ITBG-2",
    ]);
  });

  it("reports a disabled and failed cluster: the disable reasons and the failure reason", () => {
    const response = responseFor(base, { state: "Failed" });
    response.status = {
      state: "Failed",
      failureReason: "quota exceeded in ITBG-2",
      error: { reason: "Quota", message: "quota exceeded" },
      disableStatusInfo: { isDisabled: true, reasons: ["NoCredit", "Spamming"] },
    };
    const outputs = computedOutputs(response, null);
    expect([outputs.state, outputs.disabledReasons, outputs.failureReason]).toEqual([
      "Failed",
      ["NoCredit", "Spamming"],
      "quota exceeded in ITBG-2",
    ]);
  });

  it.each<[string, NonNullable<KaasResponse["status"]>, string | null]>([
    ["failureReason", { failureReason: "disk lost", error: { message: "other" } }, "disk lost"],
    [
      "error.message without failureReason",
      { failureReason: null, error: { message: "no capacity" } },
      "no capacity",
    ],
    ["error.reason alone", { failureReason: "", error: { reason: "Timeout", message: null } }, "Timeout"],
    ["nothing", { failureReason: null, error: null }, null],
  ])("reads the failure reason from %s", (_title, status, expected) => {
    const response = responseFor(base);
    response.status = status;
    expect(computedOutputs(response, null).failureReason).toBe(expected);
  });

  it.each<[string, { id?: string | null; name?: string | null } | null, string | null]>([
    ["its name", { id: "kaas-ha", name: "KaaS HA" }, "KaaS HA"],
    ["its id when it has no name", { id: "kaas-ha", name: null }, "kaas-ha"],
    ["null without a typology", null, null],
  ])("reports the cluster type from the typology: %s", (_title, typology, expected) => {
    const response = responseFor(base);
    response.metadata.category = { name: "Container", typology };
    expect(computedOutputs(response, null).clusterType).toBe(expected);
  });

  it("reads the spelling variants: nodesPool, dataCenter by name or code, creationDate from status", () => {
    expect(computedOutputs(variantResponse(), null)).toStrictEqual({
      kaasId: "kaas-2",
      uri: null,
      state: "Updating",
      phase: null,
      managementIp: null,
      currentKubernetesVersion: "1.33.2",
      pendingUpgrade: { version: "1.34.1", scheduledAt: "2026-07-01T02:00:00Z" },
      currentNodePools: [
        {
          name: "a",
          nodes: 2,
          instance: "K2A4",
          dataCenter: "ITBG-1",
          autoscaling: false,
          minCount: null,
          maxCount: null,
        },
        {
          name: "b",
          nodes: 0,
          instance: "",
          dataCenter: "ITBG-2",
          autoscaling: true,
          minCount: 1,
          maxCount: 3,
        },
      ],
      securityGroupUri: null,
      nodeCidrUri: null,
      creationDate: "2026-05-02T00:00:00Z",
      kubeconfig: null,
      currentVpcUri: null,
      currentSubnetUri: null,
      currentPodCidr: null,
      currentSecurityGroupName: null,
      kubernetesVersionEndOfSupportDate: null,
      kubernetesVersionRecommended: null,
      clusterType: null,
      disabledReasons: [],
      failureReason: null,
    });
  });

  it("prefers nodePools to nodesPool when both are present", () => {
    const response = variantResponse();
    response.properties.nodePools = [{ name: "z", nodes: 1 }];
    expect(computedOutputs(response, null).currentNodePools.map((p) => p.name)).toEqual(["z"]);
  });

  it.each<[string, UpgradeTo, unknown]>([
    ["no upgradeTo", null, null],
    ["an upgradeTo without a version", { value: null, scheduledAt: "2026-07-01T02:00:00Z" }, null],
    ["an upgradeTo without a date", { value: "1.34.1" }, { version: "1.34.1", scheduledAt: null }],
  ])("reports pendingUpgrade for %s", (_title, upgradeTo, expected) => {
    const response = responseFor(base);
    response.properties.kubernetesVersion = { value: "1.33.2", upgradeTo };
    expect(computedOutputs(response, null).pendingUpgrade).toStrictEqual(expected);
  });

  it("maps a bare answer to nulls and an empty pool list, with no undefined anywhere", () => {
    const outputs = computedOutputs({ metadata: { id: "kaas-3" }, properties: {} }, null);
    expect(outputs).toStrictEqual({
      kaasId: "kaas-3",
      uri: null,
      state: null,
      phase: null,
      managementIp: null,
      currentKubernetesVersion: null,
      pendingUpgrade: null,
      currentNodePools: [],
      securityGroupUri: null,
      nodeCidrUri: null,
      creationDate: null,
      kubeconfig: null,
      currentVpcUri: null,
      currentSubnetUri: null,
      currentPodCidr: null,
      currentSecurityGroupName: null,
      kubernetesVersionEndOfSupportDate: null,
      kubernetesVersionRecommended: null,
      clusterType: null,
      disabledReasons: [],
      failureReason: null,
    });
    expect(undefinedPaths(outputs)).toEqual([]);
  });
});

describe("liveInputs", () => {
  it("gives back the declared inputs for a faithful answer", () => {
    expect(liveInputs(base, responseFor(base))).toStrictEqual(base);
  });

  it("gives back the declared inputs for a faithful answer, for any valid inputs", () => {
    fc.assert(
      fc.property(checkedKaasInputsArb, (x) => {
        expect(liveInputs(x, responseFor(x))).toStrictEqual(x);
      }),
    );
  });

  it("takes the live tags without the creation tag and without any owner tag", () => {
    const response = responseFor(base);
    response.metadata.tags = ["team-a", CREATION_TAG, "added-by-hand", OWNER_TAG, "pulumi-ct-owner:shop/x/y"];
    expect(liveInputs(base, response).tags).toEqual(["team-a", "added-by-hand"]);
  });

  it("adds no tags when none are declared and the service has only the creation tag", () => {
    const declared = news({ tags: undefined });
    expect("tags" in liveInputs(declared, responseFor(declared))).toBe(false);
  });

  it.each<[string, string | null, CheckedKaasInputs, unknown]>([
    ["hourly", "hourly", base, "Hour"],
    ["MONTHLY", "MONTHLY", base, "Month"],
    ["yearly", "yearly", base, "Year"],
    ["Year", "Year", base, "Year"],
    ["an unknown spelling", "weekly", base, "weekly"],
    ["no billing plan", null, base, "Month"],
    ["the service default when none is declared", "hourly", news({ billingPeriod: undefined }), undefined],
  ])("normalises the billing period for %s", (_title, answered, declared, expected) => {
    const response = responseFor(declared);
    response.properties.billingPlan = answered === null ? null : { billingPeriod: answered };
    expect(liveInputs(declared, response).billingPeriod).toBe(expected);
  });

  it.each<[string, number, number]>([
    ["within its bounds keeps the declared count", 9, 4],
    ["at its upper bound keeps the declared count", 10, 4],
    ["at its lower bound keeps the declared count", 2, 4],
    ["above its bounds takes the live count", 12, 12],
    ["below its bounds takes the live count", 1, 1],
  ])("an autoscaling pool whose live count is %s", (_title, liveCount, expected) => {
    const response = responseFor(base, { liveNodes: { workers: liveCount } });
    const pools = liveInputs(base, response).nodePools as NodePoolArgs[];
    expect(pools).toStrictEqual([system, { ...workers, nodes: expected }]);
  });

  it("a fixed pool takes the live count", () => {
    const response = responseFor(base, { liveNodes: { system: 5 } });
    expect(liveInputs(base, response).nodePools).toStrictEqual([{ ...system, nodes: 5 }, workers]);
  });

  it("keeps an explicit autoscaling: false and adds none where it was not declared", () => {
    const declared = news({
      nodePools: [
        { ...system, autoscaling: false },
        { ...system, name: "other" },
      ],
    });
    expect(liveInputs(declared, responseFor(declared)).nodePools).toStrictEqual([
      { ...system, autoscaling: false },
      { ...system, name: "other" },
    ]);
  });

  it("follows pools added and removed out of band", () => {
    const response = responseFor(base);
    response.properties.nodePools = [
      response.properties.nodePools![1],
      {
        name: "extra",
        nodes: 2,
        autoscaling: false,
        instance: { name: "K2A4" },
        dataCenter: { code: "ITBG-3" },
      },
    ];
    expect(liveInputs(base, response).nodePools).toStrictEqual([
      workers,
      { name: "extra", nodes: 2, instance: "K2A4", dataCenter: "ITBG-3" },
    ]);
  });

  it("gives back the declared inputs when zones answer only a display name, for any valid inputs", () => {
    fc.assert(
      fc.property(checkedKaasInputsArb, (x) => {
        expect(liveInputs(x, responseFor(x, { dataCenter: "name" }))).toStrictEqual(x);
      }),
    );
  });

  it.each<[string, { code?: string | null; name?: string | null } | null, string]>([
    ["a name-only label that differs from the code keeps the declared zone", { name: "Bergamo 1" }, "ITBG-1"],
    ["a name-only answer equal to the declared code keeps it", { name: "ITBG-1" }, "ITBG-1"],
    ["a name-only answer that looks like another code keeps the declared zone", { name: "ITBG-3" }, "ITBG-1"],
    ["a code equal to the declared one keeps it", { code: "ITBG-1", name: "Bergamo 1" }, "ITBG-1"],
    ["a code that differs is drift and is taken", { code: "ITBG-3", name: "Bergamo 3" }, "ITBG-3"],
    ["an empty code falls back to the name rule", { code: "", name: "Bergamo 1" }, "ITBG-1"],
    ["no dataCenter keeps the declared zone", null, "ITBG-1"],
  ])("a declared pool: %s", (_title, dataCenter, expected) => {
    const response = responseFor(base);
    response.properties.nodePools![0].dataCenter = dataCenter;
    const pools = liveInputs(base, response).nodePools as NodePoolArgs[];
    expect(pools.map((p) => p.dataCenter)).toEqual([expected, "ITBG-2"]);
  });

  it("a pool added out of band with a name-only zone takes the name, the only value there is", () => {
    const response = responseFor(base, { dataCenter: "name" });
    response.properties.nodePools!.push({
      name: "extra",
      nodes: 1,
      autoscaling: false,
      instance: { name: "K2A4" },
      dataCenter: { name: "Bergamo 3" },
    });
    expect((liveInputs(base, response).nodePools as NodePoolArgs[]).map((p) => p.dataCenter)).toEqual([
      "ITBG-1",
      "ITBG-2",
      "Bergamo 3",
    ]);
  });

  it.each<[string, string, { value: string } | null, string]>([
    ["a scheduled upgrade keeps the declared version", "1.33.2", { value: "1.34.1" }, "1.34.1"],
    ["a platform upgrade above the declared version keeps it", "1.35.0", null, "1.34.1"],
    ["a live version below the declared one with nothing scheduled is taken", "1.33.2", null, "1.33.2"],
    ["the declared version running keeps it", "1.34.1", null, "1.34.1"],
  ])("%s", (_title, liveVersion, upgradeTo, expected) => {
    const declared = news({ kubernetesVersion: "1.34.1" });
    const response = responseFor(declared, { liveVersion, upgradeTo: upgradeTo ?? undefined });
    expect(liveInputs(declared, response).kubernetesVersion).toBe(expected);
  });

  it("takes out-of-band changes of updatable arguments", () => {
    const declared = news({ ha: undefined, enablePrivateCluster: undefined });
    const response = responseFor(declared);
    response.metadata.name = "renamed";
    response.properties.ha = true;
    response.properties.storage = { maxCumulativeVolumeSize: null };
    response.properties.apiServerAccessProfile = { authorizedIpRanges: null, enablePrivateCluster: true };
    const refreshed = liveInputs(declared, response);
    expect(refreshed).toStrictEqual({
      ...news({ maxCumulativeVolumeSize: undefined, authorizedIpRanges: undefined }, declared),
      name: "renamed",
      ha: true,
      enablePrivateCluster: true,
    });
    expect(undefinedPaths(refreshed)).toEqual([]);
  });

  it("keeps the declared create-only arguments even when the answer differs", () => {
    const response = responseFor(base);
    response.properties.nodecidr = { address: "10.99.0.0/16", name: "other" };
    response.properties.podcidr = { address: "100.99.0.0/16" };
    response.properties.securityGroup = { name: "other-sg" };
    response.properties.identity = { clientId: "other" };
    expect(liveInputs(base, response)).toStrictEqual(base);
  });

  it("has no undefined anywhere for a sparse answer", () => {
    const refreshed = liveInputs(base, variantResponse());
    expect(undefinedPaths(refreshed)).toEqual([]);
    expect(refreshed).toStrictEqual({
      ...news({ maxCumulativeVolumeSize: undefined, authorizedIpRanges: undefined }),
      tags: [],
      ha: false,
      billingPeriod: "Hour",
      enablePrivateCluster: false,
      nodePools: [
        { name: "a", nodes: 2, instance: "K2A4", dataCenter: "ITBG-1" },
        {
          name: "b",
          nodes: 0,
          instance: "",
          dataCenter: "ITBG-2",
          autoscaling: true,
          minCount: 1,
          maxCount: 3,
        },
      ],
    });
  });

  it("has no undefined anywhere for any valid inputs and live counts", () => {
    fc.assert(
      fc.property(checkedKaasInputsArb, fc.integer({ min: 0, max: 1000 }), (x, count) => {
        const names = (x.nodePools as NodePoolArgs[]).map((p) => p.name);
        const response = responseFor(x, { liveNodes: Object.fromEntries(names.map((n) => [n, count])) });
        expect(undefinedPaths(liveInputs(x, response))).toEqual([]);
        expect(undefinedPaths(computedOutputs(response, null))).toEqual([]);
      }),
    );
  });
});
