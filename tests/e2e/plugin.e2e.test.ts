/**
 * The provider plugin (`pulumi-resource-vendor-container`, `vendor-container:index:*`) through the real engine
 * against the emulator: a program that uses it creates, updates in place (after which a preview and a refresh
 * find nothing to do), takes an object over with the `import` option, refuses to disable HA at preview and
 * destroys, with its configuration from `vendor-container:*` and the stack its objects belong to read from the
 * URN of every call. These are the plugin's paths whatever the program's language: the Python, YAML and Go
 * programs (python, yaml and go.e2e.test.ts) create and preview, and show what is their language's own.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { SYSTEM_POOL, WORKER_POOL, cluster, backup, registry, attachment } from "./support/args";
import {
  expectDestroyed,
  expectHaRefused,
  outsideClient,
  pluginConfig,
  pluginProgram,
} from "./support/plugin";
import {
  LOCATION,
  POLL_MS,
  PROJECT,
  TOKEN,
  expectSettledIn,
  trackedOf,
  openSuite,
  upWith,
  type Declared,
  type Suite,
} from "./support/suite";

const KAAS = "kaas-0001";
/** The project of the explicit provider's resources. */
const OTHER_PROJECT = "e2e-other-project";
/** What the plugin's resources refer to a cluster by: its id, known in every preview. */
const CLUSTER_ID = { $ref: "cluster.id" };

describe("the provider plugin through pulumi", () => {
  let s: Suite;
  let stack: Stack;
  let nodes: string[];

  beforeAll(async () => {
    s = await openSuite("plugin");
    stack = await s.stack("dev", pluginProgram(s, "e2e-plugin"), {
      ...pluginConfig(s, TOKEN, PROJECT, POLL_MS),
      "e2e:plugin": { value: "true" },
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  const haCluster = (overrides: Record<string, unknown> = {}) => cluster({ ha: true, ...overrides });
  const first = (): Declared[] => [haCluster(), backup({ kaasId: CLUSTER_ID }), registry()];
  /** A second program: the worker pool resized, an attachment, and a registry through an explicit provider. */
  const second = (): Declared[] => [
    haCluster({ nodePools: [SYSTEM_POOL, { ...WORKER_POOL, nodes: 3 }] }),
    backup({ kaasId: CLUSTER_ID }),
    registry(),
    attachment(nodes[0], { kaasId: CLUSTER_ID }),
    {
      kind: "Provider",
      name: "other",
      args: {
        baseUrl: s.emulator.url,
        token: { $secret: TOKEN },
        projectId: OTHER_PROJECT,
        pollIntervalMs: POLL_MS,
      },
    },
    { ...registry({ name: "other-images" }), name: "otherImages", provider: "other" },
  ];

  it("creates a cluster, its backup and a registry, each with one POST, configured by vendor-container:*", async () => {
    const { calls, outputs, summary } = await upWith(s, stack, first());
    // The registry is created beside the cluster, in any order.
    expect(calls.filter((call) => call.startsWith("POST")).sort()).toEqual([
      "POST /kaas",
      `POST /kaas/${KAAS}/backups`,
      "POST /registries",
    ]);
    expect(summary.resourceChanges).toEqual({ create: 4 });
    expect(outputs["cluster.id"]).toBe(KAAS);
    expect(outputs["cluster.kaasId"]).toBe(KAAS);
    expect(outputs["cluster.state"]).toBe("Active");
    expect(outputs["nightly.kaasId"]).toBe(KAAS);
    expect(outputs["images.registryId"]).toBe("registry-0001");
    // The kubeconfig is a secret in the state: the export has it encrypted, never in plain text.
    const kubeconfig = outputs["cluster.kubeconfig"] as string;
    expect(kubeconfig).toContain("apiVersion");
    const state = await s.exportState(stack);
    expect(state).not.toContain(kubeconfig.slice(0, 40));
    expect(state).not.toContain(TOKEN);
    // The objects name this stack as their owner, read from the URN (no program sent it).
    const live = s.emulator.emulator.state().kaas.find((k) => k.metadata.id === KAAS);
    expect(live?.metadata.tags).toContain("pulumi-ct-owner:e2e-plugin/dev/cluster");
  });

  it("resizes a pool, attaches a volume, makes a registry in another project through an explicit provider, reads a cluster through an invoke, then settles", async () => {
    nodes = s.emulator.emulator.nodes(KAAS).find((p) => p.nodePool === "system")!.nodeIds;
    await stack.setConfig("e2e:functions", {
      value: JSON.stringify([{ output: "info", call: "getKaas", args: { kaasId: CLUSTER_ID } }]),
    });
    const { calls, summary, outputs } = await upWith(s, stack, second());
    expect(summary.resourceChanges).toEqual({ same: 3, update: 1, create: 3 });
    expect(outputs.info).toMatchObject({ kaasId: KAAS, state: "Active", name: "e2e-cluster" });
    expect(calls.filter((call) => call.startsWith("POST /registries"))).toEqual([]);
    expect(
      s
        .requests()
        .filter((r) => r.method === "POST" && r.path.endsWith("/registries"))
        .map((r) => r.path),
    ).toEqual([`/projects/${OTHER_PROJECT}/providers/Vendor.Container/registries`]);
    expect(calls.filter((call) => !call.includes("/nodes/") && !call.includes(OTHER_PROJECT)).sort()).toEqual(
      [`PUT /kaas/${KAAS}`, `PUT /kaas/${KAAS}/nodePools/workers`],
    );
    expect(calls.filter((call) => call.includes("/nodes/"))).toEqual([
      expect.stringMatching(new RegExp(`^POST /kaas/${KAAS}/nodePools/system/nodes/${nodes[0]}/`)),
    ]);
    await expectSettledIn(s, stack);
  });

  it("takes a registry made outside the stack over with the import option, sending nothing", async () => {
    const outside = await outsideClient(s).call(
      "createRegistry",
      { projectId: PROJECT },
      {
        metadata: { name: "outside-charts", location: { value: LOCATION } },
        properties: {
          adminUser: { username: "charts" },
          size: "Small",
          billingPlan: { billingPeriod: "Month" },
        },
      },
    );
    s.emulator.emulator.advanceClock(60_000);
    const charts: Declared = {
      kind: "Registry",
      name: "charts",
      // The program's arguments must be the object's: the engine refuses an import whose arguments differ.
      args: {
        name: "outside-charts",
        location: LOCATION,
        adminUsername: "charts",
        size: "Small",
        billingPeriod: "Month",
      },
      importId: outside.metadata.id,
    };
    const { calls, summary } = await upWith(s, stack, [...second(), charts]);
    expect(summary.resourceChanges).toEqual({ same: 7, import: 1 });
    expect(calls).toEqual([]);
    expect((await trackedOf(stack)).charts).toBe(outside.metadata.id);
  });

  it("refuses to disable HA at preview, before any call to the service", async () => {
    await s.declare(stack, [haCluster({ ha: false }), backup({ kaasId: CLUSTER_ID }), registry()]);
    await expectHaRefused(s, stack);
  });

  it("destroys what it manages", async () => {
    await expectDestroyed(s, stack);
  });
});
