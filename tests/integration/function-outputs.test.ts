/**
 * The `...Output` form of every function, against the emulator: it takes Inputs (plain values, Promises, the
 * Outputs of other resources) and returns an Output of exactly what the Promise form returns. A secret input
 * keeps the result secret, `getKubeconfigOutput` is always secret, and an input still unknown in a preview
 * (the id of a cluster not created yet) leaves the result unknown without calling the service.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  getKaas,
  getKaasOutput,
  getKubeconfig,
  getKubeconfigOutput,
  getRegistry,
  getRegistryOutput,
  listBackups,
  listBackupsOutput,
  listKaas,
  listKaasOutput,
  listRegistries,
  listRegistriesOutput,
  type FunctionOptions,
} from "../../sdk";
import { Kaas } from "../../sdk/kaas";
import { checked, startHarness, PROJECT, TOKEN, type Harness } from "./support/harness";

let h: Harness;
let options: FunctionOptions;
let kaasId: string;
let registryId: string;

beforeAll(async () => {
  // A preview, as the engine runs it: a cluster declared in the program has no id yet.
  await pulumi.runtime.setMocks(
    { newResource: (args) => ({ id: undefined, state: args.inputs }), call: () => ({}) },
    "proj",
    "dev",
    true,
  );
  h = await startHarness();
  options = { settings: { baseUrl: h.url, token: TOKEN, projectId: PROJECT } };
  const kaas = h.kind("Kaas");
  kaasId = (
    await kaas.create(
      await checked(
        kaas,
        {},
        {
          name: "alpha",
          location: "ITBG-Bergamo",
          kubernetesVersion: "1.32.5",
          nodeCidr: { address: "10.10.0.0/16", name: "n" },
          nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
          creationScope: "proj/dev/alpha",
        },
      ),
    )
  ).id;
  const backups = h.kind("KaasBackup");
  await backups.create(
    await checked(
      backups,
      {},
      { kaasId, name: "b1", location: "ITBG-Bergamo", creationScope: "proj/dev/b1" },
    ),
  );
  const registries = h.kind("Registry");
  registryId = (
    await registries.create(
      await checked(
        registries,
        {},
        { name: "images", location: "ITBG-Bergamo", adminUsername: "ops", creationScope: "proj/dev/images" },
      ),
    )
  ).id;
});
afterAll(async () => {
  await h.close();
});

/** An Output's parts, as the engine reads them. */
function parts<T>(output: pulumi.Output<T>) {
  return output as unknown as {
    promise(withUnknowns?: boolean): Promise<T>;
    isKnown: Promise<boolean>;
    isSecret: Promise<boolean>;
  };
}

/** What an Output holds: its value, whether it is known, whether it is secret. */
async function settled<T>(
  output: pulumi.Output<T>,
): Promise<{ value: T | undefined; known: boolean; secret: boolean }> {
  const inner = parts(output);
  const [value, known, secret] = await Promise.all([inner.promise(), inner.isKnown, inner.isSecret]);
  return { value: known ? value : undefined, known, secret };
}

/** An Output of `value` that resolves later, as another resource's output does. */
const later = (value: string): pulumi.Output<string> =>
  pulumi.output(new Promise<string>((resolve) => setTimeout(() => resolve(value), 10)));

it.each([
  [
    "getKaasOutput",
    () => getKaasOutput({ kaasId: later(kaasId) }, options),
    () => getKaas({ kaasId }, options),
  ],
  [
    "listKaasOutput",
    () => listKaasOutput({ filter: later('metadata.name:eq("alpha")') }, options),
    () => listKaas({ filter: 'metadata.name:eq("alpha")' }, options),
  ],
  [
    "listBackupsOutput",
    () => listBackupsOutput({ kaasId: later(kaasId), sort: "metadata.name" }, options),
    () => listBackups({ kaasId, sort: "metadata.name" }, options),
  ],
  [
    "getRegistryOutput",
    () => getRegistryOutput({ registryId: later(registryId) }, options),
    () => getRegistry({ registryId }, options),
  ],
  [
    "listRegistriesOutput",
    () => listRegistriesOutput({ loadEngineVersion: Promise.resolve(true) }, options),
    () => listRegistries({ loadEngineVersion: true }, options),
  ],
] as [string, () => pulumi.Output<unknown>, () => Promise<unknown>][])(
  "%s takes Inputs and holds what the Promise form returns, not secret",
  async (_name, outputForm, promiseForm) => {
    const expected = await promiseForm();
    expect(expected).not.toEqual([]);
    expect(await settled(outputForm())).toEqual({ value: expected, known: true, secret: false });
  },
);

it("getKubeconfigOutput holds the kubeconfig as a secret", async () => {
  const result = await settled(getKubeconfigOutput({ kaasId: later(kaasId) }, options));
  expect(result).toEqual({ value: await getKubeconfig({ kaasId }, options), known: true, secret: true });
  expect(result.value).toContain(h.emulator.kubeconfigToken(kaasId));
});

it("a secret input makes the result secret", async () => {
  const result = await settled(getKaasOutput({ kaasId: pulumi.secret(kaasId) }, options));
  expect(result).toMatchObject({ known: true, secret: true });
  expect((result.value as { kaasId: string }).kaasId).toBe(kaasId);
});

it("an input unknown in a preview leaves the result unknown and calls nothing", async () => {
  const cluster = new Kaas("beta", {
    name: "beta",
    location: "ITBG-Bergamo",
    kubernetesVersion: "1.33.2",
    nodeCidr: { address: "10.20.0.0/16", name: "n" },
    nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
  });
  // Registration (and closure serialization) finishes before the assertions.
  await new Promise((resolve) => cluster.urn.apply(resolve));
  h.emulator.clearRequests();
  expect(await settled(getKaasOutput({ kaasId: cluster.kaasId }, options))).toEqual({
    value: undefined,
    known: false,
    secret: false,
  });
  expect(await settled(getKubeconfigOutput({ kaasId: cluster.kaasId }, options))).toEqual({
    value: undefined,
    known: false,
    secret: true,
  });
  expect(h.emulator.requests()).toEqual([]);
});

it("a service error rejects the Output with the Promise form's error", async () => {
  const expected = await getKaas({ kaasId: "kaas-9999" }, options).catch((error: Error) => error.message);
  expect(expected).toBe(
    'GET /kaas/kaas-9999 failed (404 Not Found): Resource not found: KaaS "kaas-9999" was not found.',
  );
  const inner = parts(getKaasOutput({ kaasId: later("kaas-9999") }, options));
  // Every part of the Output fails with the error: a program that uses it fails as the Promise form would.
  const results = await Promise.allSettled([inner.promise(), inner.isKnown, inner.isSecret]);
  expect(results.map((r) => (r.status === "rejected" ? (r.reason as Error).message : r.status))).toEqual([
    expected,
    expected,
    expected,
  ]);
});
