// The environments of the platform and the settings of each, in one table read by both the command line
// (`environments.ts`) and the shared platform program (`platform/index.ts`): every environment is a stack of
// the same program, and only this table (and the stack config it seeds) tells them apart.

/** The name of a size preset. */
export type SizeName = "small" | "medium" | "ha";

/** A node pool of a preset (the arguments of a `Kaas` node pool). */
export interface PresetPool {
  name: string;
  nodes: number;
  instance: string;
  dataCenter: string;
  autoscaling?: boolean;
  minCount?: number;
  maxCount?: number;
}

/** A size preset: the cluster's pools and high availability, and the registry's size. */
export interface SizePreset {
  description: string;
  ha: boolean;
  nodePools: PresetPool[];
  registrySize: string;
}

/** The size presets: small development clusters, a mid-size staging cluster, a highly available production. */
export const SIZES: Record<SizeName, SizePreset> = {
  small: {
    description: "one small node, no HA (development, pull requests)",
    ha: false,
    nodePools: [{ name: "system", nodes: 1, instance: "K2A4", dataCenter: "ITBG-1" }],
    registrySize: "Small",
  },
  medium: {
    description: "two pools, the workers autoscaling, no HA (staging)",
    ha: false,
    nodePools: [
      { name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" },
      {
        name: "workers",
        nodes: 2,
        instance: "K4A8",
        dataCenter: "ITBG-2",
        autoscaling: true,
        minCount: 1,
        maxCount: 4,
      },
    ],
    registrySize: "Medium",
  },
  ha: {
    description: "highly available control plane, pools in two zones (production)",
    ha: true,
    nodePools: [
      { name: "system", nodes: 3, instance: "K4A8", dataCenter: "ITBG-1" },
      {
        name: "workers",
        nodes: 3,
        instance: "K8A16",
        dataCenter: "ITBG-2",
        autoscaling: true,
        minCount: 3,
        maxCount: 10,
      },
    ],
    registrySize: "HighPerf",
  },
};

/** What sets one environment apart. */
export interface EnvironmentSettings {
  /** Size preset, unless the stack config `size` says otherwise. */
  size: SizeName;
  /** A protected environment's cluster carries Pulumi's `protect` option; destroying it needs `--force`. */
  protect: boolean;
  /** Node CIDR of the cluster: one range per environment. */
  nodeCidr: string;
  /** Kubernetes version, unless the stack config `kubernetesVersion` says otherwise. */
  kubernetesVersion: string;
  /** Region of the cluster and the registry. */
  location: string;
  /**
   * Days the platform's own backup of the cluster keeps, or null for no backup. Production has one: the policy
   * pack's `kaas-backup-required` wants every production cluster backed up in its own stack, at least 7 days.
   */
  backupRetentionDays: number | null;
}

/**
 * The networks that may reach every cluster's API server (`authorizedIpRanges`, which the policy pack's
 * `kaas-authorized-ip-ranges` requires): the team's office and its CI runners. Documentation ranges here
 * (RFC 5737): put your own.
 */
export const AUTHORIZED_IP_RANGES = ["203.0.113.0/24", "198.51.100.0/24"];

const LOCATION = "ITBG-Bergamo";

const FIXED = new Map<string, EnvironmentSettings>([
  [
    "dev",
    {
      size: "small",
      protect: false,
      nodeCidr: "10.10.0.0/16",
      kubernetesVersion: "1.32.5",
      location: LOCATION,
      backupRetentionDays: null,
    },
  ],
  [
    "staging",
    {
      size: "medium",
      protect: false,
      nodeCidr: "10.20.0.0/16",
      kubernetesVersion: "1.32.5",
      location: LOCATION,
      backupRetentionDays: null,
    },
  ],
  [
    "prod",
    {
      size: "ha",
      protect: true,
      nodeCidr: "10.30.0.0/16",
      kubernetesVersion: "1.32.5",
      location: LOCATION,
      backupRetentionDays: 14,
    },
  ],
]);

/** The short-lived environment of a pull request: `pr-<number>`. */
const PULL_REQUEST = /^pr-([1-9]\d{0,5})$/;

/** The settings of an environment: `dev`, `staging`, `prod`, or `pr-<number>` for a pull request. */
export function environmentSettings(name: string): EnvironmentSettings {
  const fixed = FIXED.get(name);
  if (fixed) return fixed;
  const pullRequest = PULL_REQUEST.exec(name);
  if (pullRequest) {
    // Pull request environments are small and get a node range of their own in 10.100.0.0-10.199.255.255.
    const block = 100 + (Number(pullRequest[1]) % 100);
    return {
      size: "small",
      protect: false,
      nodeCidr: `10.${block}.0.0/16`,
      kubernetesVersion: "1.32.5",
      location: LOCATION,
      backupRetentionDays: null,
    };
  }
  throw new Error(`unknown environment "${name}": use dev, staging, prod or pr-<number>`);
}

/** The stack config keys `up --set key=value` may change, and what each value must look like. */
export const SETTABLE: Record<string, { pattern: RegExp; meaning: string }> = {
  size: { pattern: /^(small|medium|ha)$/, meaning: "a size preset: small, medium or ha" },
  kubernetesVersion: { pattern: /^\d+\.\d+\.\d+$/, meaning: "a Kubernetes version such as 1.33.2" },
};

/** The preset named by the stack config `size`, or the environment's own. */
export function sizePreset(name: string): SizePreset {
  if (!Object.prototype.hasOwnProperty.call(SIZES, name)) {
    throw new Error(`unknown size "${name}": ${SETTABLE.size.meaning}`);
  }
  return SIZES[name as SizeName];
}
