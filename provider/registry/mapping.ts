/** Translation between Registry arguments and the wire. Pure functions. */
import type { RegistryInsert, RegistryResponse, RegistryUpdate } from "../../schemas";
import { sameValue, type Inputs } from "../common/diff";
import { compact, jsonSafe } from "../common/outputs";
import { normaliseBillingPeriod, userTags, insertMetadata, updateMetadata } from "../common/resource";
import type { RegistryComputed } from "./types";

/** The names of the computed outputs (defined with the types, which the SDK class reads too). */
export { REGISTRY_COMPUTED_KEYS } from "./types";

const ref = (uri: unknown) => (typeof uri === "string" && uri !== "" ? { uri } : undefined);

export function registryInsertBody(inputs: Inputs): RegistryInsert {
  return {
    metadata: insertMetadata(inputs),
    properties: compact({
      preset: inputs.preset as boolean | undefined,
      vpc: ref(inputs.vpcUri),
      subnet: ref(inputs.subnetUri),
      securityGroup: ref(inputs.securityGroupUri),
      publicIp: ref(inputs.publicIpUri),
      blockStorage: ref(inputs.blockStorageUri),
      billingPlan: inputs.billingPeriod ? { billingPeriod: inputs.billingPeriod as "Hour" } : undefined,
      adminUser: { username: inputs.adminUsername as string },
      size: inputs.size as string | undefined,
    }) as RegistryInsert["properties"],
  };
}

/** The update body, or undefined when nothing the registry update carries changed. */
export function registryUpdateBody(olds: Inputs, news: Inputs): RegistryUpdate | undefined {
  const changed = (k: string) => !sameValue(olds[k], news[k]);
  if (!["name", "tags", "billingPeriod", "publicIpUri"].some(changed)) return undefined;
  return {
    metadata: updateMetadata(news),
    properties: compact({
      billingPlan:
        changed("billingPeriod") && news.billingPeriod
          ? { billingPeriod: news.billingPeriod as "Hour" }
          : undefined,
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
export function registryLiveInputs(declared: Inputs, response: RegistryResponse): Inputs {
  const next: Inputs = { ...declared, name: response.metadata.name ?? declared.name };
  const tags = userTags(response.metadata.tags);
  if (declared.tags !== undefined || tags.length > 0) next.tags = tags;
  const period = normaliseBillingPeriod(response.properties.billingPlan?.billingPeriod);
  // An undeclared period is not adopted: the service answers its default, and update could not send it back.
  if (period !== undefined && declared.billingPeriod !== undefined) next.billingPeriod = period;
  const publicIp = response.properties.publicIp?.uri ?? undefined;
  if (publicIp !== undefined || declared.publicIpUri !== undefined) next.publicIpUri = publicIp;
  return jsonSafe(next);
}
