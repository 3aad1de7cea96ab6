/** Translation between Registry arguments and the wire. Pure functions. */
import type { RegistryInsert, RegistryResponse, RegistryUpdate } from "../../schemas";
import { sameValue } from "../common/diff";
import { compact, jsonSafe } from "../common/outputs";
import { answeredBillingPeriod, liveBillingPeriod } from "../common/billing";
import type { Inputs } from "../common/check";
import type { ImportLookup } from "../common/kindDescriptor";
import { importedMetadata, insertMetadata, updateMetadata, withLiveNameAndTags } from "../common/resource";
import type { CheckedRegistryInputs, RegistryComputed } from "./types";

/** The names of the computed outputs (defined with the types, which the SDK class reads too). */
export { REGISTRY_COMPUTED_KEYS } from "./types";

const ref = (uri: string | undefined) => (typeof uri === "string" && uri !== "" ? { uri } : undefined);

export function registryInsertBody(inputs: CheckedRegistryInputs): RegistryInsert {
  return {
    metadata: insertMetadata(inputs),
    properties: compact({
      preset: inputs.preset,
      // No `vpc`: the published insert body lacks it (api-notes "Registry"); see `vpcMismatch`.
      subnet: ref(inputs.subnetUri),
      securityGroup: ref(inputs.securityGroupUri),
      publicIp: ref(inputs.publicIpUri),
      blockStorage: ref(inputs.blockStorageUri),
      billingPlan: inputs.billingPeriod ? { billingPeriod: inputs.billingPeriod } : undefined,
      adminUser: { username: inputs.adminUsername },
      size: inputs.size,
    }),
  };
}

/** The path of a URI given as a path or a full URL, without a trailing slash, for comparing spellings. */
const uriPath = (uri: string): string => uri.replace(/^https?:\/\/[^/]+/, "").replace(/\/+$/, "");

/**
 * Why the registry's VPC as the service reports it is not the declared `vpcUri`; undefined when it is, when
 * no `vpcUri` is declared, or when the answer reports no VPC (nothing to compare). The create sends no `vpc`
 * (api-notes "Registry"): the subnet places the registry, and `vpcUri` states the VPC it must be in.
 */
export function vpcMismatch(inputs: CheckedRegistryInputs, response: RegistryResponse): string | undefined {
  const declared = inputs.vpcUri;
  const live = response.properties.vpc?.uri;
  if (typeof declared !== "string" || typeof live !== "string" || live === "") return undefined;
  if (uriPath(declared) === uriPath(live)) return undefined;
  const subnet = typeof inputs.subnetUri === "string" ? ` for subnetUri "${inputs.subnetUri}"` : "";
  return (
    `vpcUri "${declared}" is not the registry's VPC: the service reports "${live}"${subnet}; ` +
    "set vpcUri to that VPC, or leave it out"
  );
}

/** The update body, or undefined when nothing the registry update carries changed. */
export function registryUpdateBody(
  olds: CheckedRegistryInputs,
  news: CheckedRegistryInputs,
): RegistryUpdate | undefined {
  const changed = (k: keyof CheckedRegistryInputs) => !sameValue(olds[k], news[k]);
  const carried: (keyof CheckedRegistryInputs)[] = ["name", "tags", "billingPeriod", "publicIpUri"];
  if (!carried.some(changed)) return undefined;
  return {
    metadata: updateMetadata(news),
    properties: compact({
      billingPlan:
        changed("billingPeriod") && news.billingPeriod ? { billingPeriod: news.billingPeriod } : undefined,
      publicIp: changed("publicIpUri") ? ref(news.publicIpUri) : undefined,
    }),
  };
}

/**
 * Computed outputs. Only the documented, non-secret fields are copied: should the service ever answer a
 * password, it is never carried into state.
 */
export function registryComputed(response: RegistryResponse, engineVersion: string | null): RegistryComputed {
  const info = response.data?.info;
  const priv = response.data?.private;
  const p = response.properties;
  return jsonSafe({
    registryId: response.metadata.id,
    uri: response.metadata.uri ?? null,
    state: response.status?.state ?? null,
    fqdn: info?.fqdn ?? null,
    publicBaseUrl: info?.publicBaseUrl ?? null,
    privateBaseUrl: info?.privateBaseUrl ?? null,
    engineVersion: engineVersion ?? info?.version ?? null,
    passwordSet: priv?.passwordSet ?? null,
    adminPasswordLastSetDate: priv?.adminPasswordLastSetDate ?? null,
    currentVpcUri: p.vpc?.uri ?? null,
    currentSubnetUri: p.subnet?.uri ?? null,
    currentSecurityGroupUri: p.securityGroup?.uri ?? null,
    currentBlockStorageUri: p.blockStorage?.uri ?? null,
    currentPublicIpUri: p.publicIp?.uri ?? null,
    currentSize: p.size ?? null,
    currentAdminUsername: p.adminUser?.username ?? null,
  });
}

/** Inputs as the live registry has them (refresh): name, tags, billing and public IP can change out of band. */
export function registryLiveInputs(
  declared: CheckedRegistryInputs,
  response: RegistryResponse,
): CheckedRegistryInputs {
  const next = withLiveNameAndTags(declared, response.metadata);
  const period = liveBillingPeriod(declared.billingPeriod, response.properties.billingPlan?.billingPeriod);
  if (period !== undefined) next.billingPeriod = period;
  const publicIp = response.properties.publicIp?.uri ?? undefined;
  if (publicIp !== undefined || declared.publicIpUri !== undefined) next.publicIpUri = publicIp;
  return jsonSafe(next);
}

/**
 * The arguments of a live registry, for `pulumi import` (see `KindLifecycle.importedInputs`): the metadata, the
 * network (the answered subnet and VPC, unless the service says it made them: `preset`; with no subnet
 * answered, `check`'s default, the service's network), the URIs of its security group, elastic IP and block
 * storage, its size, administrator and billing period. The password reset trigger is the program's own and is
 * left out.
 */
export function importedRegistryInputs(lookup: ImportLookup, response: RegistryResponse): Inputs {
  const p = response.properties;
  const subnetUri = p.subnet?.uri ?? undefined;
  const ownNetwork = p.preset !== true && subnetUri !== undefined;
  return jsonSafe(
    compact({
      ...importedMetadata(lookup, response.metadata),
      vpcUri: ownNetwork ? (p.vpc?.uri ?? undefined) : undefined,
      subnetUri: ownNetwork ? subnetUri : undefined,
      securityGroupUri: p.securityGroup?.uri ?? undefined,
      publicIpUri: p.publicIp?.uri ?? undefined,
      blockStorageUri: p.blockStorage?.uri ?? undefined,
      size: p.size ?? undefined,
      adminUsername: p.adminUser?.username ?? undefined,
      billingPeriod: answeredBillingPeriod(p.billingPlan?.billingPeriod),
    }),
  );
}
