/** Registry handlers (spec §4.3): CRUD, list with `loadEngineVersion`, admin password reset. */
import { Type, type Static } from "@sinclair/typebox";
import { Strict, UriRef } from "../schemas/common";
import { RegistryInsert, RegistryPasswordReset, RegistryUpdate } from "../schemas/registry";
import { listEnvelope, parseListParams } from "./filter";
import { beginDelete, beginUpdate } from "./transitions";
import { providerPrefix, renderRegistry } from "./render";
import { checkLocationOnUpdate, checkRegistryInsert } from "./rules";
import {
  assertMutable,
  booleanQuery,
  rejectIf,
  validateBody,
  type ApiRequest,
  type Reply,
  newRecordBase,
  type Service,
} from "./service";
import type { BaseRecord, RegistryRecord } from "./store";

/**
 * The insert body under the reading `registryVpc=accepted`: the published body plus the `vpc{uri}` real
 * clients send (api-notes "Registry"). Under `rejected` the published body alone applies, so a `vpc` is
 * refused like any unknown property (spec §2).
 */
const RegistryInsertWithVpc = Strict({
  metadata: RegistryInsert.properties.metadata,
  properties: Strict({ ...RegistryInsert.properties.properties.properties, vpc: Type.Optional(UriRef) }),
});
type RegistryInsertWithVpc = Static<typeof RegistryInsertWithVpc>;

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
export function createRegistry(svc: Service, req: ApiRequest): Reply {
  const schema = svc.config.wire.registryVpc === "accepted" ? RegistryInsertWithVpc : RegistryInsert;
  const body = validateBody<RegistryInsertWithVpc>(schema, req.body);
  rejectIf(checkRegistryInsert(body));
  const base = newRecordBase(svc, req, "registry", body.metadata, svc.config.durations.registryCreateMs);
  const rec = newRegistryRecord(base, body.properties);
  const id = rec.id;
  svc.store.registries.set(id, rec);
  svc.commit();
  return {
    status: 201,
    body: renderRegistry(rec, svc.renderContext()),
    headers: { Location: `${providerPrefix(svc.namespace, req.projectId)}/registries/${id}` },
  };
}

/** `GET P/registries`: `loadEngineVersion=true` fills `data.info.version` (spec §2.7). */
export function listRegistries(svc: Service, req: ApiRequest): Reply {
  const params = parseListParams(req.query, svc.config.wire.filters);
  const ctx = svc.renderContext(booleanQuery(req.query, "loadEngineVersion"));
  const items = [...svc.store.registries.values()]
    .filter((r) => r.projectId === req.projectId && r.life.state !== "Deleted")
    .map((r) => renderRegistry(r, ctx));
  return { status: 200, body: listEnvelope(items, params, req.pageUrl) };
}

/** `GET P/registries/{id}`: `data.info.version` is null here (only lists load it). */
export function getRegistry(svc: Service, req: ApiRequest): Reply {
  const ignoreDeleted = booleanQuery(req.query, "ignoreDeletedStatus");
  const rec = svc.registry(req.projectId, req.params.id, !ignoreDeleted);
  return { status: 200, body: renderRegistry(rec, svc.renderContext()) };
}

/** `PUT P/registries/{id}`: `billingPlan`, `publicIp`, metadata name and tags; 200, no body. */
export function updateRegistry(svc: Service, req: ApiRequest): Reply {
  const body = validateBody<RegistryUpdate>(RegistryUpdate, req.body);
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

/** `DELETE P/registries/{id}`: 202; idempotent while `Deleting`. */
export function deleteRegistry(svc: Service, req: ApiRequest): Reply {
  const rec = svc.registry(req.projectId, req.params.id);
  if (rec.life.state === "Deleting") return { status: 202 };
  assertMutable(rec, "delete");
  beginDelete(rec, svc.now(), svc.config.durations.registryDeleteMs);
  svc.commit();
  return { status: 202 };
}

/**
 * `PUT P/registries/{id}/resetAdminPassword`: 200, no body. The new password never travels on this API
 * (api-notes "Registry": how it reaches the user is undocumented); `adminPasswordLastSetDate` moves.
 */
export function resetAdminPassword(svc: Service, req: ApiRequest): Reply {
  validateBody<RegistryPasswordReset>(RegistryPasswordReset, req.body);
  const rec = svc.registry(req.projectId, req.params.id);
  assertMutable(rec, "action");
  const now = svc.now();
  rec.passwordResetAt = now;
  beginUpdate(rec, now, svc.config.durations.resetPasswordMs);
  svc.commit();
  return { status: 200 };
}
