/**
 * Moving a stack from the dynamic resources to the provider plugin's through the real engine: the program's
 * resources keep their names and take the alias of their former type (`pulumi-nodejs:dynamic/vendor-container:*`);
 * the engine then takes each state entry over as the plugin's resource, with its id, and neither replaces nor
 * deletes anything. A preview and a refresh afterwards find nothing to do, and the plugin destroys what the
 * dynamic resources created.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { backup, cluster, registry } from "./support/args";
import { expectDestroyed, pluginConfig, pointAtPlugin } from "./support/plugin";
import {
  POLL_MS,
  PROJECT,
  TOKEN,
  expectSettledIn,
  openSuite,
  ref,
  upWith,
  type Suite,
} from "./support/suite";

describe("moving a stack from the dynamic resources to the plugin", () => {
  let s: Suite;
  let stack: Stack;
  let dir: string;
  const declared = () => [cluster(), backup({ kaasId: ref("cluster", "kaasId") }), registry()];

  beforeAll(async () => {
    s = await openSuite("migration");
    dir = s.program("e2e-migration");
    stack = await s.stack("dev", dir, pluginConfig(s, TOKEN, PROJECT, POLL_MS));
  });
  afterAll(async () => {
    await s?.close();
  });

  it("changes the program to the plugin's types with aliases: nothing replaced, deleted or sent", async () => {
    const before = await upWith(s, stack, declared());
    expect(before.summary.resourceChanges).toEqual({ create: 4 });
    const ids = await idsOf(stack);

    // The same declarations as the plugin's resources, each under the alias of its former type.
    pointAtPlugin(dir);
    await stack.setAllConfig({ "e2e:plugin": { value: "true" }, "e2e:fromDynamic": { value: "true" } });
    const moved = await upWith(s, stack, declared());
    expect(moved.calls).toEqual([]);
    expect(moved.summary.resourceChanges).toEqual({ same: 4 });
    expect(await idsOf(stack)).toEqual(ids);
    const types = ((await stack.exportStack()).deployment.resources as { type: string }[]).map((r) => r.type);
    expect(types).toContain("pulumi:providers:vendor-container");
    expect(types.filter((t) => t.includes("vendor-container:")).sort()).toEqual([
      "vendor-container:index:Kaas",
      "vendor-container:index:KaasBackup",
      "vendor-container:index:Registry",
    ]);
    await expectSettledIn(s, stack);
  });

  it("destroys through the plugin what the dynamic resources created", async () => {
    await expectDestroyed(s, stack);
  });
});

/** The ids of the stack's resources of this package (the service's objects), sorted. */
async function idsOf(stack: Stack): Promise<string[]> {
  const resources = (await stack.exportStack()).deployment.resources as { id?: string; type: string }[];
  return resources
    .filter((r) => r.type.includes("vendor-container:") && r.id)
    .map((r) => r.id ?? "")
    .sort();
}
