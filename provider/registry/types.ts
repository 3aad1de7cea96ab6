/** The arguments and outputs of a Registry, as plain values (the SDK class wraps them). */
import type { Checked } from "../common/arguments";
import type { Timeouts } from "../common/timeouts";
import type { BillingPeriod } from "../kaas/types";

/** Arguments of a Registry (fields from the reference; the spec does not show them). */
export interface RegistryInputs {
  /** Project of the registry. Default: stack config `vendor:projectId` or `VENDOR_PROJECT_ID`. Replaces. */
  projectId?: string;
  /** Registry name. Updates in place. */
  name: string;
  /** Region, for example `ITBG-Bergamo`. Replaces. */
  location: string;
  /** Tags of the registry (as an output: without the owner tag the package adds). Update in place. */
  tags?: string[];
  /** Let the service create the VPC and subnet. Default `true` when no `vpcUri`/`subnetUri`. Replaces. */
  preset?: boolean;
  /**
   * URI of the VPC that `subnetUri` lies in. Optional: never sent (the service's create takes the subnet
   * alone), but compared with the VPC the service reports, and a registry in another VPC is an error that
   * names `vpcUri`, after create or on adopt. Needs `subnetUri`. Replaces.
   */
  vpcUri?: string;
  /** URI of an existing subnet: it places the registry in its network, VPC included. Replaces. */
  subnetUri?: string;
  /** URI of the security group (a URI here, unlike Kaas). Replaces. */
  securityGroupUri?: string;
  /** URI of the elastic IP that exposes the registry. Updates in place. */
  publicIpUri?: string;
  /** URI of the block storage that holds the images. Replaces. */
  blockStorageUri?: string;
  /** Registry size, passed as is (`Small`, `Medium`, `HighPerf` or `20`, `100`, `1000` are seen). Replaces. */
  size?: string;
  /** Administrator user name. Required; `admin` is reserved by the service. Replaces. */
  adminUsername: string;
  /** Billing period: `Hour`, `Month` or `Year`. Updates in place. */
  billingPeriod?: BillingPeriod;
  /**
   * Any string; changing it resets the administrator password (`resetAdminPassword`). Not sent on create.
   * Updates in place.
   */
  adminPasswordResetTrigger?: string;
  /** Deadlines of create (default `"60m"`), update (`"30m"`) and delete (`"30m"`). */
  timeouts?: Timeouts;
  /** Adopt this existing registry id instead of creating one. Changing it later has no effect. */
  adoptId?: string;
  /**
   * Confirms the adoption of a registry that another resource created or adopted: the `<project>/<stack>/<name>`
   * its owner tag names, as the refusal of `adoptId` quotes it. Without it, `adoptId` refuses such a registry,
   * since both stacks would then act on it. Changing it later has no effect.
   */
  adoptFromScope?: string;
}

/** Arguments of a Registry as `check` returns them: the default project and the default `preset` filled in, the creation token computed. */
export type CheckedRegistryInputs = Checked<RegistryInputs>;

/** Outputs of a Registry beyond its arguments. */
export interface RegistryComputed {
  /** Identifier of the registry in the service. */
  registryId: string;
  /** URI of the registry. */
  uri: string | null;
  /** Service state, e.g. `Active`. */
  state: string | null;
  /** Fully qualified domain name. */
  fqdn: string | null;
  /** Public base URL for `docker login`/`push`. */
  publicBaseUrl: string | null;
  /** Private base URL, inside the VPC. */
  privateBaseUrl: string | null;
  /** Version of the registry engine (read with the list flag `loadEngineVersion`). */
  engineVersion: string | null;
  /** Whether the administrator password is set. */
  passwordSet: boolean | null;
  /** When the administrator password was last set. */
  adminPasswordLastSetDate: string | null;
  /** URI of the registry's VPC as the service reports it: the one `preset` created, or the subnet's. */
  currentVpcUri: string | null;
  /** URI of the registry's subnet: the one `preset` created, or `subnetUri`. */
  currentSubnetUri: string | null;
  /** URI of the registry's security group, as the service reports it. */
  currentSecurityGroupUri: string | null;
  /** URI of the block storage holding the images, as the service reports it. */
  currentBlockStorageUri: string | null;
  /** URI of the elastic IP exposing the registry, as the service reports it. */
  currentPublicIpUri: string | null;
  /** Registry size as the service reports it: `size`, or the service's default when it was not set. */
  currentSize: string | null;
  /** Administrator user name as the service reports it. */
  currentAdminUsername: string | null;
}

/**
 * Every computed output, once: keyed by `RegistryComputed`, so a forgotten output does not compile. A value
 * (not a type) that the SDK class reads too, to seed the same names: this module imports nothing at run time.
 */
const REGISTRY_COMPUTED: Record<keyof RegistryComputed, true> = {
  registryId: true,
  uri: true,
  state: true,
  fqdn: true,
  publicBaseUrl: true,
  privateBaseUrl: true,
  engineVersion: true,
  passwordSet: true,
  adminPasswordLastSetDate: true,
  currentVpcUri: true,
  currentSubnetUri: true,
  currentSecurityGroupUri: true,
  currentBlockStorageUri: true,
  currentPublicIpUri: true,
  currentSize: true,
  currentAdminUsername: true,
};

/** The names of the computed outputs of a Registry; everything else in state is an input. */
export const REGISTRY_COMPUTED_KEYS = Object.keys(REGISTRY_COMPUTED) as (keyof RegistryComputed)[];
