/**
 * The arguments and outputs of a Registry, as plain values (the SDK class wraps them). The argument schema is
 * the one description of each argument: its documentation, type, what changing it does and its check.
 */
import { network, str } from "../common/check";
import {
  CREATED_OBJECT_ARGUMENTS,
  OBJECT_LOCATION,
  OBJECT_NAME,
  OBJECT_TAGS,
  PROJECT_ID,
  choice,
  optional,
  required,
  text,
  type ArgumentsOf,
  type Checked,
} from "../common/arguments";
import { BILLING_PERIODS } from "../common/billing";
import { keysOf } from "../common/typed";
import type { KindProperties } from "../common/properties";

/** Administrator names the service reserves (api-notes "Registry"). */
export const RESERVED_ADMIN_NAMES = ["admin"];

/**
 * Every argument of a Registry (fields from the reference; the spec does not show them). api-notes
 * "Registry": the update carries `billingPlan` and `publicIp` only, plus metadata name and tags.
 */
export const REGISTRY_ARGUMENTS = {
  /** Project of the registry. Default: stack config `vendor:projectId` or `VENDOR_PROJECT_ID`. Replaces. */
  projectId: PROJECT_ID,
  /** Registry name. Updates in place. */
  name: OBJECT_NAME,
  /** Region, for example `ITBG-Bergamo`. Replaces. */
  location: OBJECT_LOCATION,
  /** Tags of the registry (as an output: without the owner tag the package adds). Update in place. */
  tags: OBJECT_TAGS,
  /** Let the service create the VPC and subnet. Default `true` when no `vpcUri`/`subnetUri`. Replaces. */
  // `network` checks preset, vpcUri and subnetUri together. The subnet names the network, since the create
  // sends no `vpc` (api-notes "Registry"); `vpcUri` is checked against the VPC the answer reports.
  preset: optional<boolean>({
    change: "replace",
    check: (_value, _property, { news, inputs, problems }) =>
      network(news, inputs, problems, { subnetNamesNetwork: true }),
  }),
  /**
   * URI of the VPC that `subnetUri` lies in. Optional: never sent (the service's create takes the subnet
   * alone), but compared with the VPC the service reports, and a registry in another VPC is an error that
   * names `vpcUri`, after create or on adopt. Needs `subnetUri`. Replaces.
   */
  vpcUri: optional<string>({ change: "replace" }),
  /** URI of an existing subnet: it places the registry in its network, VPC included. Replaces. */
  subnetUri: optional<string>({ change: "replace" }),
  /** URI of the security group (a URI here, unlike Kaas). Replaces. */
  securityGroupUri: text("replace"),
  /** URI of the elastic IP that exposes the registry. Updates in place. */
  publicIpUri: text("update"),
  /** URI of the block storage that holds the images. Replaces. */
  blockStorageUri: text("replace"),
  /** Registry size, passed as is (`Small`, `Medium`, `HighPerf` or `20`, `100`, `1000` are seen). Replaces. */
  size: text("replace"),
  /** Administrator user name. Required; `admin` is reserved by the service. Replaces. */
  adminUsername: required<string>({
    change: "replace",
    check(value, property, { problems }) {
      const admin = str(value, property, problems, {
        required: true,
        pattern: /^[a-z][a-z0-9_-]{2,31}$/,
        patternHint: "must be 3-32 lower-case letters, digits, '_' or '-', starting with a letter",
      });
      if (admin !== undefined && RESERVED_ADMIN_NAMES.includes(admin))
        problems.add(property, `"${admin}" is reserved by the service; choose another name`);
    },
  }),
  /** Billing period: `Hour`, `Month` or `Year`. Updates in place. */
  billingPeriod: choice("update", BILLING_PERIODS),
  /**
   * Any string; changing it resets the administrator password (`resetAdminPassword`). Not sent on create.
   * Updates in place.
   */
  adminPasswordResetTrigger: text("update"),
  ...CREATED_OBJECT_ARGUMENTS,
};

/**
 * Arguments of a Registry, from its schema (`REGISTRY_ARGUMENTS`).
 *
 * @interface
 */
export type RegistryInputs = ArgumentsOf<typeof REGISTRY_ARGUMENTS>;

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
 * (not a type) that the SDK class reads too, to seed the same names.
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
export const REGISTRY_COMPUTED_KEYS = keysOf(REGISTRY_COMPUTED);

/** What a registry is made of: its arguments and computed outputs, and the outputs no update changes. */
export const REGISTRY_PROPERTIES: KindProperties<typeof REGISTRY_ARGUMENTS, RegistryComputed> = {
  arguments: REGISTRY_ARGUMENTS,
  computed: REGISTRY_COMPUTED_KEYS,
  secrets: [],
  stable: ["registryId", "uri"],
};
