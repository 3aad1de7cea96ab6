import * as pulumi from "@pulumi/pulumi";
import { MODULE } from "../provider/kinds";
import type { Timeouts } from "../provider/common/timeouts";
import type { BillingPeriod } from "../provider/kaas/types";
import { REGISTRY_COMPUTED_KEYS, type RegistryInputs } from "../provider/registry/types";
import { skipUnreadLeakTraces } from "./leakTraces";
import { optionInputs, readOnlyProps } from "./options";
import { creationScope, idOutput, outputSeeds, type ArgumentSeeds, type ResourceArgs } from "./inputs";
import shell from "./shells/Registry";

export type { RegistryInputs } from "../provider/registry/types";

/** Arguments of a {@link Registry}; each is documented on {@link RegistryInputs}. */
export type RegistryArgs = ResourceArgs<RegistryInputs>;

/** Output-only names, seeded so the engine fills them in; `registryId` is the resource id (see `idOutput`). */
const COMPUTED = outputSeeds(REGISTRY_COMPUTED_KEYS, "registryId");

/** Every argument, seeded so that one a program leaves out is an output too (see `ArgumentSeeds`). */
const ARGUMENTS: ArgumentSeeds<RegistryInputs, "adoptId" | "adoptFromScope"> = {
  projectId: undefined,
  name: undefined,
  location: undefined,
  tags: undefined,
  preset: undefined,
  vpcUri: undefined,
  subnetUri: undefined,
  securityGroupUri: undefined,
  publicIpUri: undefined,
  blockStorageUri: undefined,
  size: undefined,
  adminUsername: undefined,
  billingPeriod: undefined,
  adminPasswordResetTrigger: undefined,
  timeouts: undefined,
};

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
  /** Project of the registry: `projectId`, or the configured default. */
  declare readonly projectId: pulumi.Output<string>;
  /** Registry name. */
  declare readonly name: pulumi.Output<string>;
  /** Region of the registry. */
  declare readonly location: pulumi.Output<string>;
  /** Declared tags (without the owner tag the package adds), or undefined. */
  declare readonly tags: pulumi.Output<string[] | undefined>;
  /** Whether the service created the network: `preset`, or its default. */
  declare readonly preset: pulumi.Output<boolean | undefined>;
  /** Declared VPC URI, or undefined (see `currentVpcUri` for the one in use). */
  declare readonly vpcUri: pulumi.Output<string | undefined>;
  /** Declared subnet URI, or undefined (see `currentSubnetUri` for the one in use). */
  declare readonly subnetUri: pulumi.Output<string | undefined>;
  /** Declared security group URI, or undefined (see `currentSecurityGroupUri`). */
  declare readonly securityGroupUri: pulumi.Output<string | undefined>;
  /** Declared elastic IP URI, or undefined (see `currentPublicIpUri`). */
  declare readonly publicIpUri: pulumi.Output<string | undefined>;
  /** Declared block storage URI, or undefined (see `currentBlockStorageUri`). */
  declare readonly blockStorageUri: pulumi.Output<string | undefined>;
  /** Declared registry size, or undefined (see `currentSize` for the one in use). */
  declare readonly size: pulumi.Output<string | undefined>;
  /** Administrator user name. */
  declare readonly adminUsername: pulumi.Output<string>;
  /** Declared billing period, or undefined. */
  declare readonly billingPeriod: pulumi.Output<BillingPeriod | undefined>;
  /** Declared administrator password reset trigger, or undefined. */
  declare readonly adminPasswordResetTrigger: pulumi.Output<string | undefined>;
  /** Deadlines of create, update and delete, as declared. */
  declare readonly timeouts: pulumi.Output<Timeouts | undefined>;

  /**
   * @param name The unique name of the resource in the stack.
   * @param args The registry's arguments.
   * @param opts Resource options. `customTimeouts` set the deadlines of `timeouts` that the argument leaves
   *   out (a deadline set by both to different durations is refused); `replaceOnChanges` names arguments
   *   whose change replaces the registry (or `"*"`); `import` is refused, since `adoptId` takes an existing
   *   registry over. With `id`, the registry is read, as {@link Registry.get} does.
   */
  constructor(name: string, args: RegistryArgs, opts?: pulumi.CustomResourceOptions) {
    // Promise-leak traces that only PULUMI_DEBUG_PROMISE_LEAKS reads stay unformatted (see leakTraces.ts).
    const restoreTraces = skipUnreadLeakTraces();
    try {
      const scope = creationScope(pulumi, name);
      super(
        shell,
        name,
        opts?.id !== undefined
          ? { ...ARGUMENTS, ...readOnlyProps(scope, { projectId: args?.projectId }), ...COMPUTED }
          : {
              ...ARGUMENTS,
              ...args,
              ...optionInputs("Registry", name, args.timeouts, opts),
              creationScope: scope,
              ...COMPUTED,
            },
        opts,
        MODULE,
        "Registry",
      );
    } finally {
      restoreTraces();
    }
    this.registryId = idOutput(this);
  }
  /**
   * Reads an existing registry as a read-only resource of the stack: the stack never updates or deletes it,
   * and each `pulumi up` reads it again. Its outputs are the registry as the service shows it: `name`,
   * `location`, `tags` and every computed output (`publicBaseUrl`, `currentSize`, ...); the other arguments
   * are undefined. A registry that does not exist fails the run with an error naming the id.
   *
   * @param name The unique name of the resource in the stack.
   * @param id The registry id (`registryId` of the stack that manages it).
   * @param opts Resource options; the project is `vendor:projectId` (or `VENDOR_PROJECT_ID`).
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Registry {
    return new Registry(name, {} as RegistryArgs, { ...opts, id });
  }
}
