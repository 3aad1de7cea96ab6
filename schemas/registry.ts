/**
 * Wire schemas of the container registry endpoints (spec §2.7, §4.3). The spec shows none of their fields;
 * they come from the reference (api-notes "Registry").
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import {
  BillingPlanRequest,
  BillingPlanResponse,
  ListEnvelope,
  ListQuery,
  Maybe,
  MaybeObject,
  MaybeStrings,
  MetadataRequest,
  PresetNetworkResponse,
  ResourceRequest,
  ResourceResponse,
  Strict,
  UriRef,
  UriRefResponse,
} from "./common";

/**
 * Registry insert body. `adminUser.username` is effectively required; `size` is an opaque string. No `vpc`:
 * the published insert body lacks it and rejects unknown properties, though real clients send it (api-notes
 * "Registry"); the subnet names the network, and the answer's `vpc` is checked against `vpcUri` instead.
 */
export const RegistryInsert = ResourceRequest({
  preset: Type.Optional(Type.Boolean()),
  subnet: Type.Optional(UriRef),
  securityGroup: Type.Optional(UriRef),
  publicIp: Type.Optional(UriRef),
  blockStorage: Type.Optional(UriRef),
  billingPlan: Type.Optional(BillingPlanRequest),
  adminUser: Strict({ username: Type.String({ minLength: 1 }) }),
  size: Maybe(Type.String({ minLength: 1 })),
});
export type RegistryInsert = Static<typeof RegistryInsert>;

/** Registry update body: `billingPlan` and `publicIp` only, plus metadata name and tags. */
export const RegistryUpdate = ResourceRequest({
  billingPlan: Type.Optional(BillingPlanRequest),
  publicIp: Type.Optional(UriRef),
});
export type RegistryUpdate = Static<typeof RegistryUpdate>;

/** Admin password reset body: the published body carries only `metadata`. */
export const RegistryPasswordReset = Strict({ metadata: Type.Optional(MetadataRequest) });
export type RegistryPasswordReset = Static<typeof RegistryPasswordReset>;

/** Registry response. `metadata.uri` may say `containerRegistries`: paths are built from the id. */
export const RegistryResponse = ResourceResponse(
  {
    ...PresetNetworkResponse,
    securityGroup: Maybe(UriRefResponse),
    publicIp: Maybe(UriRefResponse),
    blockStorage: Maybe(UriRefResponse),
    billingPlan: Maybe(BillingPlanResponse),
    adminUser: MaybeObject({ username: Maybe(Type.String()) }),
    size: Maybe(Type.String()),
  },
  {
    private: MaybeObject({
      passwordSet: Maybe(Type.Boolean()),
      adminPasswordLastSetDate: Maybe(Type.String()),
    }),
    info: MaybeObject(MaybeStrings("version", "privateBaseUrl", "publicBaseUrl", "fqdn")),
  },
);
export type RegistryResponse = Static<typeof RegistryResponse>;

/** Registry list response (spec §2.9). */
export const RegistryList = ListEnvelope(RegistryResponse);

/** Query of the registry list: `loadEngineVersion` fills `data.info.version` (spec §2.7). */
export const RegistryListQuery = Type.Object({
  ...ListQuery.properties,
  loadEngineVersion: Type.Optional(Type.Boolean()),
});

/** The registry schemas the endpoint table names (`WIRE_SCHEMAS`), by those names. */
export const REGISTRY_WIRE_SCHEMAS = {
  RegistryInsert,
  RegistryUpdate,
  RegistryPasswordReset,
  RegistryResponse,
  RegistryList,
  RegistryListQuery,
} as const satisfies Record<string, TSchema>;
