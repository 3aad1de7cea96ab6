// The examples of the resource reference pages (scripts/resource-docs.mjs), one input object per resource and
// function: the generator writes each one in TypeScript, Python and YAML, and runs the kind's `check` on it,
// which must accept it. `refusals` are changes to the example that `check` refuses: each page shows them with
// the reasons `check` gives, so a probe that `check` stops refusing fails the generator. Every required input
// left out, and a project neither set nor configured, are probed without being listed here.

/** The project the checks take as configured (`vendor-container:projectId`), and their clock. */
export const CHECK_CONTEXT = { defaultProjectId: "my-project", now: Date.parse("2026-06-01T00:00:00Z") };

/**
 * By kind: the resource's name in the program, its arguments, the output the program exports, and the
 * refusals. A refusal sets inputs (`set`; `undefined` removes one), can start from a state (`olds`: the
 * example with these inputs, as the last `up` recorded it) and can declare the account's limits (`limits`,
 * the JSON object of `vendor-container:limits`).
 */
export const RESOURCE_EXAMPLES = {
  Kaas: {
    resourceName: "prod",
    args: {
      name: "prod",
      location: "ITBG-Bergamo",
      kubernetesVersion: "1.33.2",
      nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
      nodePools: [
        { name: "system", nodes: 3, instance: "K4A8", dataCenter: "ITBG-1" },
        {
          name: "workers",
          nodes: 3,
          instance: "K4A8",
          dataCenter: "ITBG-1",
          autoscaling: true,
          minCount: 2,
          maxCount: 10,
        },
      ],
      ha: true,
      timeouts: { create: "1h" },
    },
    output: "kaasId",
    refusals: [
      { set: { nodeCidr: { address: "8.8.8.0/24", name: "prod-nodes" } } },
      { set: { podCidr: "10.244.0.0" } },
      { set: { preset: true, vpcUri: "/projects/my-project/providers/Vendor.Network/vpcs/vpc-1" } },
      { set: { preset: false } },
      { set: { kubernetesVersion: "latest" } },
      { olds: { kubernetesVersion: "1.33.2" }, set: { kubernetesVersion: "1.32.5" } },
      { olds: { ha: true }, set: { ha: false } },
      { set: { upgradeDate: "2026-01-15T02:00:00Z" } },
      { set: { nodePools: [] } },
      {
        set: {
          nodePools: [
            { name: "system", nodes: 3, instance: "K4A8", dataCenter: "ITBG-1" },
            { name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-2" },
          ],
        },
      },
      {
        set: {
          nodePools: [
            {
              name: "workers",
              nodes: 12,
              instance: "K4A8",
              dataCenter: "ITBG-1",
              autoscaling: true,
              minCount: 2,
              maxCount: 10,
            },
          ],
        },
      },
      {
        set: {
          nodePools: [{ name: "system", nodes: 3, instance: "K4A8", dataCenter: "ITBG-1", minCount: 1 }],
        },
      },
      { set: { tags: ["pulumi-ct-mine"] } },
      { set: { billingPeriod: "Week" } },
      {
        limits: { maxNode: 5 },
        set: { nodePools: [{ name: "system", nodes: 8, instance: "K4A8", dataCenter: "ITBG-1" }] },
      },
      {
        limits: { maxWhitelistCount: 1 },
        set: { authorizedIpRanges: ["203.0.113.0/24", "198.51.100.0/24"] },
      },
    ],
  },
  KaasBackup: {
    resourceName: "nightly",
    args: { kaasId: "kaas-0001", name: "nightly", location: "ITBG-Bergamo", retentionDays: 14 },
    output: "backupId",
    refusals: [{ set: { retentionDays: 0 } }, { set: { name: "n".repeat(64) } }],
  },
  Registry: {
    resourceName: "images",
    args: {
      name: "images",
      location: "ITBG-Bergamo",
      adminUsername: "ops",
      size: "Small",
      billingPeriod: "Month",
    },
    output: "publicBaseUrl",
    refusals: [
      { set: { adminUsername: "admin" } },
      { set: { adminUsername: "Ops" } },
      { set: { preset: false } },
      { set: { vpcUri: "/projects/my-project/providers/Vendor.Network/vpcs/vpc-1" } },
      { set: { billingPeriod: "Week" } },
      { set: { timeouts: { create: "soon" } } },
    ],
  },
  VolumeAttachment: {
    resourceName: "data",
    args: {
      kaasId: "kaas-0001",
      nodePoolName: "system",
      nodeId: "prod-system-0",
      volumeUri: "/projects/my-project/providers/Vendor.Storage/blockStorages/data-1",
    },
    output: "verification",
    refusals: [{ set: { volumeUri: "data-1" } }, { set: { adoptId: "kaas-0001:data-1" } }],
  },
};

/** By function: the variable the program binds the result to, the arguments, the result property exported. */
export const FUNCTION_EXAMPLES = {
  getKaas: { variable: "cluster", args: { kaasId: "kaas-0001" }, output: "state" },
  listKaas: { variable: "active", args: { filter: 'status.state:eq("Active")' }, output: "items" },
  getKubeconfig: { variable: "access", args: { kaasId: "kaas-0001" }, output: "kubeconfig" },
  listBackups: { variable: "backups", args: { kaasId: "kaas-0001" }, output: "items" },
  getRegistry: { variable: "images", args: { registryId: "registry-0001" }, output: "publicBaseUrl" },
  listRegistries: { variable: "registries", args: { loadEngineVersion: true }, output: "items" },
};
