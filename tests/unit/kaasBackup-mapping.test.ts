/**
 * KaasBackup wire mapping: the computed outputs of a service answer (exact values, sparse answers, no
 * undefined), their agreement with the computed-key list, and a state written before some outputs existed.
 */
import { KAAS_BACKUP } from "../../provider/kaasBackup/descriptor";
import { checkKind, diffKind } from "../../provider/common/describedProvider";
import { backupComputed, backupLiveInputs } from "../../provider/kaasBackup/mapping";
import { KAAS_BACKUP_COMPUTED_OUTPUTS } from "../support/output-names";
import type { BackupResponse } from "../../schemas";
import { undefinedPaths } from "./support/kaas-fixtures";

const CLUSTER_URI = "/projects/proj-1/providers/Vendor.Container/kaas/kaas-1";

/** A complete answer, as the service gives it for an Active backup. */
function answer(): BackupResponse {
  return {
    metadata: {
      id: "backup-1",
      uri: `${CLUSTER_URI}/backups/backup-1`,
      name: "nightly",
      tags: [],
      creationDate: "2026-05-01T10:00:00Z",
    },
    status: { state: "Active", creationDate: "2026-05-01T10:00:05Z" },
    properties: {
      billingPeriod: "monthly",
      type: "Full",
      retentionDays: 14,
      kaas: { uri: CLUSTER_URI, id: "kaas-1", name: "prod" },
    },
    data: {
      info: { sizeBytes: 536_870_912, expiresAt: "2026-05-15T10:00:00Z" },
      private: { phase: { name: "Completed" } },
    },
  };
}

describe("backupComputed", () => {
  it("maps a complete answer exactly, with the creation date and the live type and retention", () => {
    expect(backupComputed(answer())).toStrictEqual({
      backupId: "backup-1",
      uri: `${CLUSTER_URI}/backups/backup-1`,
      state: "Active",
      phase: "Completed",
      sizeBytes: 536_870_912,
      expiresAt: "2026-05-15T10:00:00Z",
      cluster: { id: "kaas-1", uri: CLUSTER_URI, name: "prod" },
      creationDate: "2026-05-01T10:00:00Z",
      currentType: "Full",
      currentRetentionDays: 14,
    });
  });

  it("takes the creation date from the status when the metadata has none", () => {
    const response = answer();
    delete response.metadata.creationDate;
    expect(backupComputed(response).creationDate).toBe("2026-05-01T10:00:05Z");
  });

  it("maps a bare answer to nulls, with no undefined anywhere", () => {
    const outputs = backupComputed({ metadata: { id: "backup-2" }, properties: {} });
    expect(outputs).toStrictEqual({
      backupId: "backup-2",
      uri: null,
      state: null,
      phase: null,
      sizeBytes: null,
      expiresAt: null,
      cluster: null,
      creationDate: null,
      currentType: null,
      currentRetentionDays: null,
    });
    expect(undefinedPaths(outputs)).toEqual([]);
  });

  it("produces exactly the computed outputs the SDK class declares", () => {
    expect(Object.keys(backupComputed(answer())).sort()).toEqual([...KAAS_BACKUP_COMPUTED_OUTPUTS].sort());
  });
});

describe("the billing period on refresh", () => {
  const declared = (billingPeriod?: string) =>
    checkKind(
      KAAS_BACKUP,
      {},
      {
        kaasId: "kaas-1",
        name: "nightly",
        location: "ITBG-Bergamo",
        ...(billingPeriod ? { billingPeriod } : {}),
      },
      { defaultProjectId: "proj-1" },
    ).inputs;

  it("does not adopt the service's default when the program declares none", () => {
    const inputs = declared();
    expect(backupLiveInputs(inputs, answer())).toStrictEqual(inputs);
  });

  it("takes a declared period changed out of band", () => {
    expect(backupLiveInputs(declared("Year"), answer()).billingPeriod).toBe("monthly");
  });

  it("keeps the declared spelling when the service spells the same period another way", () => {
    expect(backupLiveInputs(declared("Month"), answer()).billingPeriod).toBe("Month");
  });
});

describe("a state written before the creation date and live type and retention were outputs", () => {
  const declared = checkKind(
    KAAS_BACKUP,
    {},
    {
      kaasId: "kaas-1",
      name: "nightly",
      location: "ITBG-Bergamo",
      type: "Full",
      retentionDays: 14,
      billingPeriod: "Month",
    },
    { defaultProjectId: "proj-1" },
  ).inputs;
  const { creationDate: _c, currentType: _t, currentRetentionDays: _r, ...older } = backupComputed(answer());

  it("shows no change against the unchanged program", () => {
    expect(diffKind(KAAS_BACKUP, { ...declared, ...older }, declared)).toStrictEqual({
      changes: false,
      replaces: [],
      updates: [],
    });
  });

  it("refreshes to the declared inputs: the live type and retention are outputs, not inputs", () => {
    expect(backupLiveInputs(declared, answer())).toStrictEqual(declared);
  });
});
