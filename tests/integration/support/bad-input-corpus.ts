/**
 * The bad-input corpus: invalid argument sets across the four kinds, each with exactly the `{property, reason}`
 * failures `check` must hand the engine: a top-level argument with a short scalar value by its property, any
 * other failure as one of the whole resource that names its path (`whole`). Used by the provider-level test
 * (`reliability-bad-input.test.ts`) and, through `pulumi preview`, by the end-to-end suite.
 */
import type { Inputs } from "../../../provider/common/check";
import type { KindName } from "../../../provider";
import { attachmentArgs, backupArgs, clusterArgs, registryArgs } from "./engine";
import { DATA_VOLUME, SYSTEM_POOL, WORKER_POOL } from "../../support/world";

const KAAS_ALLOWED =
  "projectId, name, location, tags, preset, vpcUri, subnetUri, nodeCidr, podCidr, securityGroupName, " +
  "kubernetesVersion, upgradeDate, nodePools, ha, maxCumulativeVolumeSize, billingPeriod, identity, " +
  "authorizedIpRanges, enablePrivateCluster, autoscalerProfile, deleteOnCascade, timeouts, adoptId, " +
  "adoptFromScope, creationScope, creationToken, trackedId";
const BACKUP_ALLOWED =
  "projectId, kaasId, name, location, tags, type, retentionDays, billingPeriod, timeouts, adoptId, " +
  "adoptFromScope, creationScope, creationToken, trackedId";
const REGISTRY_ALLOWED =
  "projectId, name, location, tags, preset, vpcUri, subnetUri, securityGroupUri, publicIpUri, " +
  "blockStorageUri, size, adminUsername, billingPeriod, adminPasswordResetTrigger, timeouts, adoptId, " +
  "adoptFromScope, creationScope, creationToken, trackedId";
const ATTACHMENT_ALLOWED =
  "projectId, kaasId, nodePoolName, nodeId, volumeUri, timeouts, adoptId, creationScope";
const POOL_ALLOWED = "name, nodes, instance, dataCenter, autoscaling, minCount, maxCount";
const POOL_NAME_HINT =
  "must be 1-40 lower-case letters, digits or '-', starting and ending with a letter or digit";
const CIDR = (v: string) => `must be an IPv4 CIDR like 10.0.0.0/16, got "${v}"`;
const PRIVATE = (v: string) => `must lie within 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, got "${v}"`;
const DURATION = (v: string) => `must be a duration like "40m", "1h30m" or "90s", got ${v}`;
const RESERVED_TAG = 'must not start with "pulumi-ct-" (reserved)';
export const HA_REFUSED =
  "cannot be disabled: the service cannot turn high availability off once enabled, and replacing the cluster would destroy it; keep ha: true";
const VOLUME_HINT =
  "must be a block storage URI like /projects/<project>/providers/Vendor.Storage/blockStorages/<id>";
const ADMIN_HINT = "must be 3-32 lower-case letters, digits, '_' or '-', starting with a letter";

export const KAAS_ID = "kaas-0001";
export const NODE = "kaas-0001-system-1";

/** `clusterArgs()` without `key`. */
export const clusterWithout = (key: string): Inputs => {
  const args = clusterArgs();
  delete args[key];
  return args;
};
export const without = (args: Inputs, key: string): Inputs => {
  const copy = { ...args };
  delete copy[key];
  return copy;
};

/**
 * A failure of the whole resource, as the engine gets one for a nested path, a list or object, a missing or
 * long value or a credential (provider/common/engineFailures.ts): `at` is the path, with ` = <value>` where the
 * reason does not quote the value itself.
 */
const whole = (at: string, reason: string) => ({ property: "", reason: `${at}: ${reason}` });

/** One invalid argument set. */
export interface BadInput {
  label: string;
  kind: KindName;
  news: Inputs;
  failures: { property: string; reason: string }[];
  /** Old inputs (an update); `{}` (a create) when absent. */
  olds?: Inputs;
}

