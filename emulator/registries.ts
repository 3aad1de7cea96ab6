/**
 * Registry handlers (spec §4.3): create, update and admin password reset; the list (with `loadEngineVersion`),
 * get and delete are those every kind shares (`resources.ts`).
 */
import { Type, type Static } from "@sinclair/typebox";
import { Strict, UriRef } from "../schemas/common";
import { RegistryInsert } from "../schemas/registry";
import { providerPrefix, renderRegistry } from "./render";
import type { EndpointReply, EndpointRequest } from "./routes";
import { checkLocationOnUpdate, checkRegistryInsert } from "./rules";
import { assertMutable, newRecordBase, rejectIf, type Service } from "./service";
import type { BaseRecord, RegistryRecord } from "./store";
import { beginUpdate } from "./transitions";

/**
 * The insert body under the reading `registryVpc=accepted`: the published body plus the `vpc{uri}` real
 * clients send (api-notes "Registry"). Under `rejected` the published body alone applies, so a `vpc` is
 * refused like any unknown property (spec §2). The routes check a create's body against one or the other.
 */
export const RegistryInsertWithVpc = Strict({
  metadata: RegistryInsert.properties.metadata,
  properties: Strict({ ...RegistryInsert.properties.properties.properties, vpc: Type.Optional(UriRef) }),
});
/** A registry insert body under the reading `registryVpc=accepted`. */
export type RegistryInsertWithVpc = Static<typeof RegistryInsertWithVpc>;

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

/** `POST P/registries`: 201 with the registry `InCreation`; `properties.vpc` as the reading `registryVpc` says. */
export function createRegistry(
  svc: Service,
  req: EndpointRequest<"createRegistry">,
): EndpointReply<"createRegistry"> {
  const { body } = req;
  rejectIf(checkRegistryInsert(body));
  const base = newRecordBase(svc, req, "registry", body.metadata, svc.config.durations.registryCreateMs);
  const rec = newRegistryRecord(base, body.properties);
  const id = rec.id;
  svc.store.records.registry.set(id, rec);
  svc.commit();
  return {
    status: 201,
    body: renderRegistry(rec, svc.renderContext()),
    headers: { Location: `${providerPrefix(svc.namespace, req.projectId)}/registries/${id}` },
  };
}

/** `PUT P/registries/{id}`: `billingPlan`, `publicIp`, metadata name and tags; 200, no body. */
export function updateRegistry(
  svc: Service,
  req: EndpointRequest<"updateRegistry">,
): EndpointReply<"updateRegistry"> {
  const { body } = req;
  const rec = svc.registry(req.projectId, req.params.id);
  assertMutable(rec, "update");
  rejectIf(checkLocationOnUpdate(body.metadata, rec.location));
  rec.name = body.metadata.name;
  if (body.metadata.tags !== undefined) rec.tags = body.metadata.tags ?? [];
  if (body.properties.billingPlan) rec.props.billingPeriod = body.properties.billingPlan.billingPeriod;
  if (body.properties.publicIp) rec.props.publicIpUri = body.properties.publicIp.uri;
  beginUpdate(rec, svc.now(), svc.config.durations.registryUpdateMs);
  svc.commit();
  return { status: 200 };
}

/**
 * `PUT P/registries/{id}/resetAdminPassword`: 200, no body. The new password never travels on this API
 * (api-notes "Registry": how it reaches the user is undocumented); `adminPasswordLastSetDate` moves.
 */
export function resetAdminPassword(
  svc: Service,
  req: EndpointRequest<"resetAdminPassword">,
): EndpointReply<"resetAdminPassword"> {
  const rec = svc.registry(req.projectId, req.params.id);
  assertMutable(rec, "action");
  const now = svc.now();
  rec.passwordResetAt = now;
  beginUpdate(rec, now, svc.config.durations.resetPasswordMs);
  svc.commit();
  return { status: 200 };
}
