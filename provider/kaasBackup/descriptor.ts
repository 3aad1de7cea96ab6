/**
 * The KaasBackup kind, described once: its arguments (what a change does, how `check` validates them), its
 * computed outputs, its service calls and deadlines. `check`, `diff` and the provider all derive from it.
 */
import type { BackupResponse } from "../../schemas";
import type { VendorContainerClient } from "../../rest/client";
import { client, log } from "../common/context";
import { withBookkeeping } from "../common/arguments";
import { DescribedProvider } from "../common/describedProvider";
import { singleRequestUpdate, type KindDescriptor } from "../common/kindDescriptor";
import {
  backupComputed,
  backupInsertBody,
  backupLiveInputs,
  backupUpdateBody,
  importedBackupInputs,
} from "./mapping";
import { BACKUP_COMPUTED_KEYS, KAAS_BACKUP_ARGUMENTS, type CheckedKaasBackupInputs } from "./types";

const MINUTE = 60_000;

/** The KaasBackup kind. */
export const KAAS_BACKUP: KindDescriptor<BackupResponse, CheckedKaasBackupInputs> = {
  kind: "KaasBackup",
  noun: "backup",
  arguments: withBookkeeping(KAAS_BACKUP_ARGUMENTS),
  computed: BACKUP_COMPUTED_KEYS,
  timeouts: { create: 20 * MINUTE, update: 20 * MINUTE, delete: 20 * MINUTE },
  calls: {
    path: (api, inputs, id) => api.pathOf("getBackup", { kaasId: inputs.kaasId, id }),
    find: (api, inputs, id) =>
      api.find("getBackup", { projectId: inputs.projectId, kaasId: inputs.kaasId, id }),
    list: (api, inputs) => (filter, onUnreadable) =>
      api.iterate(
        "listBackups",
        { projectId: inputs.projectId, kaasId: inputs.kaasId },
        { filter, onUnreadable },
      ),
    create: (api, inputs) =>
      api.call(
        "createBackup",
        { projectId: inputs.projectId, kaasId: inputs.kaasId },
        backupInsertBody(inputs),
      ),
    // A backup whose cluster or itself is already gone deletes as success (the cluster may go first).
    remove: (api, inputs, id) =>
      api.call("deleteBackup", { projectId: inputs.projectId, kaasId: inputs.kaasId, id }),
    updateMetadata: (api, inputs, id, metadata) =>
      api.call(
        "updateBackup",
        { projectId: inputs.projectId, kaasId: inputs.kaasId, id },
        { metadata, properties: {} },
      ),
  },
  // A backup update carries metadata and the billing period only: nothing to plan again.
  planAgainWhenUncertain: false,
  async adopt(api, { projectId, kaasId }, adoptId, what) {
    const found = await api.find("getBackup", { projectId, kaasId, id: adoptId });
    if (!found) throw new Error(`${what}: adoptId ${adoptId}: no such backup of cluster ${kaasId}`);
    log(what, `adopting existing backup ${adoptId}`);
    return found;
  },
  liveInputs: backupLiveInputs,
  parents: ["kaasId"],
  importedInputs: importedBackupInputs,
  plan: (olds, news, live) =>
    singleRequestUpdate(backupUpdateBody(olds, news), (api, body) =>
      api.call(
        "updateBackup",
        { projectId: news.projectId, kaasId: news.kaasId, id: live.metadata.id },
        body,
      ),
    ),
  computedOf: (live) => backupComputed(live),
};

/** The KaasBackup provider. Loaded lazily in the provider process; never serialized. */
export class KaasBackupProvider extends DescribedProvider<BackupResponse, CheckedKaasBackupInputs> {
  constructor(api: () => VendorContainerClient = client) {
    super(KAAS_BACKUP, api);
  }
}
