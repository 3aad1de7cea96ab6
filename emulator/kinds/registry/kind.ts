/**
 * The registry kind (spec §4.3): the stored registry, its handlers (create, update and admin password reset; the
 * list, with `loadEngineVersion`, get and delete are those every kind shares, `resources.ts`), its rendering and
 * its seeding.
 */
import type { EndpointName } from "../../../schemas/endpoints";
import type { RegistryInsert, RegistryResponse } from "../../../schemas/registry";
import { iso } from "../../base/clock";
import type { RegistryInsertWithVpc } from "../../base/wideBodies";
import type { KindModule, KindResources } from "../../generic/kind";
import {
  billingPeriodResponse,
  objectResponse,
  presetSubnetUri,
  providerPrefix,
  provisionedAt,
  type RenderContext,
} from "../../base/render";
import {
  createdReply,
  deleteHandler,
  findMutable,
  getHandler,
  heldByProject,
  listHandler,
  updatableRecord,
  updatedReply,
} from "../../generic/resources";
import type { ApiHandler } from "../../generic/endpoint";
import { newRecordBase, rejectIf } from "../../generic/service";
import type { BaseRecord } from "../../base/record";
import { settleLife } from "../../base/transitions";
import { REGISTRY_DURATIONS, type RegistryDurations } from "./durations";
import { withWireOverrides } from "../../base/wireOverrides";
import { checkRegistryInsert } from "./rules";

// ---- The stored registry ----

/** A container registry. */
export interface RegistryRecord extends BaseRecord {
  kind: "registry";
  props: {
    preset: boolean;
    vpcUri: string | null;
    subnetUri: string | null;
    securityGroupUri: string | null;
    publicIpUri: string | null;
    blockStorageUri: string | null;
    billingPeriod: string | null;
    adminUsername: string;
    size: string | null;
  };
  /** Time of the last admin password reset; null until the first one. */
  passwordResetAt: number | null;
}

/** The records a registry's handlers read, by kind: registries only. */
type RegistryView = { registry: RegistryRecord };

/**
 * The VPC a subnet URI lies under, when it is spelled `.../vpcs/{vpc}/subnets/{subnet}` (as the emulator's
 * preset subnets are); undefined otherwise. Where the create sent no `vpc`, the emulated service reports this
 * one: the documents do not say how the real one learns the VPC of a subnet.
 */
export function vpcOfSubnet(subnetUri: string | undefined): string | undefined {
  return subnetUri === undefined ? undefined : /^(.*\/vpcs\/[^/]+)\/subnets\/[^/]+\/?$/.exec(subnetUri)?.[1];
}

/**
 * The stored registry of a create's properties, on the fields every record shares (`newRecordBase`). Shared
 * by `POST P/registries` and the control API's seeding (`seed.ts`).
 */
export function newRegistryRecord(base: BaseRecord, p: RegistryInsertWithVpc["properties"]): RegistryRecord {
  return {
    kind: "registry",
    ...base,
    passwordResetAt: null,
    props: {
      preset: p.preset === true,
      vpcUri: p.vpc?.uri ?? vpcOfSubnet(p.subnet?.uri) ?? null,
      subnetUri: p.subnet?.uri ?? null,
      securityGroupUri: p.securityGroup?.uri ?? null,
      publicIpUri: p.publicIp?.uri ?? null,
      blockStorageUri: p.blockStorage?.uri ?? null,
      billingPeriod: p.billingPlan?.billingPeriod ?? null,
      adminUsername: p.adminUser.username,
      size: p.size ?? null,
    },
  };
}

// ---- Handlers ----

/** `POST P/registries`: 201 with the registry `InCreation`; `properties.vpc` as the reading `registryVpc` says. */
export const createRegistry: ApiHandler<"createRegistry", RegistryView, RegistryDurations> = (svc, req) => {
  const { body } = req;
  rejectIf(checkRegistryInsert(body));
  const base = newRecordBase(svc, req, "registry", body.metadata, svc.config.durations.registryCreateMs);
  const rec = newRegistryRecord(base, body.properties);
  const location = `${providerPrefix(svc.namespace, req.projectId)}/registries/${rec.id}`;
  return createdReply(svc, "registry", rec, renderRegistry, location);
};

/** `PUT P/registries/{id}`: `billingPlan`, `publicIp`, metadata name and tags; 200, no body. */
export const updateRegistry: ApiHandler<"updateRegistry", RegistryView, RegistryDurations> = (svc, req) => {
  const { body } = req;
  const rec = updatableRecord(registryResources, svc, req, body.metadata);
  if (body.properties.billingPlan) rec.props.billingPeriod = body.properties.billingPlan.billingPeriod;
  if (body.properties.publicIp) rec.props.publicIpUri = body.properties.publicIp.uri;
  return updatedReply(svc, rec, svc.now(), svc.config.durations.registryUpdateMs);
};

