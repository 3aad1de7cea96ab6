/**
 * A YAML program on the provider plugin through the real engine (the YAML language host pulumi-yaml, as
 * scripts/engine.sh builds it) against the emulator: the four kinds and an invoke, a preview and a refresh that
 * find nothing to do, a pool resized in place, disabling HA refused at preview before any call to the service,
 * and destroy. A YAML program is its Pulumi.yaml: each step writes it (JSON, which YAML reads as it is).
 */
import fs from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { DATA_VOLUME, SYSTEM_POOL, WORKER_POOL } from "./support/args";
import { PLUGIN_BIN, expectDestroyed, expectHaRefused, pluginConfig } from "./support/plugin";
import { LOCATION, POLL_MS, PROJECT, TOKEN, expectSettledIn, openSuite, type Suite } from "./support/suite";

const KAAS = "kaas-0001";

/** The program: a cluster (`ha`, the worker pool's size), its backup, a registry, an invoke, and optionally an attachment. */
function program(options: { ha: boolean; workers: number; attachTo?: string }) {
  const resources: Record<string, unknown> = {
    cluster: {
      type: "vendor-container:index:Kaas",
      properties: {
        name: "e2e-cluster",
        location: LOCATION,
        kubernetesVersion: "1.32.5",
        nodeCidr: { address: "10.20.0.0/16", name: "cluster-nodes" },
        nodePools: [SYSTEM_POOL, { ...WORKER_POOL, nodes: options.workers }],
        ha: options.ha,
      },
    },
    nightly: {
      type: "vendor-container:index:KaasBackup",
      properties: { kaasId: "${cluster.id}", name: "nightly", location: LOCATION, retentionDays: 7 },
    },
    images: {
      type: "vendor-container:index:Registry",
      properties: { name: "e2e-images", location: LOCATION, adminUsername: "ops", size: "Small" },
    },
  };
  if (options.attachTo !== undefined)
    resources.data = {
      type: "vendor-container:index:VolumeAttachment",
      properties: {
        kaasId: "${cluster.id}",
        nodePoolName: "system",
        nodeId: options.attachTo,
        volumeUri: DATA_VOLUME,
      },
    };
  return {
    name: "e2e-yaml",
    runtime: "yaml",
    plugins: { providers: [{ name: "vendor-container", path: PLUGIN_BIN }] },
    resources,
    variables: {
      info: {
        "fn::invoke": { function: "vendor-container:index:getKaas", arguments: { kaasId: "${cluster.id}" } },
      },
    },
    outputs: {
      kaasId: "${cluster.kaasId}",
      kubeconfig: "${cluster.kubeconfig}",
      backupState: "${nightly.state}",
      registryId: "${images.registryId}",
      infoState: "${info.state}",
    },
  };
}

describe("a YAML program on the provider plugin", () => {
  let s: Suite;
  let stack: Stack;
  let dir: string;

  const write = (options: Parameters<typeof program>[0]) =>
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), JSON.stringify(program(options), null, 2));
  const up = async (options: Parameters<typeof program>[0]) => {
    write(options);
    s.clearRequests();
    const result = await stack.up();
    return { calls: s.mutations(), summary: result.summary, outputs: result.outputs };
  };

  beforeAll(async () => {
    s = await openSuite("yaml");
    dir = path.join(s.dir, "programs", "e2e-yaml");
    fs.mkdirSync(dir, { recursive: true });
    write({ ha: true, workers: 2 });
    stack = await s.stack("dev", dir, pluginConfig(s, TOKEN, PROJECT, POLL_MS));
  });
  afterAll(async () => {
    await s?.close();
  });

  it("creates a cluster, its backup and a registry, reads the cluster through an invoke, then settles", async () => {
    const { calls, summary, outputs } = await up({ ha: true, workers: 2 });
    expect(calls.filter((call) => call.startsWith("POST")).sort()).toEqual([
      "POST /kaas",
      `POST /kaas/${KAAS}/backups`,
      "POST /registries",
    ]);
    expect(summary.resourceChanges).toEqual({ create: 4 });
    expect(outputs.kaasId.value).toBe(KAAS);
    expect(outputs.kubeconfig.secret).toBe(true);
    expect(outputs.backupState.value).toBe("Active");
    expect(outputs.registryId.value).toBe("registry-0001");
    expect(outputs.infoState.value).toBe("Active");
    await expectSettledIn(s, stack);
  });

  it("resizes a pool in place and attaches a volume", async () => {
    const nodes = s.emulator.emulator.nodes(KAAS).find((p) => p.nodePool === "system")!.nodeIds;
    const { calls, summary } = await up({ ha: true, workers: 3, attachTo: nodes[0] });
    expect(summary.resourceChanges).toEqual({ same: 3, update: 1, create: 1 });
    expect(calls).toContain(`PUT /kaas/${KAAS}/nodePools/workers`);
    expect(calls.filter((call) => call.includes("/nodes/"))).toHaveLength(1);
  });

  it("refuses to disable HA at preview, before any call to the service", async () => {
    write({ ha: false, workers: 3 });
    await expectHaRefused(s, stack);
  });

  it("destroys what it manages", async () => {
    await expectDestroyed(s, stack);
  });
});
