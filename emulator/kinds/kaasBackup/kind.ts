/**
 * The backup kind (spec §4.2): the stored backup, its handlers (create and update; the list, get and delete are
 * those every kind shares, `resources.ts`), its rendering and its seeding. Backups are addressed under their
 * cluster, which must exist (404 otherwise).
 */
import type { EndpointName } from "../../../schemas/endpoints";
import type { BackupInsert, BackupResponse } from "../../../schemas/kaasBackup";
import { iso } from "../../base/clock";
import { findKaas } from "../kaas/handlers";
import type { KaasRecord } from "../kaas/record";
import { kaasUri } from "../kaas/render";
import type { BackupRecord } from "./record";
import type { KindModule, KindResources, PathRequest } from "../../generic/kind";
import { ApiProblem, validationProblem } from "../../base/problems";
import { objectResponse, phase, provisioned, provisionedAt, type RenderContext } from "../../base/render";
import {
  createdReply,
  deleteHandler,
  getHandler,
  listHandler,
  updatableRecord,
  updatedReply,
} from "../../generic/resources";
import type { ApiHandler } from "../../generic/endpoint";
import { newRecordBase, rejectIf, type KindService } from "../../generic/service";
import type { BaseRecord } from "../../base/record";
import { settleLife } from "../../base/transitions";
import { BACKUP_DURATIONS, type BackupDurations } from "./durations";
import { withWireOverrides } from "../../base/wireOverrides";
import { checkBackupInsert } from "./rules";

/**
 * The backup the request's path names, below its cluster, which must be there too; `Deleted` tombstones (of the
 * cluster too) only with `allowDeleted`. 404 otherwise.
 */
function findBackup(svc: KindService<KaasBackupView>, req: PathRequest, allowDeleted: boolean): BackupRecord {
  findKaas(svc, req.projectId, req.params.kaasId, allowDeleted);
  const rec = svc.lookup("backup", req.projectId, req.params.id, allowDeleted);
  if (rec.kaasId !== req.params.kaasId) throw svc.notFound("backup", req.params.id);
  return rec;
}

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

/** The records a backup's handlers read, by kind: backups, and the clusters they are taken of. */
type KaasBackupView = { kaas: KaasRecord; backup: BackupRecord };

// ---- Handlers ----

/** `POST P/kaas/{kaasId}/backups`: 201 with the backup `InCreation`. The cluster must be operational. */
export const createBackup: ApiHandler<"createBackup", KaasBackupView, BackupDurations> = (svc, req) => {
  const { body } = req;
  const cluster = findKaas(svc, req.projectId, req.params.kaasId);
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
  const location = `${kaasUri(svc.namespace, req.projectId, cluster.id)}/backups/${rec.id}`;
  return createdReply(svc, "backup", rec, renderBackup, location);
};

/** `PUT P/kaas/{kaasId}/backups/{id}`: only `billingPeriod` (and metadata name/tags) change; 200, no body. */
export const updateBackup: ApiHandler<"updateBackup", KaasBackupView, BackupDurations> = (svc, req) => {
  const { body } = req;
  const rec = updatableRecord(kaasBackupResources, svc, req, body.metadata);
  if (body.properties.billingPeriod !== undefined) rec.props.billingPeriod = body.properties.billingPeriod;
  return updatedReply(svc, rec, svc.now(), svc.config.durations.backupUpdateMs);
};

// ---- Rendering ----

/**
 * What the emulator renders for a backup: its response type plus the `linkedResources` of the published answer
 * that the response schema leaves out (the provider never reads them).
 */
type BackupRendering = BackupResponse & { properties: { linkedResources: { uri: string }[] } };

/** Renders a backup. */
export function renderBackup(rec: BackupRecord, ctx: RenderContext<KaasBackupView>): BackupResponse {
  return withWireOverrides(rec, renderBackupAsStored(rec, ctx));
}

