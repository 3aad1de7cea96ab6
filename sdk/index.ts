/**
 * pulumi-vendor-container: Pulumi dynamic resources for the Vendor.Container service.
 */
export * from "./kaas";
