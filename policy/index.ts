/**
 * The policy pack of pulumi-vendor-container: the standards a platform team sets for clusters, backups,
 * registries and volume attachments, checked by `pulumi preview --policy-pack` before anything is created.
 *
 * Run the pack as it ships (`node_modules/pulumi-vendor-container/policy`, see docs/policy.md), or build your own
 * pack from these rules:
 *
 * ```ts
 * import { PolicyPack } from "@pulumi/policy";
 * import { vendorContainerPolicies } from "pulumi-vendor-container/policy";
 *
 * new PolicyPack("platform", { policies: [...vendorContainerPolicies(), ...ourOwnPolicies] });
 * ```
 *
 * Only types come from `@pulumi/policy` here: importing the rules does not load it.
 */
import type { ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import {
  kaasAuthorizedIpRanges,
  kaasHaInProduction,
  kaasKubernetesEndOfSupport,
  kaasKubernetesMinimumVersion,
  kaasNodePoolSize,
} from "./kaas";
import { kaasBackupRequired } from "./kaasBackup";
import { registryBillingPeriod } from "./registry";
import { volumeAttachmentNodePool } from "./volumeAttachment";
import { KIND_NAMES, type KindName } from "../schemas/kinds";

export * from "./kaas";
export * from "./kaasBackup";
export * from "./registry";
export * from "./volumeAttachment";
export { isUnknown, matchesAny, stackOfUrn, typeToken } from "./values";
export {
  closedParameters,
  PolicyParameterError,
  unknownParameters,
  type ClosedConfigSchema,
} from "./parameters";

/** Name of the shipped pack, as `pulumi preview` reports it. */
export const POLICY_PACK_NAME = "vendor-container";

/** Options of {@link vendorContainerPolicies}. */
export interface VendorContainerPolicyOptions {
  /** The current time, against which end-of-support dates are judged. Default the system clock. */
  now?: () => Date;
}

/** A rule of the pack. */
export type VendorContainerPolicy = ResourceValidationPolicy | StackValidationPolicy;

/** The pack's registry: the rules of every kind of schemas/kinds.ts. */
export type PoliciesByKind = { readonly [K in KindName]: readonly VendorContainerPolicy[] };

/**
 * The rules of each kind, in the pack's order. Every kind has an entry, so a new kind states what the pack
 * checks of it (an empty list for none).
 */
function policiesByKind(now: () => Date): PoliciesByKind {
  return {
    Kaas: [
      kaasHaInProduction,
      kaasAuthorizedIpRanges,
      kaasKubernetesMinimumVersion,
      kaasKubernetesEndOfSupport(now),
      kaasNodePoolSize,
    ],
    KaasBackup: [kaasBackupRequired],
    Registry: [registryBillingPeriod],
    VolumeAttachment: [volumeAttachmentNodePool],
  } satisfies PoliciesByKind;
}

/** Every rule of the pack, each with its default enforcement level and configuration schema. */
export function vendorContainerPolicies(
  options: VendorContainerPolicyOptions = {},
): (ResourceValidationPolicy | StackValidationPolicy)[] {
  const byKind = policiesByKind(options.now ?? (() => new Date()));
  return KIND_NAMES.flatMap((kind) => byKind[kind]);
}
