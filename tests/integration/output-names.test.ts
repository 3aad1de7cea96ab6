/**
 * Every argument a program gives can be read back as an output: the names each provider
 * returns for a created resource, with every argument set, are the names the SDK classes declare
 * (tests/unit/sdk-types.test.ts checks the classes against the same literal lists).
 */
import { checked, kaasBody, pool, startHarness, PROJECT, type Harness } from "./support/harness";
import {
  KAAS_BACKUP_OUTPUTS,
  KAAS_OUTPUTS,
  REGISTRY_OUTPUTS,
  VOLUME_ATTACHMENT_OUTPUTS,
} from "../support/output-names";

let h: Harness;

beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const NETWORK = `/projects/${PROJECT}/providers/Vendor.Network`;
const VPC = `${NETWORK}/vpcs/vpc-7`;
const SUBNET = `${VPC}/subnets/sn-7`;
const TIMEOUTS = { create: "10m", update: "10m", delete: "10m" };

/** The bookkeeping the SDK classes do not declare: set by the class or by `check`, not by a program. */
const BOOKKEEPING = ["creationScope", "creationToken", "adoptId", "adoptFromScope"];

/** The output names of one create through the provider (check, then create), bookkeeping left out. */
async function outputNames(
  kind: Parameters<Harness["kind"]>[0],
  args: Record<string, unknown>,
): Promise<string[]> {
  const provider = h.kind(kind);
  const { outs } = await provider.create(await checked(provider, {}, args));
  return Object.keys(outs).filter((name) => !BOOKKEEPING.includes(name));
}

/** The names of several creates (a network given, or created by `preset`), sorted. */
const union = (...lists: string[][]) => [...new Set(lists.flat())].sort();

/** An Active cluster made directly through the client, for the kinds that take a `kaasId`. */
async function activeCluster(): Promise<string> {
  const created = await h.client.call(
    "createKaas",
    { projectId: PROJECT },
    kaasBody("prod", {
      nodePools: [pool("system", { nodes: 2, instance: "K4A8" })],
      storage: { maxCumulativeVolumeSize: 100 },
    }),
  );
  const id = created.metadata.id;
  await h.client.waitUntilSettled(() => h.client.find("getKaas", { projectId: PROJECT, id }), {
    what: "cluster",
    path: `/kaas/${id}`,
    deadline: Date.now() + 10_000,
  });
  return id;
}

it("returns every Kaas argument a program sets, and the computed values, as outputs", async () => {
  const common = {
    location: "ITBG-Bergamo",
    tags: ["team-a"],
    kubernetesVersion: "1.32.5",
    upgradeDate: "2099-01-01T00:00:00Z",
    nodePools: [{ name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" }],
    ha: true,
    maxCumulativeVolumeSize: 500,
    billingPeriod: "Month",
    identity: { clientId: "identity-id", clientSecret: "identity-secret" },
    authorizedIpRanges: ["203.0.113.0/24"],
    enablePrivateCluster: false,
    autoscalerProfile: { scaleDownDelay: "10m" },
    deleteOnCascade: true,
    timeouts: TIMEOUTS,
  };
  const byPreset = await outputNames("Kaas", {
    ...common,
    name: "prod",
    preset: true,
    nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
    podCidr: "192.168.0.0/16",
    securityGroupName: "prod-sg",
    creationScope: "proj/dev/prod",
  });
  const inNetwork = await outputNames("Kaas", {
    ...common,
    name: "stage",
    vpcUri: VPC,
    subnetUri: SUBNET,
    nodeCidr: { address: "10.20.0.0/16", name: "stage-nodes" },
    creationScope: "proj/dev/stage",
  });
  expect(union(byPreset, inNetwork)).toEqual([...KAAS_OUTPUTS].sort());
});

it("returns every KaasBackup argument a program sets, and the computed values, as outputs", async () => {
  const kaasId = await activeCluster();
  const names = await outputNames("KaasBackup", {
    kaasId,
    name: "nightly",
    location: "ITBG-Bergamo",
    tags: ["team-a"],
    type: "Full",
    retentionDays: 7,
    billingPeriod: "Month",
    timeouts: TIMEOUTS,
    creationScope: "proj/dev/nightly",
  });
  expect(union(names)).toEqual([...KAAS_BACKUP_OUTPUTS].sort());
});

it("returns every Registry argument a program sets, and the computed values, as outputs", async () => {
  const common = {
    location: "ITBG-Bergamo",
    tags: ["team-a"],
    size: "Small",
    adminUsername: "ops",
    billingPeriod: "Month",
    publicIpUri: `${NETWORK}/elasticIps/ip-1`,
    adminPasswordResetTrigger: "2026-11",
    timeouts: TIMEOUTS,
  };
  const byPreset = await outputNames("Registry", {
    ...common,
    name: "images",
    preset: true,
    creationScope: "proj/dev/images",
  });
  const inNetwork = await outputNames("Registry", {
    ...common,
    name: "charts",
    preset: false,
    vpcUri: VPC,
    subnetUri: SUBNET,
    securityGroupUri: `${NETWORK}/securityGroups/sg-7`,
    blockStorageUri: `/projects/${PROJECT}/providers/Vendor.Storage/blockStorages/bs-7`,
    creationScope: "proj/dev/charts",
  });
  expect(union(byPreset, inNetwork)).toEqual([...REGISTRY_OUTPUTS].sort());
});

it("returns every VolumeAttachment argument a program sets, and the computed values, as outputs", async () => {
  const kaasId = await activeCluster();
  const names = await outputNames("VolumeAttachment", {
    kaasId,
    nodePoolName: "system",
    nodeId: `${kaasId}-system-1`,
    volumeUri: `/projects/${PROJECT}/providers/Vendor.Storage/blockStorages/vol-1`,
    timeouts: { create: "10m", delete: "10m" },
    creationScope: "proj/dev/data",
  });
  expect(union(names)).toEqual([...VOLUME_ATTACHMENT_OUTPUTS].sort());
});
