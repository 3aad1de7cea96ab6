/**
 * Kubernetes version syntax and ordering as the emulated service reads them: the service's rule, shared with the
 * provider from the schemas layer (`schemas/versions.ts`, docs/wire.md "KaaS").
 */
export { compareVersions, VERSION_PATTERN } from "../../schemas/versions";
