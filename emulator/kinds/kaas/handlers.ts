/**
 * The handlers of a cluster's own endpoints (spec §4.1): create, update, kubeconfig download, node pool update,
 * and what a cluster's delete does besides `Deleting`. The list, get and delete are those every kind shares
 * (`generic/resources.ts`); the volume endpoints are `volumes.ts`'s.
 */
import { compareVersions } from "../../base/versions";
import { deriveSecret } from "../../base/auth";
import type { DeleteOptions } from "../../generic/kind";
import { ApiProblem } from "../../base/problems";
import type { ApiHandler } from "../../generic/endpoint";
import { checkKaasInsert, checkKaasUpdate, checkPoolValues, limitsFor } from "./rules";
import { newRecordBase, rejectIf, type KindService } from "../../generic/service";
import { beginUpdate } from "../../base/transitions";

import type { KaasDurations } from "./durations";
import type { KaasRecord, KaasView, PoolRecord } from "./record";
import { newKaasRecord, newPool, resizePool, orphanAttachments } from "./record";
import { renderKaas, kaasUri } from "./render";
import {
  applyMetadataUpdate,
  createdReply,
  findMutable,
  heldByProject,
  updatedReply,
} from "../../generic/resources";

/** Where clusters live: each in its project (`KindResources.find`, `listScope`). */
export const KAAS_IN_PROJECT = heldByProject<KaasView, "kaas">("kaas");

/** A cluster of the project; `Deleted` tombstones only with `allowDeleted`. 404 otherwise. */
export function findKaas(
  svc: KindService<KaasView>,
  projectId: string,
  id: string,
  allowDeleted = false,
): KaasRecord {
  return svc.lookup("kaas", projectId, id, allowDeleted);
}

// ---- Handlers ----

/** `POST P/kaas`: 201 with the cluster `InCreation`. */
export const createKaas: ApiHandler<"createKaas", KaasView, KaasDurations> = (svc, req) => {
  const { body } = req;
  rejectIf(checkKaasInsert(body, svc.config));
  const base = newRecordBase(svc, req, "kaas", body.metadata, svc.config.durations.kaasCreateMs);
  const rec = newKaasRecord(base, body.properties);
  return createdReply(svc, "kaas", rec, renderKaas, kaasUri(svc.namespace, req.projectId, rec.id));
};

/** `PUT P/kaas/{id}`: 200 without a body; the cluster reads `Updating` for a while. */
export const updateKaas: ApiHandler<"updateKaas", KaasView, KaasDurations> = (svc, req) => {
  const { body } = req;
  const rec = findMutable(KAAS_IN_PROJECT, svc, req, "update");
  rejectIf(checkKaasUpdate(body, rec, svc.config));
  const now = svc.now();
  const p = body.properties;
  const props = rec.props;
  applyMetadataUpdate(rec, body.metadata);
  if (p.kubernetesVersion && compareVersions(p.kubernetesVersion.value, props.kubernetesVersion) > 0) {
    const { value, upgradeDate } = p.kubernetesVersion;
    const scheduledAt = upgradeDate ? Date.parse(upgradeDate) : NaN;
    // spec §2.3: "A version upgrade is handled as soon as the request is sent, unless `upgradeDate` is given."
    if (Number.isFinite(scheduledAt) && scheduledAt > now) {
      props.upgradeTo = { value, scheduledAt };
    } else {
      props.kubernetesVersion = value;
      props.upgradeTo = null;
    }
  }
  if (p.nodePools) {
    // The update carries the full desired list (api-notes "KaaS"): missing pools are removed.
    const desired = p.nodePools;
    const removed = props.nodePools.filter((pool) => !desired.some((d) => d.name === pool.name));
    for (const pool of removed) orphanAttachments(rec, pool.nodeIds);
    props.nodePools = desired.map((d) => {
      const pool = props.nodePools.find((existing) => existing.name === d.name);
      if (!pool) return newPool(rec, d, now);
      pool.instance = d.instance;
      pool.dataCenter = d.dataCenter;
      pool.autoscaling = d.autoscaling === true;
      pool.minCount = d.minCount ?? null;
      pool.maxCount = d.maxCount ?? null;
      resizePool(rec, pool, d.nodes);
      return pool;
    });
  }
  if (p.ha !== undefined) props.ha = p.ha;
  if (p.storage) props.maxCumulativeVolumeSize = p.storage.maxCumulativeVolumeSize;
  if (p.billingPlan) props.billingPeriod = p.billingPlan.billingPeriod;
  if (p.apiServerAccessProfile) {
    props.authorizedIpRanges = p.apiServerAccessProfile.authorizedIpRanges ?? null;
    props.enablePrivateCluster = p.apiServerAccessProfile.enablePrivateCluster ?? props.enablePrivateCluster;
  }
  return updatedReply(svc, rec, now, svc.config.durations.kaasUpdateMs);
};