/**
 * `PUT P/registries/{id}/resetAdminPassword`: 200, no body. The new password never travels on this API
 * (api-notes "Registry": how it reaches the user is undocumented); `adminPasswordLastSetDate` moves.
 */
export const resetAdminPassword: ApiHandler<"resetAdminPassword", RegistryView, RegistryDurations> = (
  svc,
  req,
) => {
  const rec = findMutable(registryResources, svc, req, "action");
  const now = svc.now();
  rec.passwordResetAt = now;
  return updatedReply(svc, rec, now, svc.config.durations.resetPasswordMs);
};

// ---- Rendering ----

/**
 * What the emulator renders for a registry: its response type plus the `linkedResources` of the published
 * answer that the response schema leaves out (the provider never reads them).
 */
type RegistryRendering = RegistryResponse & { properties: { linkedResources: { uri: string }[] } };

/** Renders a registry. */
export function renderRegistry(rec: RegistryRecord, ctx: RenderContext): RegistryResponse {
  return withWireOverrides(rec, renderRegistryAsStored(rec, ctx));
}

function renderRegistryAsStored(rec: RegistryRecord, ctx: RenderContext): RegistryRendering {
  const p = rec.props;
  // Known quirk (api-notes "Registry"): the REST path is `registries/{id}` but `metadata.uri` says
  // `containerRegistries`.
  const uri = `${providerPrefix(ctx.namespace, rec.projectId)}/containerRegistries/${rec.id}`;
  const readyAt = provisionedAt(rec);
  const ready = readyAt !== null;
  const fqdn = `${rec.name.toLowerCase().replace(/[^a-z0-9-]/g, "-")}-${rec.id}.cr.emulator.invalid`;
  const vpcUri =
    p.vpcUri ?? (p.preset ? `/projects/${rec.projectId}/providers/Vendor.Network/vpcs/vpc-${rec.id}` : null);
  const subnetUri = presetSubnetUri(rec, p);
  return {
    ...objectResponse(rec, uri, ctx, { id: "container-registry", name: "Container Registry" }),
    properties: {
      linkedResources: [],
      preset: p.preset,
      publicIp: { uri: p.publicIpUri },
      vpc: { uri: vpcUri },
      subnet: { uri: subnetUri },
      securityGroup: { uri: p.securityGroupUri },
      blockStorage: { uri: p.blockStorageUri },
      billingPlan: { billingPeriod: billingPeriodResponse(p.billingPeriod) },
      adminUser: { username: p.adminUsername },
      size: p.size,
    },
    data: {
      private: {
        passwordSet: ready,
        adminPasswordLastSetDate: readyAt !== null ? iso(rec.passwordResetAt ?? readyAt) : null,
      },
      info: {
        version: ctx.loadEngineVersion && ready ? ctx.config.registryEngineVersion : null,
        privateBaseUrl: ready ? `https://${rec.id}.internal.cr.emulator.invalid` : null,
        publicBaseUrl: ready ? `https://${fqdn}` : null,
        fqdn: ready ? fqdn : null,
      },
    },
  };
}

// ---- The kind ----

/** The endpoints of registries (`schemas/endpoints.ts`). */
type RegistryEndpoint = Extract<
  EndpointName,
  | "createRegistry"
  | "listRegistries"
  | "getRegistry"
  | "updateRegistry"
  | "deleteRegistry"
  | "resetAdminPassword"
>;

/** What the list, get and delete every kind shares read of a registry (`generic/resources.ts`). */
const registryResources: KindResources<
  "registry",
  RegistryRecord,
  RegistryResponse,
  RegistryView,
  RegistryDurations
> = {
  kind: "registry",
  render: renderRegistry,
  ...heldByProject<RegistryView, "registry">("registry"),
  deleteMs: (durations) => durations.registryDeleteMs,
};

/** The registry kind. */
export const registryKind: KindModule<
  "registry",
  RegistryRecord,
  RegistryResponse,
  "registries",
  RegistryEndpoint,
  RegistryView,
  typeof REGISTRY_DURATIONS
> = {
  ...registryResources,
  label: "Registry",
  stateField: "registries",
  durations: REGISTRY_DURATIONS,
  handlers: {
    createRegistry,
    listRegistries: listHandler(registryResources),
    getRegistry: getHandler(registryResources),
    updateRegistry,
    deleteRegistry: deleteHandler(registryResources),
    resetAdminPassword,
  },
  settle: settleLife,
  seeding: {
    underCluster: false,
    plan: () => {
      const properties: RegistryInsert["properties"] = {
        preset: true,
        adminUser: { username: "registry-admin" },
        billingPlan: { billingPeriod: "Month" },
        size: "Small",
      };
      return { record: (base) => newRegistryRecord(base, properties) };
    },
  },
};
