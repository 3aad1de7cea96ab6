/** The Pulumi module of every kind: tokens read `pulumi-nodejs:dynamic/vendor-container:<Kind>`. */
export const MODULE = "vendor-container";
