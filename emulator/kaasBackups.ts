/**
 * Backup handlers (spec §4.2): create and update; the list, get and delete are those every kind shares
 * (`resources.ts`). Backups are addressed under their cluster, which must exist (404 otherwise).
 */
import type { BackupInsert } from "../schemas/kaasBackup";
import { ApiProblem } from "./problems";
import { kaasUri, renderBackup } from "./render";
import type { EndpointReply, EndpointRequest } from "./routes";
import { checkBackupInsert, checkLocationOnUpdate } from "./rules";
import { assertMutable, newRecordBase, rejectIf, type Service } from "./service";
import type { BackupRecord, BaseRecord, KaasRecord } from "./store";
import { beginUpdate } from "./transitions";

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
export function createBackup(
  svc: Service,
  req: EndpointRequest<"createBackup">,
): EndpointReply<"createBackup"> {
  const { body } = req;
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
  svc.store.records.backup.set(id, rec);
  svc.commit();
  return {
    status: 201,
    body: renderBackup(rec, svc.renderContext()),
    headers: { Location: `${kaasUri(svc.namespace, req.projectId, cluster.id)}/backups/${id}` },
  };
}

/** `PUT P/kaas/{kaasId}/backups/{id}`: only `billingPeriod` (and metadata name/tags) change; 200, no body. */
export function updateBackup(
  svc: Service,
  req: EndpointRequest<"updateBackup">,
): EndpointReply<"updateBackup"> {
  const { body } = req;
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
