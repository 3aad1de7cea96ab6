// The arguments of the benchmark's resources: the same for our `Kaas` and for the baseline's minimal dynamic
// resource, as a user writes them (a cluster with two node pools of two nodes, one of them autoscaling).
"use strict";

/** @param {string} name */
exports.clusterArgs = (name) => ({
  name,
  location: "ITBG-Bergamo",
  kubernetesVersion: "1.32.5",
  tags: ["team-a", "env-bench"],
  nodeCidr: { address: "10.10.0.0/16", name: `${name}-nodes` },
  nodePools: [
    { name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" },
    {
      name: "pool-1",
      nodes: 2,
      instance: "K8A16",
      dataCenter: "ITBG-2",
      autoscaling: true,
      minCount: 1,
      maxCount: 4,
    },
  ],
  maxCumulativeVolumeSize: 100,
  billingPeriod: "Month",
});

/** Names of the `count` resources of a stack (config `bench:count`). */
exports.names = (count) => Array.from({ length: count }, (_, i) => `c${String(i).padStart(3, "0")}`);
