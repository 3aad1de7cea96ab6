/**
 * The `declaredBefore` input the VolumeAttachment class gives each attachment (provider/volumeAttachment/claims.ts):
 * the attachments the program declared before it with the same volume (path or full URL) and cluster, in the
 * program's order, with their declared project and node. Registered through Pulumi's mock monitor.
 */
import * as pulumi from "@pulumi/pulumi";

const VOLUME = "/projects/p-1/providers/Vendor.Storage/blockStorages/v-1";
const OTHER_VOLUME = "/projects/p-1/providers/Vendor.Storage/blockStorages/v-2";

const registered = new Map<string, Record<string, unknown>>();

beforeAll(() => {
  return pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.set(args.name, args.inputs as Record<string, unknown>);
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "proj",
    "dev",
    false,
  );
});

/** Resolves once `output` has a value: its resource has reached the mock monitor. */
const settle = <T>(output: pulumi.Output<T>): Promise<T> =>
  new Promise((resolve) => output.apply((value) => resolve(value)));

it("gives each attachment the earlier ones of its volume and cluster, in the program's order", async () => {
  const { VolumeAttachment } = await import("../../sdk");
  const at = (kaasId: pulumi.Input<string>, volumeUri: string, nodeId: string, extra: object = {}) => ({
    kaasId,
    nodePoolName: "system",
    nodeId,
    volumeUri,
    ...extra,
  });
  const declared = [
    new VolumeAttachment("data", at("kaas-1", VOLUME, "node-1")),
    new VolumeAttachment("other-volume", at("kaas-1", OTHER_VOLUME, "node-1")),
    VolumeAttachment.get("read-only", `kaas-1:${VOLUME}`),
    // The same volume as a full URL, and a cluster id that is an output: the same attachment.
    new VolumeAttachment(
      "dup",
      at(pulumi.output("kaas-1"), `https://storage.example.com${VOLUME}`, "node-2", { projectId: "p-1" }),
    ),
    new VolumeAttachment("other-cluster", at("kaas-2", VOLUME, "node-1")),
    new VolumeAttachment("third", at("kaas-1", VOLUME, "node-3", { nodePoolName: "workers" })),
  ];
  await Promise.all(declared.map((resource) => settle(resource.urn)));

  const data = { scope: "proj/dev/data", projectId: null, nodePoolName: "system", nodeId: "node-1" };
  const dup = { scope: "proj/dev/dup", projectId: "p-1", nodePoolName: "system", nodeId: "node-2" };
  expect(
    Object.fromEntries(
      ["data", "other-volume", "read-only", "dup", "other-cluster", "third"].map((name) => [
        name,
        registered.get(name)?.declaredBefore,
      ]),
    ),
  ).toEqual({
    data: [],
    "other-volume": [],
    "read-only": undefined,
    dup: [data],
    "other-cluster": [],
    third: [data, dup],
  });
});
