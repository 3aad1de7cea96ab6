/**
 * pulumi-vendor-container: Pulumi dynamic resources for the Vendor.Container service - managed Kubernetes
 * clusters, their backups, container registries and volume attachments - and functions that read them.
 */
export * from "./kaas";
export * from "./kaasBackup";
export * from "./registry";
export * from "./volumeAttachment";
export type { FunctionInputs, FunctionOptions, ListArgs, NotProjecting, Projecting } from "./dataSource";
export { isVendorApiError, VendorApiError } from "../rest/errors";

// Types the API above refers to, exported so programs can name them (and the API reference shows them).
export type { DeepInput, ResourceArgs } from "./inputs";
export type {
  BillingPeriod,
  IdentityArgs,
  KaasComputed,
  KaasInputs,
  NodeCidrArgs,
  NodePoolArgs,
  NodePoolStatus,
  PendingUpgrade,
  Timeouts,
} from "../provider/kaas/types";
export type { ClusterReference, KaasBackupComputed, KaasBackupInputs } from "../provider/kaasBackup/types";
export type { RegistryComputed, RegistryInputs } from "../provider/registry/types";
export type { VolumeAttachmentComputed, VolumeAttachmentInputs } from "../provider/volumeAttachment/types";
export type { KubeconfigRefresh, VendorSettings } from "../rest/settings";
export type { StateClass } from "../rest/waiter";
export type { FieldProblem, VendorApiErrorInit, VendorErrorKind } from "../rest/errors";
export type { SchemaProblem } from "../schemas/validate";
export type { ProblemDetails } from "../schemas/common";
export type { Projected, ProjectedValue } from "../schemas/projection";
