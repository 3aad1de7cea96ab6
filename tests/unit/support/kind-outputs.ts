/**
 * The computed output names of each kind, written out from the SDK classes' declared outputs, for tests that
 * must not read them from the implementation. The `satisfies` clauses make the type check fail when an
 * output is added to or removed from a kind's `*Computed` type without updating the lists here.
 */
import type { KaasBackupComputed } from "../../../provider/kaasBackup/types";
import type { KaasComputed } from "../../../provider/kaas/types";
import type { RegistryComputed } from "../../../provider/registry/types";
import type { VolumeAttachmentComputed } from "../../../provider/volumeAttachment/types";

const KAAS = {
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

const KAAS_BACKUP = {
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

const REGISTRY = {
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

const ATTACHMENT = { sizeGb: 1, verification: 1 } satisfies Record<keyof VolumeAttachmentComputed, 1>;

/** Computed outputs of a Kaas, `kaasId` included. */
export const KAAS_OUTPUTS: string[] = Object.keys(KAAS);
/** Computed outputs of a KaasBackup, `backupId` included. */
export const BACKUP_OUTPUTS: string[] = Object.keys(KAAS_BACKUP);
/** Computed outputs of a Registry, `registryId` included. */
export const REGISTRY_OUTPUTS: string[] = Object.keys(REGISTRY);
/** Computed outputs of a VolumeAttachment. */
export const ATTACHMENT_OUTPUTS: string[] = Object.keys(ATTACHMENT);
