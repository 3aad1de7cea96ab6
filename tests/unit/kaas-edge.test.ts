/** Edge cases of Kaas check, diff and update planning found in review. */
import { checkKind, diffKind } from "../../provider/common/describedProvider";
import { KAAS } from "../../provider/kaas/descriptor";
import { liveInputs, updatePlan } from "../../provider/kaas/mapping";
import type { NodePoolArgs } from "../../provider/kaas/types";
import { UNKNOWN } from "../../provider/common/unknown";
import { CHECK_CONTEXT, baselineInputs, checked, responseFor, stateOf } from "./support/kaas-fixtures";

it("refuses preset: false without a VPC and subnet", () => {
  const raw = { ...baselineInputs(), preset: false };
  expect(checkKind(KAAS, {}, raw, CHECK_CONTEXT).failures).toEqual([
    {
      property: "preset",
      reason: "is false but vpcUri and subnetUri are not given: there would be no network",
    },
  ]);
});

describe("a replace field that is partly unknown at preview", () => {
  const inputs = checked(baselineInputs());
  const state = stateOf(inputs);

  it("replaces when its known part changed, since up will", () => {
    const news = { ...inputs, nodeCidr: { address: UNKNOWN, name: "renamed-nodes" } };
    expect(diffKind(KAAS, state, news).replaces).toEqual(["nodeCidr"]);
  });

  it("does not replace when only the unknown part may differ", () => {
    const news = { ...inputs, nodeCidr: { address: UNKNOWN, name: "prod-nodes" } };
    expect(diffKind(KAAS, state, news)).toEqual({ changes: true, replaces: [], updates: ["nodeCidr"] });
  });
});

describe("the full pool list of an update", () => {
  const olds = checked(baselineInputs());
  const pools = olds.nodePools as NodePoolArgs[];
  const news = {
    ...olds,
    nodePools: [...pools, { name: "gpu", nodes: 1, instance: "K16A64", dataCenter: "ITBG-1" }],
  };

  it("keeps the count the autoscaler gave an untouched autoscaling pool", () => {
    const plan = updatePlan(
      olds,
      news,
      "1.33.2",
      new Map([
        ["workers", 5],
        ["system", 3],
      ]),
    );
    expect(plan.cluster?.properties.nodePools?.find((p) => p.name === "workers")?.nodes).toBe(5);
  });

  it("sends the declared count when the live count is outside the bounds or the user resized", () => {
    const outOfBounds = updatePlan(olds, news, "1.33.2", new Map([["workers", 99]]));
    expect(outOfBounds.cluster?.properties.nodePools?.find((p) => p.name === "workers")?.nodes).toBe(4);
    const resized = {
      ...news,
      nodePools: (news.nodePools as NodePoolArgs[]).map((p) =>
        p.name === "workers" ? { ...p, nodes: 3 } : p,
      ),
    };
    const plan = updatePlan(olds, resized, "1.33.2", new Map([["workers", 5]]));
    expect(plan.cluster?.properties.nodePools?.find((p) => p.name === "workers")?.nodes).toBe(3);
  });
});

it("refresh lists pools in the declared order whatever order the service answers", () => {
  const inputs = checked(baselineInputs());
  const response = responseFor(inputs);
  response.properties.nodePools = [...(response.properties.nodePools ?? [])].reverse();
  expect((liveInputs(inputs, response).nodePools as NodePoolArgs[]).map((p) => p.name)).toEqual([
    "system",
    "workers",
  ]);
});
