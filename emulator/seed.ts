/**
 * Seeding: fills a project with many settled objects of one kind at once (`POST /_emulator/seed`,
 * `emulator.seed`), for tests that count requests in a crowded project. Creating 400 clusters through the API
 * would cost 400 requests and a wait for each to settle; seeded objects are stored directly, `Active` from
 * the start, through the same record builders as the create handlers, with ids from the same counters.
 */
import type { KaasInsert } from "../schemas/kaas";
import type { RegistryInsert } from "../schemas/registry";
import { newBackupRecord } from "./kaasBackups";
import type { EmulatorCore } from "./core";
import { newKaasRecord } from "./kaas";
import { ApiProblem, type WireFieldError } from "./problems";
import { newRegistryRecord } from "./registries";
import { newRecordBase } from "./service";
import type { AnyRecord, BaseRecord, KaasRecord, Kind } from "./store";

/** Largest `count` of one seeding. */
export const MAX_SEED_COUNT = 5000;

/** Location of seeded clusters and registries (a seeded backup lives where its cluster lives). */
export const SEED_LOCATION = "ITBG-Bergamo";

/** What to seed (`POST /_emulator/seed` body). */
export interface SeedRequest {
  /** Project that owns the objects. */
  projectId: string;
  /** Kind of the objects. */
  kind: Kind;
  /** How many objects, 1 to `MAX_SEED_COUNT`. */
  count: number;
  /**
   * Names are `<namePrefix>-0001`, `<namePrefix>-0002`... in this seeding (numbering starts again at 0001 in
   * each one: give several seedings of one project different prefixes). Default `seed`.
   */
  namePrefix?: string;
  /** The cluster of seeded backups, in `projectId`; required for kind `backup` and refused for the others. */
  kaasId?: string;
}

/** What was seeded (`POST /_emulator/seed` answer, 201). */
export interface SeedResult {
  projectId: string;
  kind: Kind;
  /** Ids of the new objects, in name order (`kaas-0001`... from the same counters as creates). */
  ids: string[];
}

const SEED_FIELDS: readonly (keyof SeedRequest)[] = ["projectId", "kind", "count", "namePrefix", "kaasId"];
const SEED_KINDS: readonly Kind[] = ["kaas", "registry", "backup"];

/** The problems of a seed request body, all at once (empty when valid). */
export function checkSeedRequest(body: Record<string, unknown>): WireFieldError[] {
  const problems: WireFieldError[] = [];
  const problem = (fieldName: string, errorMessage: string) => problems.push({ fieldName, errorMessage });
  for (const key of Object.keys(body)) {
    if (!(SEED_FIELDS as string[]).includes(key))
      problem(key, `is not a seed field (known: ${SEED_FIELDS.join(", ")})`);
  }
  const { projectId, kind, count, namePrefix, kaasId } = body;
  if (typeof projectId !== "string" || projectId === "") problem("projectId", "must be a non-empty string");
  if (!SEED_KINDS.includes(kind as Kind)) problem("kind", `must be one of ${SEED_KINDS.join(", ")}`);
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > MAX_SEED_COUNT) {
    problem("count", `must be an integer from 1 to ${MAX_SEED_COUNT}`);
  }
  if (namePrefix !== undefined && (typeof namePrefix !== "string" || namePrefix === "")) {
    problem("namePrefix", "must be a non-empty string");
  }
  if (kind === "backup") {
    if (typeof kaasId !== "string" || kaasId === "") problem("kaasId", "is required for kind backup");
  } else if (kaasId !== undefined) {
    problem("kaasId", "is only for kind backup");
  }
  return problems;
}

function invalid(problems: WireFieldError[]): ApiProblem {
  return new ApiProblem("validation", {
    detail: problems.map((p) => `${p.fieldName}: ${p.errorMessage}`).join("; "),
    errors: problems,
  });
}

/** The cluster of seeded backups: in the project and not being deleted, else a 400 naming `kaasId`. */
function clusterOfBackups(core: EmulatorCore, projectId: string, kaasId: string): KaasRecord {
  const cluster = core.store.records.kaas.get(kaasId);
  if (!cluster || cluster.projectId !== projectId || cluster.life.state === "Deleted") {
    throw invalid([{ fieldName: "kaasId", errorMessage: `names no cluster of project "${projectId}"` }]);
  }
  if (cluster.life.state === "Deleting") {
    throw invalid([{ fieldName: "kaasId", errorMessage: `names a cluster being deleted` }]);
  }
  return cluster;
}

/**
 * The record of one seeded object: what a create of a small valid body stores, settled `Active` at once.
 * Clusters get the recommended Kubernetes version of the configuration (the first one without a
 * recommendation) and one pool of one `K2A4` node; the create rules are not applied, seeding is not a create.
 */
function seededRecord(
  core: EmulatorCore,
  request: SeedRequest,
  name: string,
  cluster: KaasRecord | undefined,
): AnyRecord {
  const svc = core.svc;
  const metadata = { name, location: { value: cluster?.location ?? SEED_LOCATION } };
  const base: BaseRecord = newRecordBase(svc, request, request.kind, metadata, 0);
  base.life = { state: "Active", since: base.createdAt, until: null, next: null, failureReason: null };
  base.provisionedAt = base.createdAt;
  if (request.kind === "backup") {
    return newBackupRecord(base, cluster as KaasRecord, {
      metadata,
      properties: { billingPeriod: "Hour", type: "Full", retentionDays: 7 },
    });
  }
  if (request.kind === "registry") {
    const properties: RegistryInsert["properties"] = {
      preset: true,
      adminUser: { username: "registry-admin" },
      billingPlan: { billingPeriod: "Month" },
      size: "Small",
    };
    return newRegistryRecord(base, properties);
  }
  const versions = svc.config.kubernetesVersions;
  const version = (versions.find((v) => v.recommended) ?? versions[0]).value;
  const properties: KaasInsert["properties"] = {
    preset: true,
    nodeCidr: { address: "10.0.0.0/16", name: "nodes" },
    kubernetesVersion: { value: version },
    nodePools: [{ name: "pool-1", nodes: 1, instance: "K2A4", dataCenter: "ITBG-1" }],
  };
  return newKaasRecord(base, properties);
}

/**
 * Stores `count` settled (`Active`) objects of `kind` in `projectId`, named `<namePrefix>-0001`... without
 * tags, and writes the state file once. Throws a 400 validation problem naming each bad field.
 */
export function seedResources(core: EmulatorCore, input: SeedRequest): SeedResult {
  const body = (typeof input === "object" && input !== null ? input : {}) as unknown as Record<
    string,
    unknown
  >;
  const problems = checkSeedRequest(body);
  if (problems.length > 0) throw invalid(problems);
  core.svc.settleAll();
  const cluster =
    input.kind === "backup" ? clusterOfBackups(core, input.projectId, input.kaasId as string) : undefined;
  const prefix = input.namePrefix ?? "seed";
  const map = core.store.mapOf(input.kind);
  const ids: string[] = [];
  for (let n = 1; n <= input.count; n++) {
    const rec = seededRecord(core, input, `${prefix}-${String(n).padStart(4, "0")}`, cluster);
    map.set(rec.id, rec);
    ids.push(rec.id);
  }
  core.persist();
  return { projectId: input.projectId, kind: input.kind, ids };
}