function renderBackupAsStored(rec: BackupRecord, ctx: RenderContext<KaasBackupView>): BackupRendering {
  const cluster = ctx.records.kaas.get(rec.kaasId);
  const clusterUri = kaasUri(ctx.namespace, rec.projectId, rec.kaasId);
  const uri = `${clusterUri}/backups/${rec.id}`;
  const nodes = cluster ? cluster.props.nodePools.reduce((n, p) => n + p.nodeIds.length, 0) : 1;
  const days = rec.props.retentionDays;
  const readyAt = provisionedAt(rec);
  return {
    ...objectResponse(rec, uri, ctx, { id: "kaas-backup", name: "KaaS Backup" }),
    properties: {
      linkedResources: [{ uri: clusterUri }],
      billingPeriod: rec.props.billingPeriod,
      type: rec.props.type,
      retentionDays: days,
      kaas: { uri: clusterUri, id: rec.kaasId, name: cluster?.name ?? null },
    },
    data: {
      info: {
        // A deterministic size: 256 MiB of etcd and manifests per node.
        sizeBytes: provisioned(rec) ? Math.max(1, nodes) * 268_435_456 : null,
        expiresAt: days !== null && readyAt !== null ? iso(readyAt + days * 86_400_000) : null,
      },
      private: { phase: phase(rec) },
    },
  };
}

// ---- The kind ----

/**
 * The cluster of seeded backups: in the project and not being deleted, else a 400 naming `kaasId` (seeding
 * checks this before anything is stored).
 */
function clusterOfSeededBackups(
  svc: KindService<KaasBackupView>,
  projectId: string,
  kaasId: string,
): KaasRecord {
  const invalid = (errorMessage: string) =>
    validationProblem([{ fieldName: "kaasId", errorMessage }], `kaasId: ${errorMessage}`);
  const cluster = svc.store.records.kaas.get(kaasId);
  if (!cluster || cluster.projectId !== projectId || cluster.life.state === "Deleted") {
    throw invalid(`names no cluster of project "${projectId}"`);
  }
  if (cluster.life.state === "Deleting") throw invalid(`names a cluster being deleted`);
  return cluster;
}

/** The endpoints of backups (`schemas/endpoints.ts`). */
type BackupEndpoint = Extract<
  EndpointName,
  "createBackup" | "listBackups" | "getBackup" | "updateBackup" | "deleteBackup"
>;

/** What the list, get and delete every kind shares read of a backup (`generic/resources.ts`). */
const kaasBackupResources: KindResources<
  "backup",
  BackupRecord,
  BackupResponse,
  KaasBackupView,
  BackupDurations
> = {
  kind: "backup",
  render: renderBackup,
  find: findBackup,
  listScope: (svc, req) => {
    const cluster = findKaas(svc, req.projectId, req.params.kaasId);
    return (rec) => rec.kaasId === cluster.id;
  },
  deleteMs: (durations) => durations.backupDeleteMs,
};

/** The backup kind. */
export const kaasBackupKind: KindModule<
  "backup",
  BackupRecord,
  BackupResponse,
  "backups",
  BackupEndpoint,
  KaasBackupView,
  typeof BACKUP_DURATIONS
> = {
  ...kaasBackupResources,
  label: "Backup",
  stateField: "backups",
  durations: BACKUP_DURATIONS,
  handlers: {
    createBackup,
    listBackups: listHandler(kaasBackupResources),
    getBackup: getHandler(kaasBackupResources),
    updateBackup,
    deleteBackup: deleteHandler(kaasBackupResources),
  },
  settle: settleLife,
  seeding: {
    underCluster: true,
    // A seeded backup lives where its cluster lives.
    plan: (svc, request) => {
      const cluster = clusterOfSeededBackups(svc, request.projectId, request.kaasId ?? "");
      const properties = { billingPeriod: "Hour", type: "Full", retentionDays: 7 };
      return {
        location: cluster.location,
        record: (base) =>
          newBackupRecord(base, cluster, {
            metadata: { name: base.name, location: { value: base.location } },
            properties,
          }),
      };
    },
  },
};
