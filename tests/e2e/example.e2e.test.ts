/**
 * The main example (`examples/cluster`, TypeScript, compiled by the SDK's own ts-node) through the real engine:
 * its outputs, a pool resize that previews as an update of the cluster alone, a volume attached to a node taken
 * from the cluster, refresh and destroy; and the secret search over the exported state, everything the CLI
 * printed and the emulator's request log. The same example under injected faults (5xx, 429, dropped connections
 * before and after processing, latency), after which state and service agree, is the provider-level fault
 * matrix's, seed by seed (tests/integration/reliability-faults.test.ts), and its secret search under faults
 * tests/integration/reliability-secrets.test.ts's.
 */
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { ROOT } from "./support/engine";
import { TOKEN, openSuite, values, type Suite } from "./support/suite";

const EXAMPLE = path.join(ROOT, "examples/cluster");
const PROJECT_NAME = "vendor-container-cluster";

/** What must never appear in plain text: the API token and every kubeconfig credential the service issued. */
function secretsOf(s: Suite): string[] {
  const kaas = s.emulator.emulator.state().kaas.map((k) => k.metadata.id);
  return [TOKEN, ...kaas.map((id) => s.emulator.emulator.kubeconfigToken(id))];
}

/** Every place a secret could leak to: the exported state, the CLI's output and the service's request log. */
async function expectNoSecretIn(s: Suite, stack: Stack): Promise<void> {
  const places = {
    state: await s.exportState(stack),
    cli: s.cliOutput.join("\n"),
    requests: JSON.stringify(s.requests()),
  };
  const leaks = secretsOf(s).flatMap((secret) =>
    Object.entries(places)
      .filter(([, text]) => text.includes(secret))
      .map(([where]) => `${where} holds ${secret.slice(0, 6)}...`),
  );
  expect(leaks).toEqual([]);
}

/** The live (not deleted) objects of the service, by kind, and their creation tags. */
function live(s: Suite) {
  const state = s.emulator.emulator.state();
  const ids = (list: { metadata: { id: string }; status?: { state?: string | null } | null }[]) =>
    list.filter((o) => o.status?.state !== "Deleted").map((o) => o.metadata.id);
  return { kaas: ids(state.kaas), backups: ids(state.backups), registries: ids(state.registries) };
}

describe("the main example", () => {
  let s: Suite;
  let stack: Stack;
  beforeAll(async () => {
    s = await openSuite("example");
    stack = await s.stack("dev", s.program(PROJECT_NAME, EXAMPLE));
  });
  afterAll(async () => {
    await s?.close();
  });

  it("comes up with its outputs, the kubeconfig secret", async () => {
    const result = await stack.up();
    expect(result.summary.resourceChanges).toEqual({ create: 4 });
    const outputs = await stack.outputs();
    expect(values(outputs)).toMatchObject({
      kaasId: "kaas-0001",
      backupId: "backup-0001",
      kubernetesVersion: "1.32.5",
      nodePools: ["system=2", "workers=2"],
      pendingUpgrade: null,
      registryUrl: "https://dev-images-registry-0001.cr.emulator.invalid",
      dataVolumeSizeGb: null,
    });
    expect(outputs.kubeconfig.secret).toBe(true);
    expect(outputs.kaasId.secret).toBe(false);
  });

  it("previews a pool resize as an update of the cluster alone, not of what depends on it", async () => {
    await stack.setConfig("systemNodes", { value: "3" });
    const preview = await stack.preview({ diff: true });
    expect(preview.changeSummary).toEqual({ same: 3, update: 1 });
    s.clearRequests();
    const result = await stack.up();
    expect(result.summary.resourceChanges).toEqual({ same: 3, update: 1 });
    expect(s.mutations()).toEqual(["PUT /kaas/kaas-0001/nodePools/system"]);
  });

  it("attaches a volume to a node the user took from the cluster", async () => {
    // The service lists no nodes; a user reads them with kubectl. The emulator tells the test.
    const system = s.emulator.emulator.nodes("kaas-0001").find((p) => p.nodePool === "system")!;
    await stack.setConfig("dataNodeId", { value: system.nodeIds[0] });
    s.clearRequests();
    const result = await stack.up();
    // The cluster resized above is among the same: the resize left nothing to do.
    expect(result.summary.resourceChanges).toEqual({ same: 4, create: 1 });
    expect(s.mutations()).toEqual([
      `POST /kaas/kaas-0001/nodePools/system/nodes/${system.nodeIds[0]}/attach`,
    ]);
    expect(values(result.outputs).dataVolumeSizeGb).toBe(10);
    await stack.preview({ expectNoChanges: true });
    await stack.refresh({ expectNoChanges: true });
  });

  it("stores each serialized provider as a require of its stable subpath, a few hundred bytes", async () => {
    const { deployment } = await stack.exportStack();
    const sizes = Object.fromEntries(
      (deployment.resources as { type: string; outputs?: { __provider?: string } }[])
        .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))
        .map((r) => {
          const kind = r.type.split(":").pop()!;
          expect(r.outputs!.__provider).toContain(`require("pulumi-vendor-container/shells/${kind}")`);
          return [kind, Buffer.byteLength(r.outputs!.__provider!)];
        }),
    );
    expect(Object.keys(sizes).sort()).toEqual(["Kaas", "KaasBackup", "Registry", "VolumeAttachment"]);
    for (const size of Object.values(sizes)) expect(size).toBeLessThan(512);
    process.stdout.write(`__provider bytes per resource: ${JSON.stringify(sizes)}\n`);
  });

  it("never shows a secret in plain text, then destroys everything", async () => {
    await expectNoSecretIn(s, stack);
    const result = await stack.destroy();
    expect(result.summary.resourceChanges).toEqual({ delete: 5 });
    s.emulator.emulator.advanceClock(60_000);
    expect(live(s)).toEqual({ kaas: [], backups: [], registries: [] });
    await expectNoSecretIn(s, stack);
  });
});

describe("a refresh that finds drift on a cluster with an identity", () => {
  const CLIENT_SECRET = "identity-client-secret-5c1e9b7d3a";
  let s: Suite;
  let stack: Stack;
  beforeAll(async () => {
    s = await openSuite("identity");
    stack = await s.stack("dev", s.program("identity"));
  });
  afterAll(async () => {
    await s?.close();
  });

  it("keeps the identity's client secret encrypted in state and out of every output", async () => {
    const args = {
      name: "e2e-identity",
      location: "ITBG-Bergamo",
      kubernetesVersion: "1.32.5",
      nodeCidr: { address: "10.30.0.0/16", name: "identity-nodes" },
      nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
      identity: { clientId: "app-42", clientSecret: CLIENT_SECRET },
    };
    await s.declare(stack, [{ kind: "Kaas", name: "cluster", args }], { secret: true });
    await stack.up();
    s.emulator.emulator.patchResource("kaas", "kaas-0001", { name: "renamed-by-hand" });
    const refreshed = await stack.refresh();
    expect(refreshed.summary.resourceChanges).toEqual({ same: 1, update: 1 });
    const state = await s.exportState(stack);
    expect(state).toContain('"name": "renamed-by-hand"');
    expect(state).not.toContain(CLIENT_SECRET);
    expect(s.cliOutput.join("\n")).not.toContain(CLIENT_SECRET);
    await stack.up();
    await stack.preview({ expectNoChanges: true });
    expect(await s.exportState(stack)).not.toContain(CLIENT_SECRET);
    await stack.destroy();
    expect(s.cliOutput.join("\n")).not.toContain(CLIENT_SECRET);
  });
});
