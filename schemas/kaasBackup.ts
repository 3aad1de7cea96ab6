/** Wire schemas of the cluster backup endpoints (spec §2.6, §4.2). */
import { Type, type Static } from "@sinclair/typebox";
import {
  Int32,
  ListEnvelope,
  MetadataRequest,
  MetadataResponse,
  Nullable,
  Phase,
  StatusResponse,
  Strict,
} from "./common";

/** Backup insert body. Allowed `type` and `billingPeriod` values are unknown: the service judges them. */
export const BackupInsert = Strict({
  metadata: MetadataRequest,
  properties: Strict({
    billingPeriod: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
    type: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
    retentionDays: Type.Optional(Nullable(Int32)),
  }),
});
export type BackupInsert = Static<typeof BackupInsert>;

/** Backup update body: only `billingPeriod` is updatable (spec §2.6), flat rather than `billingPlan`. */
export const BackupUpdate = Strict({
  metadata: MetadataRequest,
  properties: Strict({ billingPeriod: Type.Optional(Nullable(Type.String({ minLength: 1 }))) }),
});
export type BackupUpdate = Static<typeof BackupUpdate>;

/** Backup response (`BackupResponseDto`, spec §2.6). */
export const BackupResponse = Type.Object({
  metadata: MetadataResponse,
  status: Type.Optional(Nullable(StatusResponse)),
  properties: Type.Object({
    billingPeriod: Type.Optional(Nullable(Type.String())),
    type: Type.Optional(Nullable(Type.String())),
    retentionDays: Type.Optional(Nullable(Type.Integer())),
    kaas: Type.Optional(
      Nullable(
        Type.Object({
          uri: Type.Optional(Nullable(Type.String())),
          id: Type.Optional(Nullable(Type.String())),
          name: Type.Optional(Nullable(Type.String())),
        }),
      ),
    ),
  }),
  data: Type.Optional(
    Nullable(
      Type.Object({
        info: Type.Optional(
          Nullable(
            Type.Object({
              sizeBytes: Type.Optional(Nullable(Type.Integer())),
              expiresAt: Type.Optional(Nullable(Type.String())),
            }),
          ),
        ),
        private: Type.Optional(Nullable(Type.Object({ phase: Type.Optional(Nullable(Phase)) }))),
      }),
    ),
  ),
});
export type BackupResponse = Static<typeof BackupResponse>;

/** Backup list response (spec §2.9). */
export const BackupList = ListEnvelope(BackupResponse);
