/**
 * Wire schemas of the container registry endpoints (spec §2.7, §4.3). The spec shows none of their fields;
 * they come from the reference (api-notes "Registry").
 */
import { Type, type Static } from "@sinclair/typebox";
import {
  BillingPlanRequest,
  BillingPlanResponse,
  ListEnvelope,
  ListQuery,
  MetadataRequest,
  MetadataResponse,
  Nullable,
  StatusResponse,
  Strict,
  UriRef,
  UriRefResponse,
} from "./common";

/**
 * Registry insert body. `adminUser.username` is effectively required; `size` is an opaque string. No `vpc`:
 * the published insert body lacks it and rejects unknown properties, though real clients send it (api-notes
 * "Registry"); the subnet names the network, and the answer's `vpc` is checked against `vpcUri` instead.
 */
export const RegistryInsert = Strict({
  metadata: MetadataRequest,
  properties: Strict({
    preset: Type.Optional(Type.Boolean()),
    subnet: Type.Optional(UriRef),
    securityGroup: Type.Optional(UriRef),
    publicIp: Type.Optional(UriRef),
    blockStorage: Type.Optional(UriRef),
    billingPlan: Type.Optional(BillingPlanRequest),
    adminUser: Strict({ username: Type.String({ minLength: 1 }) }),
    size: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  }),
});
export type RegistryInsert = Static<typeof RegistryInsert>;

/** Registry update body: `billingPlan` and `publicIp` only, plus metadata name and tags. */
export const RegistryUpdate = Strict({
  metadata: MetadataRequest,
  properties: Strict({
    billingPlan: Type.Optional(BillingPlanRequest),
    publicIp: Type.Optional(UriRef),
  }),
});
export type RegistryUpdate = Static<typeof RegistryUpdate>;

/** Admin password reset body: the published body carries only `metadata`. */
export const RegistryPasswordReset = Strict({ metadata: Type.Optional(MetadataRequest) });
export type RegistryPasswordReset = Static<typeof RegistryPasswordReset>;

/** Registry response. `metadata.uri` may say `containerRegistries`: paths are built from the id. */
export const RegistryResponse = Type.Object({
  metadata: MetadataResponse,
  status: Type.Optional(Nullable(StatusResponse)),
  properties: Type.Object({
    preset: Type.Optional(Nullable(Type.Boolean())),
    vpc: Type.Optional(Nullable(UriRefResponse)),
    subnet: Type.Optional(Nullable(UriRefResponse)),
    securityGroup: Type.Optional(Nullable(UriRefResponse)),
    publicIp: Type.Optional(Nullable(UriRefResponse)),
    blockStorage: Type.Optional(Nullable(UriRefResponse)),
    billingPlan: Type.Optional(Nullable(BillingPlanResponse)),
    adminUser: Type.Optional(Nullable(Type.Object({ username: Type.Optional(Nullable(Type.String())) }))),
    size: Type.Optional(Nullable(Type.String())),
  }),
  data: Type.Optional(
    Nullable(
      Type.Object({
        private: Type.Optional(
          Nullable(
            Type.Object({
              passwordSet: Type.Optional(Nullable(Type.Boolean())),
              adminPasswordLastSetDate: Type.Optional(Nullable(Type.String())),
            }),
          ),
        ),
        info: Type.Optional(
          Nullable(
            Type.Object({
              version: Type.Optional(Nullable(Type.String())),
              privateBaseUrl: Type.Optional(Nullable(Type.String())),
              publicBaseUrl: Type.Optional(Nullable(Type.String())),
              fqdn: Type.Optional(Nullable(Type.String())),
            }),
          ),
        ),
      }),
    ),
  ),
});
export type RegistryResponse = Static<typeof RegistryResponse>;

/** Registry list response (spec §2.9). */
export const RegistryList = ListEnvelope(RegistryResponse);

/** Query of the registry list: `loadEngineVersion` fills `data.info.version` (spec §2.7). */
export const RegistryListQuery = Type.Object({
  ...ListQuery.properties,
  loadEngineVersion: Type.Optional(Type.Boolean()),
});
