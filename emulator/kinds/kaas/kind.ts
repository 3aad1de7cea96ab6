/**
 * The KaaS kind (spec §4.1): its handlers (`handlers.ts`, `volumes.ts`; the list, get and delete are those every
 * kind shares, `generic/resources.ts`, with what a cluster's delete does besides), its lifecycle (scheduled
 * upgrades, detachments), its rendering (`render.ts`) and its seeding.
 */
import type { EndpointName } from "../../../schemas/endpoints";
import type { KaasInsert, KaasResponse } from "../../../schemas/kaas";
import type { KindModule, KindResources } from "../../generic/kind";
import { deleteHandler, getHandler, listHandler } from "../../generic/resources";
import type { LifeState } from "../../base/record";
import { settleLife } from "../../base/transitions";

import { KAAS_DURATIONS, type KaasDurations } from "./durations";
import type { KaasRecord, KaasView } from "./record";
import { newKaasRecord } from "./record";
import {
  KAAS_IN_PROJECT,
  createKaas,
  updateKaas,
  kaasDeleteEffects,
  downloadKubeconfig,
  updateNodePool,
} from "./handlers";
import { attachVolume, detachVolumeFromNode, detachVolumeFromCluster } from "./volumes";
import { renderKaas } from "./render";

// ---- Lifecycle ----

/**
 * Settles a cluster: its lifecycle, a scheduled Kubernetes upgrade whose date has passed (spec §2.3: "With
 * `upgradeDate`, the upgrade is scheduled for that date") and volume detachments that have completed.
 */
function settleKaas(rec: KaasRecord, now: number, durations: KaasDurations): LifeState | "Gone" {
  const state = settleLife(rec, now, durations);
  if (state === "Gone") return state;
  const upgrade = rec.props.upgradeTo;
  if (upgrade && now >= upgrade.scheduledAt && state !== "Deleting" && state !== "Deleted") {
    rec.props.kubernetesVersion = upgrade.value;
    rec.props.upgradeTo = null;
    // The upgrade job runs like an update: the cluster reads Updating for the update duration.
    const end = upgrade.scheduledAt + durations.kaasUpdateMs;
    if (state === "Active" && now < end) {
      rec.life = {
        state: "Updating",
        since: upgrade.scheduledAt,
        until: end,
        next: "Active",
        failureReason: null,
      };
    }
  }
  rec.props.attachments = rec.props.attachments.filter(
    (a) => a.visibleUntil === null || a.visibleUntil > now,
  );
  return rec.life.state;
}

// ---- The kind ----

/** The endpoints of clusters (`schemas/endpoints.ts`). */
type KaasEndpoint = Extract<
  EndpointName,
  | "createKaas"
  | "listKaas"
  | "getKaas"
  | "updateKaas"
  | "deleteKaas"
  | "downloadKubeconfig"
  | "detachVolumeFromCluster"
  | "updateNodePool"
  | "attachVolume"
  | "detachVolumeFromNode"
>;

/** What the list, get and delete every kind shares read of a cluster (`generic/resources.ts`). */
const kaasResources: KindResources<"kaas", KaasRecord, KaasResponse, KaasView, KaasDurations> = {
  kind: "kaas",
  render: renderKaas,
  ...KAAS_IN_PROJECT,
  deleteMs: (durations) => durations.kaasDeleteMs,
  deleteEffects: kaasDeleteEffects,
};

/** The KaaS kind. */
export const kaasKind: KindModule<
  "kaas",
  KaasRecord,
  KaasResponse,
  "kaas",
  KaasEndpoint,
  KaasView,
  typeof KAAS_DURATIONS
> = {
  ...kaasResources,
  label: "KaaS",
  stateField: "kaas",
  durations: KAAS_DURATIONS,
  handlers: {
    createKaas,
    listKaas: listHandler(kaasResources),
    getKaas: getHandler(kaasResources),
    updateKaas,
    deleteKaas: deleteHandler(kaasResources),
    downloadKubeconfig,
    detachVolumeFromCluster,
    updateNodePool,
    attachVolume,
    detachVolumeFromNode,
  },
  settle: settleKaas,
  // A purged cluster takes its backups with it.
  purge: (records, rec) => {
    for (const child of [...records.backup.values()]) {
      if (child.kaasId === rec.id) records.backup.delete(child.id);
    }
  },
  seeding: {
    underCluster: false,
    // The recommended Kubernetes version of the configuration (the first one without a recommendation) and one
    // pool of one `K2A4` node; the create rules are not applied, seeding is not a create.
    plan: (svc) => {
      const versions = svc.config.kubernetesVersions;
      const version = (versions.find((v) => v.recommended) ?? versions[0]).value;
      const properties: KaasInsert["properties"] = {
        preset: true,
        nodeCidr: { address: "10.0.0.0/16", name: "nodes" },
        kubernetesVersion: { value: version },
        nodePools: [{ name: "pool-1", nodes: 1, instance: "K2A4", dataCenter: "ITBG-1" }],
      };
      return { record: (base) => newKaasRecord(base, properties) };
    },
  },
};
