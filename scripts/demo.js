// Drives the main example's resources through the providers against a local emulator, the way the Pulumi
// engine calls a dynamic provider: check -> diff -> create, then an in-place update, a refused change, a
// refresh, and delete. Secrets are printed as [secret].
"use strict";
const { spawn } = require("node:child_process");
const path = require("node:path");

const root = path.resolve(__dirname, "..");

function startEmulator() {
  const child = spawn(
    process.execPath,
    [path.join(root, "dist/emulator/cli.js"), "--port", "0", "--token", "demo-token"],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`emulator exited with code ${code}`)));
    child.stdout.on("data", (chunk) => {
      const match = /Emulator listening on (\S+)/.exec(String(chunk));
      if (match) resolve({ url: match[1], stop: () => child.kill("SIGTERM") });
    });
  });
}

const show = (outs) =>
  JSON.stringify(
    outs,
    (key, value) => (key === "kubeconfig" || key === "clientSecret" ? (value ? "[secret]" : value) : value),
    2,
  );

async function main() {
  const started = Date.now();
  const emulator = await startEmulator();
  console.log(`emulator: ${emulator.url}`);
  Object.assign(process.env, {
    VENDOR_BASE_URL: emulator.url,
    VENDOR_TOKEN: "demo-token",
    VENDOR_PROJECT_ID: "demo-project",
    VENDOR_POLL_INTERVAL_MS: "250",
  });
  const { provider } = require(path.join(root, "dist/provider"));
  const scope = (name) => ({ creationScope: `demo/dev/${name}` });

  async function up(kind, name, args) {
    const p = provider(kind);
    const { inputs, failures } = await p.check({}, { ...args, ...scope(name) });
    if (failures.length)
      throw new Error(`${kind} ${name}: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    const { id, outs } = await p.create(inputs);
    console.log(`+ ${kind} ${name} created (${id})`);
    return { kind, name, id, inputs, outs };
  }

  try {
    console.log("\n==> pulumi up (create)");
    const cluster = await up("Kaas", "cluster", {
      name: "demo",
      location: "ITBG-Bergamo",
      kubernetesVersion: "1.32.5",
      nodeCidr: { address: "10.20.0.0/16", name: "demo-nodes" },
      nodePools: [
        { name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" },
        {
          name: "workers",
          nodes: 2,
          instance: "K8A16",
          dataCenter: "ITBG-2",
          autoscaling: true,
          minCount: 1,
          maxCount: 5,
        },
      ],
      ha: true,
      authorizedIpRanges: ["192.168.10.0/24"],
      maxCumulativeVolumeSize: 500,
      billingPeriod: "Month",
    });
    const backup = await up("KaasBackup", "nightly", {
      kaasId: cluster.id,
      name: "nightly",
      location: "ITBG-Bergamo",
      retentionDays: 7,
      billingPeriod: "Month",
    });
    const registry = await up("Registry", "images", {
      name: "images",
      location: "ITBG-Bergamo",
      adminUsername: "ops",
      size: "Small",
    });
    const node = cluster.outs.currentNodePools.find((p) => p.name === "system").nodeIds[0];
    const attachment = await up("VolumeAttachment", "data", {
      kaasId: cluster.id,
      nodePoolName: "system",
      nodeId: node,
      volumeUri: "/projects/demo-project/providers/Vendor.Storage/blockStorages/data-1",
    });
    console.log("\nOutputs:");
    console.log(`  kubeconfig:  [secret] (${cluster.outs.kubeconfig.length} bytes)`);
    console.log(`  registryUrl: ${registry.outs.publicBaseUrl}`);
    console.log(
      `  cluster:     ${show({ state: cluster.outs.state, version: cluster.outs.currentKubernetesVersion, pools: cluster.outs.currentNodePools.map((p) => `${p.name}=${p.nodes}`) })}`,
    );

    console.log("\n==> pulumi up (resize a pool, schedule an upgrade)");
    const kaas = provider("Kaas");
    const upgradeDate = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
    const desired = {
      ...cluster.inputs,
      nodePools: cluster.inputs.nodePools.map((p) => (p.name === "system" ? { ...p, nodes: 3 } : p)),
      kubernetesVersion: "1.33.2",
      upgradeDate,
    };
    const checked = await kaas.check(cluster.inputs, desired);
    const diff = await kaas.diff(cluster.id, cluster.outs, checked.inputs);
    console.log(`~ Kaas cluster diff: changes=${diff.changes} replaces=[${diff.replaces.join(", ")}]`);
    const updated = await kaas.update(cluster.id, cluster.outs, checked.inputs);
    console.log(
      `~ Kaas cluster updated: pools ${updated.outs.currentNodePools.map((p) => `${p.name}=${p.nodes}`).join(", ")}, pending upgrade ${JSON.stringify(updated.outs.pendingUpgrade)}`,
    );
    const again = await kaas.diff(cluster.id, updated.outs, checked.inputs);
    console.log(`  preview after update: changes=${again.changes}`);

    console.log("\n==> pulumi preview (refused: disable HA)");
    const refused = await kaas.check(checked.inputs, { ...checked.inputs, ha: false });
    for (const f of refused.failures) console.log(`  error: ${f.property}: ${f.reason}`);

    console.log("\n==> pulumi refresh");
    const read = await kaas.read(cluster.id, updated.outs);
    console.log(
      `  Kaas cluster: ${read.id ? "present" : "gone"}, state ${read.props.state}, kubeconfig unchanged: ${read.props.kubeconfig === updated.outs.kubeconfig}`,
    );

    console.log("\n==> pulumi destroy");
    for (const r of [attachment, registry, backup, { ...cluster, outs: updated.outs }]) {
      await provider(r.kind).delete(r.id, r.outs);
      console.log(`- ${r.kind} ${r.name} deleted`);
    }
    console.log(`\ndemo finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    emulator.stop();
  }
}

main().catch((error) => {
  console.error(`demo failed: ${error.message}`);
  process.exit(1);
});
