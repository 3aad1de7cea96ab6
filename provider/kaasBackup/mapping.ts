/** Translation between KaasBackup arguments and the wire. Pure functions. */
import type { BackupInsert, BackupResponse, BackupUpdate } from "../../schemas";
import { sameValue } from "../common/diff";
import { compact, jsonSafe } from "../common/outputs";
import type { Inputs } from "../common/check";
import type { ImportLookup } from "../common/kindDescriptor";
import {
  importedMetadata,
  normaliseBillingPeriod,
  insertMetadata,
  updateMetadata,
  withLiveNameAndTags,
} from "../common/resource";
import type { CheckedKaasBackupInputs, KaasBackupComputed } from "./types";

/** The names of the computed outputs (defined with the types, which the SDK class reads too). */
export { BACKUP_COMPUTED_KEYS } from "./types";

export function backupInsertBody(inputs: CheckedKaasBackupInputs): BackupInsert {
  return {
    metadata: insertMetadata(inputs),
    properties: compact({
      billingPeriod: inputs.billingPeriod,
      type: inputs.type,
      retentionDays: inputs.retentionDays,
    }),
  };
}

/** The update body, or undefined when nothing the service stores changed. */
export function backupUpdateBody(
  olds: CheckedKaasBackupInputs,
  news: CheckedKaasBackupInputs,
): BackupUpdate | undefined {
  const changed = (k: keyof CheckedKaasBackupInputs) => !sameValue(olds[k], news[k]);
  if (!changed("name") && !changed("tags") && !changed("billingPeriod")) return undefined;
  return {
    metadata: updateMetadata(news),
    properties: changed("billingPeriod") ? { billingPeriod: news.billingPeriod ?? null } : {},
  };
}

export function backupComputed(response: BackupResponse): KaasBackupComputed {
  const kaas = response.properties.kaas;
  return jsonSafe({
    backupId: response.metadata.id,
    uri: response.metadata.uri ?? null,
    state: response.status?.state ?? null,
    phase: response.data?.private?.phase?.name ?? null,
    sizeBytes: response.data?.info?.sizeBytes ?? null,
    expiresAt: response.data?.info?.expiresAt ?? null,
    cluster: kaas ? { id: kaas.id ?? null, uri: kaas.uri ?? null, name: kaas.name ?? null } : null,
    creationDate: response.metadata.creationDate ?? response.status?.creationDate ?? null,
    currentType: response.properties.type ?? null,
    currentRetentionDays: response.properties.retentionDays ?? null,
  });
}

/** Inputs as the live backup has them (refresh): name, tags and billing period can change out of band. */
export function backupLiveInputs(
  declared: CheckedKaasBackupInputs,
  response: BackupResponse,
): CheckedKaasBackupInputs {
  const next = withLiveNameAndTags(declared, response.metadata);
  const live = response.properties.billingPeriod ?? undefined;
  // The service may answer `monthly` for `Month`: keep the declared spelling when they mean the same. An
  // undeclared period is not adopted: the service answers its default, and update could not send it back.
  if (
    live !== undefined &&
    declared.billingPeriod !== undefined &&
    normaliseBillingPeriod(live) !== normaliseBillingPeriod(declared.billingPeriod)
  ) {
    next.billingPeriod = live;
  }
  return jsonSafe(next);
}

/**
 * The arguments of a live backup, for `pulumi import` (see `KindLifecycle.importedInputs`): the cluster from the
 * import id, the metadata, and the type, retention and billing period as answered (the period in the input
 * spelling).
 */
export function importedBackupInputs(lookup: ImportLookup, response: BackupResponse): Inputs {
  const p = response.properties;
  return jsonSafe(
    compact({
      ...importedMetadata(lookup, response.metadata),
      type: p.type,
      retentionDays: p.retentionDays,
      billingPeriod: normaliseBillingPeriod(p.billingPeriod),
    }),
  );
}
