/** Wire schemas of the cluster backup endpoints (spec §2.6, §4.2). */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import {
  Int32,
  ListEnvelope,
  Maybe,
  MaybeObject,
  MaybeStrings,
  Phase,
  ResourceRequest,
  ResourceResponse,
} from "./common";

/** Backup insert body. Allowed `type` and `billingPeriod` values are unknown: the service judges them. */
export const BackupInsert = ResourceRequest({
  billingPeriod: Maybe(Type.String({ minLength: 1 })),
  type: Maybe(Type.String({ minLength: 1 })),
  retentionDays: Maybe(Int32),
});
export type BackupInsert = Static<typeof BackupInsert>;

/** Backup update body: only `billingPeriod` is updatable (spec §2.6), flat rather than `billingPlan`. */
export const BackupUpdate = ResourceRequest({ billingPeriod: Maybe(Type.String({ minLength: 1 })) });
export type BackupUpdate = Static<typeof BackupUpdate>;

/** Backup response (`BackupResponseDto`, spec §2.6). */
export const BackupResponse = ResourceResponse(
  {
    billingPeriod: Maybe(Type.String()),
    type: Maybe(Type.String()),
    retentionDays: Maybe(Type.Integer()),
    kaas: MaybeObject(MaybeStrings("uri", "id", "name")),
  },
  {
    info: MaybeObject({
      sizeBytes: Maybe(Type.Integer()),
      expiresAt: Maybe(Type.String()),
    }),
    private: MaybeObject({ phase: Maybe(Phase) }),
  },
);
export type BackupResponse = Static<typeof BackupResponse>;

/** Backup list response (spec §2.9). */
export const BackupList = ListEnvelope(BackupResponse);

/** The backup schemas the endpoint table names (`WIRE_SCHEMAS`), by those names. */
export const KAAS_BACKUP_WIRE_SCHEMAS = {
  BackupInsert,
  BackupUpdate,
  BackupResponse,
  BackupList,
} as const satisfies Record<string, TSchema>;