/** The corpus. */
export const CORPUS: BadInput[] = [
  // ---- Kaas: types and unknown arguments ----
  {
    label: "Kaas name of the wrong type",
    kind: "Kaas",
    news: clusterArgs({ name: 42 }),
    failures: [{ property: "name", reason: "must be a string, got number" }],
  },
  {
    label: "Kaas projectId of the wrong type",
    kind: "Kaas",
    news: clusterArgs({ projectId: 5 }),
    failures: [{ property: "projectId", reason: "must be a string, got number" }],
  },
  {
    label: "Kaas unknown argument",
    kind: "Kaas",
    news: clusterArgs({ region: "eu" }),
    failures: [{ property: "region", reason: `is not a known argument (allowed: ${KAAS_ALLOWED})` }],
  },
  {
    label: "Kaas ha of the wrong type",
    kind: "Kaas",
    news: clusterArgs({ ha: "yes" }),
    failures: [{ property: "ha", reason: "must be a boolean, got string" }],
  },
  {
    label: "Kaas enablePrivateCluster of the wrong type",
    kind: "Kaas",
    news: clusterArgs({ enablePrivateCluster: "true" }),
    failures: [{ property: "enablePrivateCluster", reason: "must be a boolean, got string" }],
  },
  {
    label: "Kaas storage cap of zero",
    kind: "Kaas",
    news: clusterArgs({ maxCumulativeVolumeSize: 0 }),
    failures: [{ property: "maxCumulativeVolumeSize", reason: "must be between 1 and 2147483647, got 0" }],
  },
  {
    label: "Kaas storage cap as a string",
    kind: "Kaas",
    news: clusterArgs({ maxCumulativeVolumeSize: "500" }),
    failures: [{ property: "maxCumulativeVolumeSize", reason: "must be an integer, got string" }],
  },
  {
    label: "Kaas billing period not in the enum",
    kind: "Kaas",
    news: clusterArgs({ billingPeriod: "Weekly" }),
    failures: [{ property: "billingPeriod", reason: 'must be one of Hour, Month, Year, got "Weekly"' }],
  },
  {
    label: "Kaas identity with an unknown field",
    kind: "Kaas",
    news: clusterArgs({ identity: { clientId: "id", secret: "s3cr3t-value" } }),
    failures: [
      whole("identity.secret = [secret]", "is not a known argument (allowed: clientId, clientSecret)"),
    ],
  },
  {
    label: "Kaas identity clientSecret of the wrong type",
    kind: "Kaas",
    news: clusterArgs({ identity: { clientId: "id", clientSecret: 1234 } }),
    failures: [whole("identity.clientSecret = [secret]", "must be a string, got number")],
  },
  // ---- Kaas: required arguments ----
  {
    label: "Kaas without name",
    kind: "Kaas",
    news: clusterWithout("name"),
    failures: [whole("name", "is required")],
  },
  {
    label: "Kaas with a blank name",
    kind: "Kaas",
    news: clusterArgs({ name: "   " }),
    failures: [{ property: "name", reason: "must not be empty" }],
  },
  {
    label: "Kaas name longer than 63 characters",
    kind: "Kaas",
    news: clusterArgs({ name: "c".repeat(64) }),
    failures: [{ property: "name", reason: "must be at most 63 characters" }],
  },
  {
    label: "Kaas without location",
    kind: "Kaas",
    news: clusterWithout("location"),
    failures: [whole("location", "is required")],
  },
  {
    label: "Kaas without kubernetesVersion",
    kind: "Kaas",
    news: clusterWithout("kubernetesVersion"),
    failures: [whole("kubernetesVersion", "is required")],
  },
  {
    label: "Kaas version that is not a version",
    kind: "Kaas",
    news: clusterArgs({ kubernetesVersion: "v1.33" }),
    failures: [{ property: "kubernetesVersion", reason: "must be a version like 1.33.2" }],
  },
  {
    label: "Kaas without nodeCidr",
    kind: "Kaas",
    news: clusterWithout("nodeCidr"),
    failures: [whole("nodeCidr", "is required")],
  },
  {
    label: "Kaas nodeCidr without name",
    kind: "Kaas",
    news: clusterArgs({ nodeCidr: { address: "10.20.0.0/16" } }),
    failures: [whole("nodeCidr.name", "is required")],
  },
  {
    label: "Kaas nodeCidr with an unknown field",
    kind: "Kaas",
    news: clusterArgs({ nodeCidr: { address: "10.20.0.0/16", name: "n", gateway: "10.20.0.1" } }),
    failures: [whole('nodeCidr.gateway = "10.20.0.1"', "is not a known argument (allowed: address, name)")],
  },
  // ---- Kaas: CIDRs ----
  {
    label: "Kaas nodeCidr with a prefix above 32",
    kind: "Kaas",
    news: clusterArgs({ nodeCidr: { address: "10.20.0.0/33", name: "n" } }),
    failures: [whole("nodeCidr.address", CIDR("10.20.0.0/33"))],
  },
  {
    label: "Kaas nodeCidr with three octets",
    kind: "Kaas",
    news: clusterArgs({ nodeCidr: { address: "10.20.0/16", name: "n" } }),
    failures: [whole("nodeCidr.address", CIDR("10.20.0/16"))],
  },
  {
    label: "Kaas nodeCidr in a public range",
    kind: "Kaas",
    news: clusterArgs({ nodeCidr: { address: "8.8.0.0/16", name: "n" } }),
    failures: [whole("nodeCidr.address", PRIVATE("8.8.0.0/16"))],
  },
  {
    label: "Kaas nodeCidr just above 172.16.0.0/12",
    kind: "Kaas",
    news: clusterArgs({ nodeCidr: { address: "172.32.0.0/16", name: "n" } }),
    failures: [whole("nodeCidr.address", PRIVATE("172.32.0.0/16"))],
  },
  {
    label: "Kaas nodeCidr wider than 10.0.0.0/8",
    kind: "Kaas",
    news: clusterArgs({ nodeCidr: { address: "10.0.0.0/7", name: "n" } }),
    failures: [whole("nodeCidr.address", PRIVATE("10.0.0.0/7"))],
  },
  {
    label: "Kaas nodeCidr wider than 192.168.0.0/16",
    kind: "Kaas",
    news: clusterArgs({ nodeCidr: { address: "192.168.0.0/15", name: "n" } }),
    failures: [whole("nodeCidr.address", PRIVATE("192.168.0.0/15"))],
  },
  {
    label: "Kaas podCidr that is not a CIDR",
    kind: "Kaas",
    news: clusterArgs({ podCidr: "not-a-cidr" }),
    failures: [{ property: "podCidr", reason: CIDR("not-a-cidr") }],
  },
  {
    label: "Kaas authorized range with an octet above 255",
    kind: "Kaas",
    news: clusterArgs({ authorizedIpRanges: ["192.168.10.0/24", "300.1.1.1/32"] }),
    failures: [whole("authorizedIpRanges[1]", CIDR("300.1.1.1/32"))],
  },
  {
    label: "Kaas authorized ranges as a string",
    kind: "Kaas",
    news: clusterArgs({ authorizedIpRanges: "192.168.10.0/24" }),
    failures: [{ property: "authorizedIpRanges", reason: "must be a list of strings, got string" }],
  },
  // ---- Kaas: network choice ----
  {
    label: "Kaas preset together with a VPC and subnet",
    kind: "Kaas",
    news: clusterArgs({ preset: true, vpcUri: "/vpcs/v-1", subnetUri: "/subnets/s-1" }),
    failures: [
      {
        property: "preset",
        reason: "cannot be true together with vpcUri or subnetUri: the service would create its own VPC",
      },
    ],
  },
  {
    label: "Kaas vpcUri without subnetUri",
    kind: "Kaas",
    news: clusterArgs({ vpcUri: "/vpcs/v-1" }),
    failures: [whole("subnetUri", "is required together with vpcUri")],
  },
  // ---- Kaas: node pools ----
  {
    label: "Kaas without node pools",
    kind: "Kaas",
    news: clusterWithout("nodePools"),
    failures: [whole("nodePools", "is required: at least one node pool")],
  },
  {
    label: "Kaas with an empty pool list",
    kind: "Kaas",
    news: clusterArgs({ nodePools: [] }),
    failures: [whole("nodePools", "must have at least one node pool")],
  },
  {
    label: "Kaas pools as an object",
    kind: "Kaas",
    news: clusterArgs({ nodePools: { system: SYSTEM_POOL } }),
    failures: [whole("nodePools", "must be a list of node pools")],
  },
  {
    label: "Kaas with duplicate pool names",
    kind: "Kaas",
    news: clusterArgs({ nodePools: [SYSTEM_POOL, { ...SYSTEM_POOL, dataCenter: "ITBG-2" }] }),
    failures: [whole("nodePools[1].name", 'duplicates the pool name "system"')],
  },
  {
    label: "Kaas autoscaling pool above maxCount",
    kind: "Kaas",
    news: clusterArgs({ nodePools: [SYSTEM_POOL, { ...WORKER_POOL, nodes: 7 }] }),
    failures: [
      whole("nodePools[1].nodes", "must lie within minCount..maxCount (1..6) when autoscaling, got 7"),
    ],
  },
  {
    label: "Kaas autoscaling pool below minCount",
    kind: "Kaas",
    news: clusterArgs({ nodePools: [SYSTEM_POOL, { ...WORKER_POOL, nodes: 0 }] }),
    failures: [
      whole("nodePools[1].nodes", "must lie within minCount..maxCount (1..6) when autoscaling, got 0"),
    ],
  },
  {
    label: "Kaas autoscaling pool with minCount above maxCount",
    kind: "Kaas",
    news: clusterArgs({ nodePools: [SYSTEM_POOL, { ...WORKER_POOL, minCount: 5, maxCount: 2 }] }),
    failures: [whole("nodePools[1].minCount = 5", "must not exceed maxCount (5 > 2)")],
  },
  {
    label: "Kaas autoscaling pool without bounds",
    kind: "Kaas",
    news: clusterArgs({
      nodePools: [SYSTEM_POOL, { ...WORKER_POOL, minCount: undefined, maxCount: undefined }],
    }),
    failures: [
      whole("nodePools[1].minCount", "is required when autoscaling is true"),
      whole("nodePools[1].maxCount", "is required when autoscaling is true"),
    ],
  },
  {
    label: "Kaas fixed pool with autoscaling bounds",
    kind: "Kaas",
    news: clusterArgs({ nodePools: [{ ...SYSTEM_POOL, minCount: 1 }, WORKER_POOL] }),
    failures: [whole("nodePools[0].minCount = 1", "only applies when autoscaling is true")],
  },
  {
    label: "Kaas fixed pool of zero nodes",
    kind: "Kaas",
    news: clusterArgs({ nodePools: [{ ...SYSTEM_POOL, nodes: 0 }, WORKER_POOL] }),
    failures: [whole("nodePools[0].nodes = 0", "must be at least 1 for a pool that does not autoscale")],
  },
  {
    label: "Kaas pool with a fractional node count",
    kind: "Kaas",
    news: clusterArgs({ nodePools: [{ ...SYSTEM_POOL, nodes: 2.5 }, WORKER_POOL] }),
    failures: [whole("nodePools[0].nodes", "must be an integer, got 2.5")],
  },
  {
    label: "Kaas pool name with capitals and an underscore",
    kind: "Kaas",
    news: clusterArgs({ nodePools: [{ ...SYSTEM_POOL, name: "System_1" }, WORKER_POOL] }),
    failures: [whole('nodePools[0].name = "System_1"', POOL_NAME_HINT)],
  },
  {
    label: "Kaas pool with an unknown field",
    kind: "Kaas",
    news: clusterArgs({ nodePools: [{ ...SYSTEM_POOL, size: "large" }, WORKER_POOL] }),
    failures: [whole('nodePools[0].size = "large"', `is not a known argument (allowed: ${POOL_ALLOWED})`)],
  },
  {
    label: "Kaas pool without instance",
    kind: "Kaas",
    news: clusterArgs({ nodePools: [without(SYSTEM_POOL, "instance"), WORKER_POOL] }),
    failures: [whole("nodePools[0].instance", "is required")],
  },
  // ---- Kaas: upgrades, timeouts, tags ----
  {
    label: "Kaas upgrade date in the past",
    kind: "Kaas",
    news: clusterArgs({ kubernetesVersion: "1.34.1", upgradeDate: "2020-01-01T00:00:00Z" }),
    failures: [{ property: "upgradeDate", reason: "must be in the future, got 2020-01-01T00:00:00Z" }],
  },
  {
    label: "Kaas upgrade date that is not a date",
    kind: "Kaas",
    news: clusterArgs({ upgradeDate: "tomorrow" }),
    failures: [
      {
        property: "upgradeDate",
        reason: "must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T02:00:00Z",
      },
    ],
  },
  {
    label: "Kaas upgrade date on February 30th",
    kind: "Kaas",
    news: clusterArgs({ upgradeDate: "2099-02-30T00:00:00Z" }),
    failures: [{ property: "upgradeDate", reason: 'is not a valid date: "2099-02-30T00:00:00Z"' }],
  },
  {
    label: "Kaas timeout that is not a duration",
    kind: "Kaas",
    news: clusterArgs({ timeouts: { create: "45 minutes" } }),
    failures: [whole("timeouts.create", DURATION('"45 minutes"'))],
  },
  {
    label: "Kaas zero timeout",
    kind: "Kaas",
    news: clusterArgs({ timeouts: { delete: "0s" } }),
    failures: [whole("timeouts.delete", DURATION('"0s"'))],
  },
  {
    label: "Kaas timeout for an operation that has none",
    kind: "Kaas",
    news: clusterArgs({ timeouts: { read: "1m" } }),
    failures: [whole('timeouts.read = "1m"', "is not a known argument (allowed: create, update, delete)")],
  },
  {
    label: "Kaas timeouts as a string",
    kind: "Kaas",
    news: clusterArgs({ timeouts: "45m" }),
    failures: [{ property: "timeouts", reason: "must be an object, got string" }],
  },
  {
    label: "Kaas tag with the reserved creation prefix",
    kind: "Kaas",
    news: clusterArgs({ tags: ["team:a", "pulumi-ct-0123456789abcdef0123"] }),
    failures: [whole('tags[1] = "pulumi-ct-0123456789abcdef0123"', RESERVED_TAG)],
  },
  {
    label: "Kaas tag of the wrong type",
    kind: "Kaas",
    news: clusterArgs({ tags: [1] }),
    failures: [whole("tags[0] = 1", "must be a string, got number")],
  },
  {
    label: "Kaas with several problems at once",
    kind: "Kaas",
    news: clusterArgs({
      name: undefined,
      nodeCidr: { address: "100.64.0.0/10", name: "n" },
      nodePools: [SYSTEM_POOL, SYSTEM_POOL],
      billingPeriod: "Daily",
    }),
    failures: [
      whole("name", "is required"),
      whole("nodeCidr.address", PRIVATE("100.64.0.0/10")),
      whole("nodePools[1].name", 'duplicates the pool name "system"'),
      { property: "billingPeriod", reason: 'must be one of Hour, Month, Year, got "Daily"' },
    ],
  },
  // ---- Kaas: refused changes, given the old inputs ----
  {
    label: "Kaas HA disabled",
    kind: "Kaas",
    olds: clusterArgs(),
    news: clusterArgs({ ha: false }),
    failures: [{ property: "ha", reason: HA_REFUSED }],
  },
  {
    label: "Kaas HA removed from the program",
    kind: "Kaas",
    olds: clusterArgs(),
    news: clusterWithout("ha"),
    failures: [whole("ha", HA_REFUSED)],
  },
  {
    label: "Kaas downgrade",
    kind: "Kaas",
    olds: clusterArgs(),
    news: clusterArgs({ kubernetesVersion: "1.32.5" }),
    failures: [
      {
        property: "kubernetesVersion",
        reason: "cannot go down from 1.33.2 to 1.32.5: the service does not downgrade clusters",
      },
    ],
  },
  // ---- KaasBackup ----
  {
    label: "KaasBackup without kaasId",
    kind: "KaasBackup",
    news: without(backupArgs(KAAS_ID), "kaasId"),
    failures: [whole("kaasId", "is required")],
  },
  {
    label: "KaasBackup kaasId of the wrong type",
    kind: "KaasBackup",
    news: backupArgs(KAAS_ID, { kaasId: 1 }),
    failures: [{ property: "kaasId", reason: "must be a string, got number" }],
  },
  {
    label: "KaasBackup without name",
    kind: "KaasBackup",
    news: without(backupArgs(KAAS_ID), "name"),
    failures: [whole("name", "is required")],
  },
  {
    label: "KaasBackup unknown argument",
    kind: "KaasBackup",
    news: backupArgs(KAAS_ID, { schedule: "0 2 * * *" }),
    failures: [{ property: "schedule", reason: `is not a known argument (allowed: ${BACKUP_ALLOWED})` }],
  },
  {
    label: "KaasBackup retention of zero days",
    kind: "KaasBackup",
    news: backupArgs(KAAS_ID, { retentionDays: 0 }),
    failures: [{ property: "retentionDays", reason: "must be between 1 and 3650, got 0" }],
  },
  {
    label: "KaasBackup retention above ten years",
    kind: "KaasBackup",
    news: backupArgs(KAAS_ID, { retentionDays: 3651 }),
    failures: [{ property: "retentionDays", reason: "must be between 1 and 3650, got 3651" }],
  },
  {
    label: "KaasBackup retention as a string",
    kind: "KaasBackup",
    news: backupArgs(KAAS_ID, { retentionDays: "7" }),
    failures: [{ property: "retentionDays", reason: "must be an integer, got string" }],
  },
  {
    label: "KaasBackup tag with the reserved creation prefix",
    kind: "KaasBackup",
    news: backupArgs(KAAS_ID, { tags: ["pulumi-ct-x"] }),
    failures: [whole('tags[0] = "pulumi-ct-x"', RESERVED_TAG)],
  },
  {
    label: "KaasBackup timeout that is not a duration",
    kind: "KaasBackup",
    news: backupArgs(KAAS_ID, { timeouts: { delete: "forever" } }),
    failures: [whole("timeouts.delete", DURATION('"forever"'))],
  },
  // ---- Registry ----
  {
    label: "Registry with the reserved admin name",
    kind: "Registry",
    news: registryArgs({ adminUsername: "admin" }),
    failures: [
      { property: "adminUsername", reason: '"admin" is reserved by the service; choose another name' },
    ],
  },
  {
    label: "Registry without admin name",
    kind: "Registry",
    news: without(registryArgs(), "adminUsername"),
    failures: [whole("adminUsername", "is required")],
  },
  {
    label: "Registry admin name with capitals and punctuation",
    kind: "Registry",
    news: registryArgs({ adminUsername: "Ops!" }),
    failures: [{ property: "adminUsername", reason: ADMIN_HINT }],
  },
  {
    label: "Registry admin name of two characters",
    kind: "Registry",
    news: registryArgs({ adminUsername: "op" }),
    failures: [{ property: "adminUsername", reason: ADMIN_HINT }],
  },
  {
    label: "Registry unknown argument",
    kind: "Registry",
    news: registryArgs({ adminPassword: "hunter2-hunter2" }),
    failures: [whole("adminPassword = [secret]", `is not a known argument (allowed: ${REGISTRY_ALLOWED})`)],
  },
  {
    label: "Registry size as a number",
    kind: "Registry",
    news: registryArgs({ size: 20 }),
    failures: [{ property: "size", reason: "must be a string, got number" }],
  },
  {
    label: "Registry billing period in the answer's spelling",
    kind: "Registry",
    news: registryArgs({ billingPeriod: "monthly" }),
    failures: [{ property: "billingPeriod", reason: 'must be one of Hour, Month, Year, got "monthly"' }],
  },
  {
    label: "Registry vpcUri without subnetUri",
    kind: "Registry",
    news: registryArgs({ vpcUri: "/vpcs/v-1" }),
    failures: [whole("subnetUri", "is required together with vpcUri")],
  },
  {
    label: "Registry password reset trigger as a number",
    kind: "Registry",
    news: registryArgs({ adminPasswordResetTrigger: 2 }),
    failures: [{ property: "adminPasswordResetTrigger", reason: "must be a string, got number" }],
  },
  {
    label: "Registry tag with the reserved creation prefix",
    kind: "Registry",
    news: registryArgs({ tags: ["pulumi-ct-"] }),
    failures: [whole("tags[0]", RESERVED_TAG)],
  },
  // ---- VolumeAttachment ----
  {
    label: "VolumeAttachment volume that is a bare id",
    kind: "VolumeAttachment",
    news: attachmentArgs(KAAS_ID, NODE, { volumeUri: "data-1" }),
    failures: [{ property: "volumeUri", reason: VOLUME_HINT }],
  },
  {
    label: "VolumeAttachment volume URI of another resource type",
    kind: "VolumeAttachment",
    news: attachmentArgs(KAAS_ID, NODE, {
      volumeUri: "/projects/p/providers/Vendor.Storage/snapshots/s-1",
    }),
    failures: [{ property: "volumeUri", reason: VOLUME_HINT }],
  },
  {
    label: "VolumeAttachment without volumeUri",
    kind: "VolumeAttachment",
    news: without(attachmentArgs(KAAS_ID, NODE), "volumeUri"),
    failures: [whole("volumeUri", "is required")],
  },
  {
    label: "VolumeAttachment without nodeId",
    kind: "VolumeAttachment",
    news: without(attachmentArgs(KAAS_ID, NODE), "nodeId"),
    failures: [whole("nodeId", "is required")],
  },
  {
    label: "VolumeAttachment without kaasId",
    kind: "VolumeAttachment",
    news: without(attachmentArgs(KAAS_ID, NODE), "kaasId"),
    failures: [whole("kaasId", "is required")],
  },
  {
    label: "VolumeAttachment pool name of the wrong type",
    kind: "VolumeAttachment",
    news: attachmentArgs(KAAS_ID, NODE, { nodePoolName: ["system"] }),
    failures: [whole("nodePoolName", "must be a string, got array")],
  },
  {
    label: "VolumeAttachment unknown argument",
    kind: "VolumeAttachment",
    news: attachmentArgs(KAAS_ID, NODE, { readOnly: true }),
    failures: [{ property: "readOnly", reason: `is not a known argument (allowed: ${ATTACHMENT_ALLOWED})` }],
  },
  {
    label: "VolumeAttachment adoptId of another attachment",
    kind: "VolumeAttachment",
    news: attachmentArgs(KAAS_ID, NODE, { adoptId: `kaas-0002:${DATA_VOLUME}` }),
    failures: [
      {
        property: "adoptId",
        reason: `must be the attachment id "${KAAS_ID}:${DATA_VOLUME}" (<kaasId>:<volumeUri>)`,
      },
    ],
  },
  {
    label: "VolumeAttachment negative timeout",
    kind: "VolumeAttachment",
    news: attachmentArgs(KAAS_ID, NODE, { timeouts: { create: -5 } }),
    failures: [whole("timeouts.create", DURATION("-5"))],
  },
];
