/** Backup handlers (spec §4.2): backups are addressed under their cluster, which must exist (404 otherwise). */
import { BackupInsert, BackupUpdate } from "../schemas/kaasBackup";
import { listEnvelope, parseListParams } from "./filter";
import { beginDelete, beginUpdate } from "./transitions";
import { ApiProblem } from "./problems";
import { kaasUri, renderBackup } from "./render";
import { checkBackupInsert, checkLocationOnUpdate } from "./rules";
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
import type { BackupRecord, BaseRecord, KaasRecord } from "./store";

/**
 * The stored backup of `cluster` of a create's body, on the fields every record shares (`newRecordBase`).
 * Shared by `POST P/kaas/{kaasId}/backups` and the control API's seeding (`seed.ts`).
 */
export function newBackupRecord(base: BaseRecord, cluster: KaasRecord, body: BackupInsert): BackupRecord {
  return {
    kind: "backup",
    ...base,
    kaasId: cluster.id,
    // A backup lives where its cluster lives.
    location: body.metadata.location?.value ?? cluster.location,
    props: {
      billingPeriod: body.properties.billingPeriod ?? null,
      type: body.properties.type ?? null,
      retentionDays: body.properties.retentionDays ?? null,
    },
  };
}

/** `POST P/kaas/{kaasId}/backups`: 201 with the backup `InCreation`. The cluster must be operational. */
export function createBackup(svc: Service, req: ApiRequest): Reply {
  const body = validateBody<BackupInsert>(BackupInsert, req.body);
  const cluster = svc.kaas(req.projectId, req.params.kaasId);
  const state = cluster.life.state;
  if (state === "InCreation" || state === "Deleting") {
    throw new ApiProblem("busy", {
      title: `Resource is busy: ${state}`,
      detail: `KaaS "${cluster.id}" is ${state}; a backup can be taken once it is Active.`,
    });
  }
  if (state === "Failed") {
    throw new ApiProblem("notOperational", {
      title: "Resource is not operational: Failed",
      detail: `KaaS "${cluster.id}" is Failed; it cannot be backed up.`,
    });
  }
  rejectIf(checkBackupInsert(body));
  const base = newRecordBase(svc, req, "backup", body.metadata, svc.config.durations.backupCreateMs);
  const rec = newBackupRecord(base, cluster, body);
  const id = rec.id;
  svc.store.backups.set(id, rec);
  svc.commit();
  return {
    status: 201,
    body: renderBackup(rec, svc.renderContext()),
    headers: { Location: `${kaasUri(svc.namespace, req.projectId, cluster.id)}/backups/${id}` },
  };
}

/** `GET P/kaas/{kaasId}/backups`: 404 when the cluster does not exist; deleted backups are not listed. */
export function listBackups(svc: Service, req: ApiRequest): Reply {
  const params = parseListParams(req.query, svc.config.wire.filters);
  const cluster = svc.kaas(req.projectId, req.params.kaasId);
  const ctx = svc.renderContext();
  const items = [...svc.store.backups.values()]
    .filter((r) => r.kaasId === cluster.id && r.life.state !== "Deleted")
    .map((r) => renderBackup(r, ctx));
  return { status: 200, body: listEnvelope(items, params, req.pageUrl) };
}

/** `GET P/kaas/{kaasId}/backups/{id}`; a tombstoned cluster still shows its `Deleted` backups. */
export function getBackup(svc: Service, req: ApiRequest): Reply {
  const ignoreDeleted = booleanQuery(req.query, "ignoreDeletedStatus");
  svc.kaas(req.projectId, req.params.kaasId, !ignoreDeleted);
  const rec = svc.backup(req.projectId, req.params.kaasId, req.params.id, !ignoreDeleted);
  return { status: 200, body: renderBackup(rec, svc.renderContext()) };
}

/** `PUT P/kaas/{kaasId}/backups/{id}`: only `billingPeriod` (and metadata name/tags) change; 200, no body. */
export function updateBackup(svc: Service, req: ApiRequest): Reply {
  const body = validateBody<BackupUpdate>(BackupUpdate, req.body);
  svc.kaas(req.projectId, req.params.kaasId);
  const rec = svc.backup(req.projectId, req.params.kaasId, req.params.id);
  assertMutable(rec, "update");
  rejectIf(checkLocationOnUpdate(body.metadata, rec.location));
  rec.name = body.metadata.name;
  if (body.metadata.tags !== undefined) rec.tags = body.metadata.tags ?? [];
  if (body.properties.billingPeriod !== undefined) rec.props.billingPeriod = body.properties.billingPeriod;
  beginUpdate(rec, svc.now(), svc.config.durations.backupUpdateMs);
  svc.commit();
  return { status: 200 };
}

/** `DELETE P/kaas/{kaasId}/backups/{id}`: 202; idempotent while `Deleting`. */
export function deleteBackup(svc: Service, req: ApiRequest): Reply {
  svc.kaas(req.projectId, req.params.kaasId);
  const rec = svc.backup(req.projectId, req.params.kaasId, req.params.id);
  if (rec.life.state === "Deleting") return { status: 202 };
  assertMutable(rec, "delete");
  beginDelete(rec, svc.now(), svc.config.durations.backupDeleteMs);
  svc.commit();
  return { status: 202 };
}
