import * as pulumi from "@pulumi/pulumi";
import { MODULE } from "../provider/kinds";
import { REGISTRY_COMPUTED_KEYS, type RegistryInputs } from "../provider/registry/types";
import { skipUnreadLeakTraces } from "./leakTraces";
import { creationScope, idOutput, outputSeeds, type ResourceArgs } from "./inputs";
import shell from "./shells/Registry";

export type { RegistryInputs } from "../provider/registry/types";

/** Arguments of a {@link Registry}; each is documented on {@link RegistryInputs}. */
export type RegistryArgs = ResourceArgs<RegistryInputs>;

/** Output-only names, seeded so the engine fills them in; `registryId` is the resource id (see `idOutput`). */
const COMPUTED = outputSeeds(REGISTRY_COMPUTED_KEYS, "registryId");

/**
 * A container registry with an administrator account. `billingPeriod`, `publicIpUri`, `name` and `tags`
 * update in place; the rest replaces. Change `adminPasswordResetTrigger` (any string, e.g. a date) to reset
 * the administrator password.
 *
 * @example
 * ```ts
 * const registry = new Registry("images", {
 *   name: "images", location: "ITBG-Bergamo", adminUsername: "ops", size: "Small",
 *   adminPasswordResetTrigger: "2026-11",
 * });
 * export const registryUrl = registry.publicBaseUrl;
 * ```
 */
export class Registry extends pulumi.dynamic.Resource {
  /** Identifier of the registry in the service. */
  declare readonly registryId: pulumi.Output<string>;
  /** URI of the registry. */
  declare readonly uri: pulumi.Output<string | null>;
  /** Service state, e.g. `Active`. */
  declare readonly state: pulumi.Output<string | null>;
  /** Fully qualified domain name. */
  declare readonly fqdn: pulumi.Output<string | null>;
  /** Public base URL. */
  declare readonly publicBaseUrl: pulumi.Output<string | null>;
  /** Private base URL inside the VPC. */
  declare readonly privateBaseUrl: pulumi.Output<string | null>;
  /** Registry engine version. */
  declare readonly engineVersion: pulumi.Output<string | null>;
  /** Whether the administrator password is set. */
  declare readonly passwordSet: pulumi.Output<boolean | null>;
  /** When the administrator password was last set. */
  declare readonly adminPasswordLastSetDate: pulumi.Output<string | null>;
  /** URI of the registry's VPC as the service reports it: the one `preset` created, or the subnet's. */
  declare readonly currentVpcUri: pulumi.Output<string | null>;
  /** URI of the registry's subnet: the one `preset` created, or `subnetUri`. */
  declare readonly currentSubnetUri: pulumi.Output<string | null>;
  /** URI of the registry's security group, as the service reports it. */
  declare readonly currentSecurityGroupUri: pulumi.Output<string | null>;
  /** URI of the block storage holding the images, as the service reports it. */
  declare readonly currentBlockStorageUri: pulumi.Output<string | null>;
  /** URI of the elastic IP exposing the registry, as the service reports it. */
  declare readonly currentPublicIpUri: pulumi.Output<string | null>;
  /** Registry size as the service reports it: `size`, or the service's default when it was not set. */
  declare readonly currentSize: pulumi.Output<string | null>;
  /** Administrator user name as the service reports it. */
  declare readonly currentAdminUsername: pulumi.Output<string | null>;
  /** Administrator user name. */
  declare readonly adminUsername: pulumi.Output<string>;

  constructor(name: string, args: RegistryArgs, opts?: pulumi.CustomResourceOptions) {
    // Promise-leak traces that only PULUMI_DEBUG_PROMISE_LEAKS reads stay unformatted (see leakTraces.ts).
    const restoreTraces = skipUnreadLeakTraces();
    try {
      super(
        shell,
        name,
        { ...args, creationScope: creationScope(pulumi, name), ...COMPUTED },
        opts,
        MODULE,
        "Registry",
      );
    } finally {
      restoreTraces();
    }
    this.registryId = idOutput(this);
  }
}
