/**
 * The SDK classes as a program uses them, registered through Pulumi's mock monitor: type tokens, the
 * inputs the provider receives, and what the classes add on their own.
 */
import * as pulumi from "@pulumi/pulumi";

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

const registered: Registered[] = [];

beforeAll(() => {
  return pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "proj",
    "dev",
    false,
  );
});

/** Waits until every registration has reached the mock monitor. */
async function settle<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

it("registers each kind under its documented type token, with its creation scope", async () => {
  const { Kaas, KaasBackup, Registry, VolumeAttachment } = await import("../../sdk");
  const cluster = new Kaas("prod", {
    name: "prod",
    location: "ITBG-Bergamo",
    kubernetesVersion: "1.33.2",
    nodeCidr: { address: "10.10.0.0/16", name: "n" },
    nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
    identity: { clientId: "id", clientSecret: "identity-secret" },
  });
  const backup = new KaasBackup("nightly", {
    kaasId: cluster.kaasId,
    name: "nightly",
    location: "ITBG-Bergamo",
  });
  const registry = new Registry("images", { name: "images", location: "ITBG-Bergamo", adminUsername: "ops" });
  const attachment = new VolumeAttachment("data", {
    kaasId: cluster.kaasId,
    nodePoolName: "system",
    nodeId: "n-1",
    volumeUri: "/projects/p/providers/Vendor.Storage/blockStorages/v-1",
  });
  await Promise.all([settle(backup.urn), settle(registry.urn), settle(attachment.urn), settle(cluster.urn)]);

  // Registration order depends on when each resource's inputs resolve: compare sorted by name.
  const byName = [...registered].sort((a, b) => a.name.localeCompare(b.name));
  expect(byName.map((r) => [r.type, r.name, r.inputs.creationScope])).toEqual([
    ["pulumi-nodejs:dynamic/vendor-container:VolumeAttachment", "data", "proj/dev/data"],
    ["pulumi-nodejs:dynamic/vendor-container:Registry", "images", "proj/dev/images"],
    ["pulumi-nodejs:dynamic/vendor-container:KaasBackup", "nightly", "proj/dev/nightly"],
    ["pulumi-nodejs:dynamic/vendor-container:Kaas", "prod", "proj/dev/prod"],
  ]);
  const kaas = registered.find((r) => r.name === "prod")!.inputs;
  // Marked secret by the class (Pulumi's secret signature), so the input is encrypted in state.
  expect(kaas.identity).toEqual({
    "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    value: { clientId: "id", clientSecret: "identity-secret" },
  });
  expect(typeof kaas.__provider).toBe("string");
  expect(kaas.__provider).toContain('require("pulumi-vendor-container/provider")');
  expect(kaas.__provider).not.toContain("identity-secret");
  expect(Object.keys(kaas)).not.toContain("kubeconfig");
});
