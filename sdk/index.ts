/**
 * pulumi-vendor-container: Pulumi dynamic resources for the Vendor.Container service - managed Kubernetes
 * clusters, their backups, container registries and volume attachments - and functions that read them.
 */
export * from "./kaas";
export * from "./kaasBackup";
export * from "./registry";
export * from "./volumeAttachment";
export * from "./functions";
export { isVendorApiError, VendorApiError } from "../rest/errors";
