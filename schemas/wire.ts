/**
 * Every kind's wire schemas, and those the endpoint table names, by those names.
 *
 * The table (`schemas/endpoints.ts`) refers to its schemas by name rather than holding the schema objects, so
 * that the REST client, which sends from the table, loads no TypeBox at run time: a provider process's first
 * read of a `pulumi refresh` would otherwise load TypeBox's 200 modules and build every schema of the service
 * (about 45 ms, bench/results/latest.md). Each named schema's validator is generated at build time under its name
 * (`scripts/validators.mjs`); this module is loaded only to compile a schema that has no generated validator
 * (a run from the sources), for a projected list (`schemas/projection.ts`), and by the emulator and the build.
 */
import type { TSchema } from "@sinclair/typebox";
import { GetQuery, ListQuery } from "./common";
import { KAAS_WIRE_SCHEMAS } from "./kaas";
import { KAAS_BACKUP_WIRE_SCHEMAS } from "./kaasBackup";
import { REGISTRY_WIRE_SCHEMAS } from "./registry";
import { VOLUME_ATTACHMENT_WIRE_SCHEMAS } from "./volume";

// Each kind's schema module, whose schemas schemas/index.ts exports through this list.
export * from "./kaas";
export * from "./kaasBackup";
export * from "./registry";
export * from "./volume";

/**
 * The schemas of the endpoint table, by name: request bodies, answers, list items and queries. Each kind's
 * schema module lists its own (`KAAS_WIRE_SCHEMAS`, ...); the queries every list and read share come last.
 */
export const WIRE_SCHEMAS = {
  ...KAAS_WIRE_SCHEMAS,
  ...VOLUME_ATTACHMENT_WIRE_SCHEMAS,
  ...KAAS_BACKUP_WIRE_SCHEMAS,
  ...REGISTRY_WIRE_SCHEMAS,
  ListQuery,
  GetQuery,
} as const satisfies Record<string, TSchema>;

/** The schemas of the endpoint table, by name, as types. */
export type WireSchemas = typeof WIRE_SCHEMAS;

/** The name of a schema of the endpoint table. */
export type WireSchemaName = keyof WireSchemas;