/**
 * What `DELETE P/kaas/{id}` does besides the delete every kind shares (`resources.ts`), from its query options:
 * `deleteOnCascade` is recorded for inspection, and the cluster's backups go with it, deleted alongside.
 */
export function kaasDeleteEffects(
  options: DeleteOptions,
): (svc: KindService<KaasView>, rec: KaasRecord, now: number) => void {
  const cascade = options.deleteOnCascade ?? false;
  return (svc, rec, now) => {
    rec.deleteOnCascade = cascade;
    for (const backup of svc.store.records.backup.values()) {
      if (backup.kaasId === rec.id && backup.life.state !== "Deleted") {
        backup.life = { ...rec.life };
        backup.updatedAt = now;
      }
    }
  };
}

/** The bearer token written into a cluster's kubeconfig: derived from the seed and the id, never logged. */
export function kubeconfigToken(seed: number, kaasId: string): string {
  return `kube_${deriveSecret(seed, `kubeconfig:${kaasId}`)}`;
}

/** The kubeconfig YAML of a cluster. */
export function kubeconfigYaml(rec: KaasRecord, seed: number, managementIp: string | null): string {
  const ca = Buffer.from(
    `-----BEGIN CERTIFICATE-----\nEMULATOR-CA-${rec.id}\n-----END CERTIFICATE-----\n`,
  ).toString("base64");
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `  - name: ${rec.name}`,
    "    cluster:",
    `      server: https://${managementIp ?? `${rec.id}.kaas.emulator.invalid`}:6443`,
    `      certificate-authority-data: ${ca}`,
    "contexts:",
    `  - name: ${rec.name}`,
    "    context:",
    `      cluster: ${rec.name}`,
    `      user: ${rec.name}-admin`,
    `current-context: ${rec.name}`,
    "users:",
    `  - name: ${rec.name}-admin`,
    "    user:",
    `      token: ${kubeconfigToken(seed, rec.id)}`,
    "",
  ].join("\n");
}

/** `GET P/kaas/{id}/download`: `{name, content}` with base64 kubeconfig content, only when `Active`. */
export const downloadKubeconfig: ApiHandler<"downloadKubeconfig", KaasView> = (svc, req) => {
  const rec = findKaas(svc, req.projectId, req.params.id);
  if (rec.life.state !== "Active") {
    throw new ApiProblem("notActive", {
      title: `Resource is not active: ${rec.life.state}`,
      detail: `The configuration file of KaaS "${rec.id}" is available once the cluster is Active.`,
    });
  }
  const rendered = renderKaas(rec, svc.renderContext());
  const yaml = kubeconfigYaml(rec, svc.seed, rendered.properties.managementIp ?? null);
  return {
    status: 200,
    body: { name: `${rec.name}-kubeconfig.yaml`, content: Buffer.from(yaml, "utf8").toString("base64") },
  };
};

export function poolOr404(rec: KaasRecord, name: string): PoolRecord {
  const pool = rec.props.nodePools.find((p) => p.name === name);
  if (!pool) {
    throw new ApiProblem("notFound", {
      title: "Node pool not found",
      detail: `KaaS "${rec.id}" has no node pool "${name}".`,
    });
  }
  return pool;
}

/** `PUT P/kaas/{id}/nodePools/{nodePoolName}`: partial update; 200 with the cluster. */
export const updateNodePool: ApiHandler<"updateNodePool", KaasView, KaasDurations> = (svc, req) => {
  const { body } = req;
  const rec = findKaas(svc, req.projectId, req.params.id);
  const pool = poolOr404(rec, req.params.pool);
  svc.assertMutable(rec, "update");
  const p = body.properties;
  // api-notes "KaaS": `minNode/maxNode` here are the pool's `minCount/maxCount`.
  const merged = {
    instance: p.instance ?? pool.instance,
    nodes: p.nodes ?? pool.nodeIds.length,
    autoscaling: p.autoscaling ?? pool.autoscaling,
    minCount: p.minNode ?? pool.minCount,
    maxCount: p.maxNode ?? pool.maxCount,
  };
  rejectIf(
    checkPoolValues(merged, limitsFor(svc.config, rec.props.ha), svc.config, {
      instance: "properties.instance",
      nodes: "properties.nodes",
      minCount: "properties.minNode",
      maxCount: "properties.maxNode",
    }),
  );
  pool.instance = merged.instance;
  pool.autoscaling = merged.autoscaling;
  pool.minCount = merged.minCount;
  pool.maxCount = merged.maxCount;
  resizePool(rec, pool, merged.nodes);
  beginUpdate(rec, svc.now(), svc.config.durations.kaasUpdateMs);
  svc.commit();
  return { status: 200, body: renderKaas(rec, svc.renderContext()) };
};
