/** The data-source functions against the emulator, with the same configuration as the resources. */
import { getKaas, getKubeconfig, getRegistry, listBackups, listKaas, listRegistries } from "../../sdk";
import { checked, startHarness, PROJECT, TOKEN, type Harness } from "./support/harness";

let h: Harness;
let options: { settings: { baseUrl: string; token: string; projectId: string } };
const clusterIds: string[] = [];
let registryId: string;

beforeAll(async () => {
  h = await startHarness();
  options = { settings: { baseUrl: h.url, token: TOKEN, projectId: PROJECT } };
  const kaas = h.kind("Kaas");
  // More clusters than one page of the emulator (default 25) would need if pages were small: use 3 and a
  // page size test below through the client; here the functions iterate every page whatever the size.
  for (const name of ["alpha", "beta", "gamma"]) {
    const inputs = await checked(
      kaas,
      {},
      {
        name,
        location: "ITBG-Bergamo",
        kubernetesVersion: "1.32.5",
        nodeCidr: { address: "10.10.0.0/16", name: "n" },
        nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
        tags: [`team:${name === "gamma" ? "b" : "a"}`],
        creationScope: `proj/dev/${name}`,
      },
    );
    clusterIds.push((await kaas.create(inputs)).id);
  }
  const backups = h.kind("KaasBackup");
  for (const name of ["b1", "b2"]) {
    await backups.create(
      await checked(
        backups,
        {},
        { kaasId: clusterIds[0], name, location: "ITBG-Bergamo", creationScope: `proj/dev/${name}` },
      ),
    );
  }
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

it("getKaas reads one cluster", async () => {
  const info = await getKaas({ kaasId: clusterIds[1] }, options);
  expect(info).toMatchObject({
    kaasId: clusterIds[1],
    name: "beta",
    state: "Active",
    location: "ITBG-Bergamo",
  });
  expect(info).not.toHaveProperty("kubeconfig");
});

it("listKaas iterates all pages and passes filter and sort through", async () => {
  // A filter of the user's own is passed to the service as it is: this one must honour it.
  h.emulator.updateConfig({ wire: { filters: "membership" } });
  expect((await listKaas({}, options)).map((k) => k.name).sort()).toEqual(["alpha", "beta", "gamma"]);
  expect(
    (await listKaas({ filter: 'metadata.tags:eq("team:a")', sort: "-metadata.name" }, options)).map(
      (k) => k.name,
    ),
  ).toEqual(["beta", "alpha"]);
});

it("getKubeconfig downloads the decoded kubeconfig", async () => {
  const kubeconfig = await getKubeconfig({ kaasId: clusterIds[0] }, options);
  expect(kubeconfig).toContain("apiVersion: v1");
  expect(kubeconfig).toContain(h.emulator.kubeconfigToken(clusterIds[0]));
});

it("listBackups lists a cluster's backups", async () => {
  const backups = await listBackups({ kaasId: clusterIds[0] }, options);
  expect(backups.map((b) => b.name).sort()).toEqual(["b1", "b2"]);
  expect(backups[0].cluster?.id).toBe(clusterIds[0]);
});

it("getRegistry reads a registry; listRegistries loads the engine version on request", async () => {
  expect(await getRegistry({ registryId }, options)).toMatchObject({
    registryId,
    name: "images",
    adminUsername: "ops",
    engineVersion: null,
  });
  const [withVersion] = await listRegistries({ loadEngineVersion: true }, options);
  expect(withVersion.engineVersion).toEqual(expect.any(String));
  const [withoutVersion] = await listRegistries({}, options);
  expect(withoutVersion.engineVersion).toBeNull();
});

it("names the missing project id", async () => {
  await expect(
    getKaas({ kaasId: "x" }, { settings: { ...options.settings, projectId: undefined } }),
  ).rejects.toThrow(
    "projectId is required: pass it, or set stack config vendor:projectId or VENDOR_PROJECT_ID",
  );
});
