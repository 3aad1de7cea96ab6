/**
 * Seeding: fills a project with many settled objects of one kind at once (`POST /_emulator/seed`,
 * `emulator.seed`), for tests that count requests in a crowded project. Creating 400 clusters through the API
 * would cost 400 requests and a wait for each to settle; seeded objects are stored directly, `Active` from
 * the start, through the same record builders as the create handlers, with ids from the same counters. What
 * a seeded object of each kind is, its kind's module says (`KindModule.seeding`).
 */
import { isRecord } from "../../schemas/typed";
import type { EmulatorCore } from "./core";
import { kindNamesProjectFirst } from "../generic/kind";
import { isKindOf, kindNames } from "../generic/tables";
import { KINDS, type Kind } from "../kinds";
import { ApiProblem, type WireFieldError } from "../base/problems";
import { newRecordBase } from "../generic/service";

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

const SEED_FIELDS: ReadonlySet<string> = new Set(["projectId", "kind", "count", "namePrefix", "kaasId"]);

/** The kinds of seedings that name a cluster (`kaasId`). */
const KINDS_UNDER_CLUSTER = kindNames(KINDS).filter((kind) => KINDS[kind].seeding.underCluster);

/** The kinds a seeding names: those a project holds directly first, then those under a cluster. */
const SEED_KINDS: readonly Kind[] = kindNamesProjectFirst(KINDS);

/** The problems of a seed request body, all at once (empty when valid). */
export function checkSeedRequest(body: Record<string, unknown>): WireFieldError[] {
  const problems: WireFieldError[] = [];
  const problem = (fieldName: string, errorMessage: string) => problems.push({ fieldName, errorMessage });
  for (const key of Object.keys(body)) {
    if (!SEED_FIELDS.has(key)) problem(key, `is not a seed field (known: ${[...SEED_FIELDS].join(", ")})`);
  }
  const { projectId, kind, count, namePrefix, kaasId } = body;
  if (typeof projectId !== "string" || projectId === "") problem("projectId", "must be a non-empty string");
  if (!isKindOf(KINDS, kind)) problem("kind", `must be one of ${SEED_KINDS.join(", ")}`);
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > MAX_SEED_COUNT) {
    problem("count", `must be an integer from 1 to ${MAX_SEED_COUNT}`);
  }
  if (namePrefix !== undefined && (typeof namePrefix !== "string" || namePrefix === "")) {
    problem("namePrefix", "must be a non-empty string");
  }
  if (isKindOf(KINDS, kind) && KINDS[kind].seeding.underCluster) {
    if (typeof kaasId !== "string" || kaasId === "") problem("kaasId", `is required for kind ${kind}`);
  } else if (kaasId !== undefined) {
    problem("kaasId", `is only for kind ${KINDS_UNDER_CLUSTER.join(" or ")}`);
  }
  return problems;
}

/**
 * `body` as a seed request, after the checks of `checkSeedRequest`; throws the 400 validation problem naming
 * each bad field when one is wrong. (The type checks repeated here are what `checkSeedRequest` refuses.)
 */
export function seedRequestOf(body: Record<string, unknown>): SeedRequest {
  const problems = checkSeedRequest(body);
  const { projectId, kind, count, namePrefix, kaasId } = body;
  if (
    problems.length > 0 ||
    typeof projectId !== "string" ||
    !isKindOf(KINDS, kind) ||
    typeof count !== "number" ||
    (namePrefix !== undefined && typeof namePrefix !== "string") ||
    (kaasId !== undefined && typeof kaasId !== "string")
  )
    throw invalid(problems);
  return { projectId, kind, count, namePrefix, kaasId };
}

function invalid(problems: WireFieldError[]): ApiProblem {
  return new ApiProblem("validation", {
    detail: problems.map((p) => `${p.fieldName}: ${p.errorMessage}`).join("; "),
    errors: problems,
  });
}

/**
 * Stores `count` settled (`Active`) objects of `kind` in `projectId`, named `<namePrefix>-0001`... without
 * tags, and writes the state file once. Throws a 400 validation problem naming each bad field.
 */
export function seedResources(core: EmulatorCore, request: SeedRequest): SeedResult {
  // An in-process caller may pass anything, so every field is checked before use.
  const input = seedRequestOf(isRecord(request) ? { ...request } : {});
  core.svc.settleAll();
  const ids = seedKind(core, input.kind, input);
  core.persist();
  return { projectId: input.projectId, kind: input.kind, ids };
}

/**
 * Stores the records of a valid seeding of `kind`, each what a create of a small valid body stores (the kind's
 * `seeding.plan`), settled `Active` at once; returns their ids.
 */
function seedKind<K extends Kind>(core: EmulatorCore, kind: K, request: SeedRequest): string[] {
  const svc = core.svc;
  const plan = KINDS[kind].seeding.plan(svc, request);
  const location = { value: plan.location ?? SEED_LOCATION };
  const prefix = request.namePrefix ?? "seed";
  const map = core.store.mapOf(kind);
  const ids: string[] = [];
  for (let n = 1; n <= request.count; n++) {
    const metadata = { name: `${prefix}-${String(n).padStart(4, "0")}`, location };
    const base = newRecordBase(svc, request, kind, metadata, 0);
    base.life = { state: "Active", since: base.createdAt, until: null, next: null, failureReason: null };
    base.provisionedAt = base.createdAt;
    const rec = plan.record(base);
    map.set(rec.id, rec);
    ids.push(rec.id);
  }
  return ids;
}
