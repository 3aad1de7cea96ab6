/**
 * The SDK classes in a preview (Pulumi's mock monitor with `preview: true`): every computed output the
 * provider lists is seeded by the class, so the preview of a create shows it unknown, not absent.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  KAAS_BACKUP_COMPUTED_OUTPUTS,
  KAAS_COMPUTED_OUTPUTS,
  REGISTRY_COMPUTED_OUTPUTS,
} from "../support/output-names";

beforeAll(() => {
  return pulumi.runtime.setMocks(
    {
      // As the engine does for a create in preview: the inputs come back, the computed outputs do not.
      newResource: (args) => ({ id: undefined, state: args.inputs }),
      call: () => ({}),
    },
    "proj",
    "dev",
    true,
  );
});

/** Whether `output` is known, read from the Output itself (an unknown value never reaches `apply`). */
function isKnown(output: unknown): Promise<boolean> {
  return (output as { isKnown: Promise<boolean> }).isKnown;
}

it.each([
  ["Kaas", KAAS_COMPUTED_OUTPUTS],
  ["KaasBackup", KAAS_BACKUP_COMPUTED_OUTPUTS],
  ["Registry", REGISTRY_COMPUTED_OUTPUTS],
])("%s shows every computed output unknown in the preview of a create", async (kind, keys) => {
  const sdk = await import("../../sdk");
  const resource = (kind === "Kaas"
    ? new sdk.Kaas("prod", {
        name: "prod",
        location: "ITBG-Bergamo",
        kubernetesVersion: "1.33.2",
        nodeCidr: { address: "10.10.0.0/16", name: "n" },
        nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
      })
    : kind === "KaasBackup"
      ? new sdk.KaasBackup("nightly", { kaasId: "kaas-1", name: "nightly", location: "ITBG-Bergamo" })
      : new sdk.Registry("images", {
          name: "images",
          location: "ITBG-Bergamo",
          adminUsername: "ops",
        })) as unknown as Record<string, unknown>;
  // Registration (and closure serialization) finishes before any assertion can end the test.
  await new Promise((resolve) => (resource.urn as pulumi.Output<string>).apply(resolve));
  const missing = keys.filter((key) => !pulumi.Output.isInstance(resource[key]));
  expect(missing).toEqual([]);
  const known = await Promise.all(keys.map(async (key) => [key, await isKnown(resource[key])] as const));
  expect(known.filter(([, k]) => k)).toEqual([]);
  // An argument the program set is known in preview: the check above is not trivially true.
  expect(await isKnown(resource.name)).toBe(true);
});
