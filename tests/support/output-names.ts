/**
 * The outputs each SDK class declares and each provider returns for a created resource with every argument
 * set (every argument can be read back), written out once by hand: the arguments first, then the
 * computed values. tests/integration/output-names.test.ts checks the providers against these lists,
 * tests/unit/sdk-types.test.ts the classes (their declarations and their run-time outputs). The `satisfies`
 * clauses make the type check fail when an output is added to or removed from a kind's `*Computed` type
 * without updating the lists here.
 */
import type { KaasBackupComputed } from "../../provider/kaasBackup/types";
import type { KaasComputed } from "../../provider/kaas/types";
import type { RegistryComputed } from "../../provider/registry/types";
import type { VolumeAttachmentComputed } from "../../provider/volumeAttachment/types";

/** The keys of a list written as an object, typed as they are written. */
const keysOf = <T extends object>(listed: T) => Object.keys(listed) as (keyof T & string)[];

const KAAS_COMPUTED = {
  kaasId: 1,
  uri: 1,
  state: 1,
  phase: 1,
  managementIp: 1,
  currentKubernetesVersion: 1,
  pendingUpgrade: 1,
  currentNodePools: 1,
  securityGroupUri: 1,
  nodeCidrUri: 1,
  creationDate: 1,
  kubeconfig: 1,
  currentVpcUri: 1,
  currentSubnetUri: 1,
  currentPodCidr: 1,
  currentSecurityGroupName: 1,
  kubernetesVersionEndOfSupportDate: 1,
  kubernetesVersionRecommended: 1,
  clusterType: 1,
  disabledReasons: 1,
  failureReason: 1,
} satisfies Record<keyof KaasComputed, 1>;
/** The computed outputs of a Kaas, in the order the class declares them. */
export const KAAS_COMPUTED_OUTPUTS = keysOf(KAAS_COMPUTED);
/** The arguments a created resource of the kind echoes as outputs, in the order the class declares them. */
export const KAAS_ARGUMENTS = [
  "projectId",
  "name",
  "location",
  "tags",
  "preset",
  "vpcUri",
  "subnetUri",
  "nodeCidr",
  "podCidr",
  "securityGroupName",
  "kubernetesVersion",
  "upgradeDate",
  "nodePools",
  "ha",
  "maxCumulativeVolumeSize",
  "billingPeriod",
  "identity",
  "authorizedIpRanges",
  "enablePrivateCluster",
  "autoscalerProfile",
  "deleteOnCascade",
  "timeouts",
] as const;
export const KAAS_OUTPUTS = [...KAAS_ARGUMENTS, ...KAAS_COMPUTED_OUTPUTS];

const KAAS_BACKUP_COMPUTED = {
  backupId: 1,
  uri: 1,
  state: 1,
  phase: 1,
  sizeBytes: 1,
  expiresAt: 1,
  cluster: 1,
  creationDate: 1,
  currentType: 1,
  currentRetentionDays: 1,
} satisfies Record<keyof KaasBackupComputed, 1>;
/** The computed outputs of a KaasBackup, in the order the class declares them. */
export const KAAS_BACKUP_COMPUTED_OUTPUTS = keysOf(KAAS_BACKUP_COMPUTED);
/** The arguments a created resource of the kind echoes as outputs, in the order the class declares them. */
export const KAAS_BACKUP_ARGUMENTS = [
  "projectId",
  "kaasId",
  "name",
  "location",
  "tags",
  "type",
  "retentionDays",
  "billingPeriod",
  "timeouts",
] as const;
export const KAAS_BACKUP_OUTPUTS = [...KAAS_BACKUP_ARGUMENTS, ...KAAS_BACKUP_COMPUTED_OUTPUTS];

const REGISTRY_COMPUTED = {
  registryId: 1,
  uri: 1,
  state: 1,
  fqdn: 1,
  publicBaseUrl: 1,
  privateBaseUrl: 1,
  engineVersion: 1,
  passwordSet: 1,
  adminPasswordLastSetDate: 1,
  currentVpcUri: 1,
  currentSubnetUri: 1,
  currentSecurityGroupUri: 1,
  currentBlockStorageUri: 1,
  currentPublicIpUri: 1,
  currentSize: 1,
  currentAdminUsername: 1,
} satisfies Record<keyof RegistryComputed, 1>;
/** The computed outputs of a Registry, in the order the class declares them. */
export const REGISTRY_COMPUTED_OUTPUTS = keysOf(REGISTRY_COMPUTED);
/** The arguments a created resource of the kind echoes as outputs, in the order the class declares them. */
export const REGISTRY_ARGUMENTS = [
  "projectId",
  "name",
  "location",
  "tags",
  "preset",
  "vpcUri",
  "subnetUri",
  "securityGroupUri",
  "publicIpUri",
  "blockStorageUri",
  "size",
  "adminUsername",
  "billingPeriod",
  "adminPasswordResetTrigger",
  "timeouts",
] as const;
export const REGISTRY_OUTPUTS = [...REGISTRY_ARGUMENTS, ...REGISTRY_COMPUTED_OUTPUTS];

const VOLUME_ATTACHMENT_COMPUTED = { sizeGb: 1, verification: 1 } satisfies Record<
  keyof VolumeAttachmentComputed,
  1
>;
/** The computed outputs of a VolumeAttachment, in the order the class declares them. */
export const VOLUME_ATTACHMENT_COMPUTED_OUTPUTS = keysOf(VOLUME_ATTACHMENT_COMPUTED);
/** The arguments a created resource of the kind echoes as outputs, in the order the class declares them. */
export const VOLUME_ATTACHMENT_ARGUMENTS = [
  "projectId",
  "kaasId",
  "nodePoolName",
  "nodeId",
  "volumeUri",
  "timeouts",
] as const;
export const VOLUME_ATTACHMENT_OUTPUTS = [
  ...VOLUME_ATTACHMENT_ARGUMENTS,
  ...VOLUME_ATTACHMENT_COMPUTED_OUTPUTS,
];
