/**
 * What a resource kind of the emulator is made of: the parts every kind module (`kaas.ts`, `kaasBackups.ts`,
 * `registries.ts`) exports as one `KindModule`, and the shared code (store, service, the list, get and delete of
 * `resources.ts`, routes, seeding, the control API) reads from the list of kinds (`kinds.ts`). A module that
 * lacks a part does not compile.
 *
 * This module imports types only, so a kind module can name them without importing the list of kinds; the
 * shared code builds its per-kind tables with the helpers at the end, from the list it is given.
 */
import type { ENDPOINTS, EndpointName, QueryOf } from "../../schemas/endpoints";
import type { Durations } from "../base/config";
import type { RenderContext } from "../base/render";
import type { ApiHandler } from "../transport/routes";
import type { SeedRequest } from "../composition/seed";
import type { ApiRequest, Service } from "./service";
import type { BaseRecord, LifeState, Store } from "./store";
import type { HandledEndpoint, Kind, KindTable, StateFieldByKind } from "../kinds/index";

type Endpoints = typeof ENDPOINTS;

/** The parts of a request that name a record: its project and its path parameters. */
export type PathRequest = Pick<ApiRequest, "projectId" | "params">;

/**
 * The endpoints some kind handles whose entry in the endpoint table (`schemas/endpoints.ts`) has `Shape`:
 * `{ method: "DELETE" }` gives the deletes, `{ list: WireSchemaName }` the lists.
 */
export type HandledEndpointWith<Shape> = {
  [N in HandledEndpoint]: Endpoints[N] extends Shape ? N : never;
}[HandledEndpoint];

/** The type that is every member of the union `U` at once: `A | B` gives `A & B`. */
type UnionToIntersection<U> = (U extends unknown ? (member: U) => void : never) extends (
  every: infer I,
) => void
  ? I
  : never;

/**
 * The options that one handler shared by the endpoints `N` reads (the list and delete of `resources.ts`):
 * every parameter that the query of some endpoint of `N` declares (`QueryOf`, as `query.ts` reads it), all
 * optional. The queries are intersected, not united, because the shared handler reads a parameter that only
 * some endpoints declare (a union would offer only those every endpoint declares); each is optional because
 * the options of a request to an endpoint that does not declare it lack it. Each endpoint's own options are
 * then assignable to these, so the handler serves every endpoint of `N` without a cast.
 */
export type SharedOptions<N extends EndpointName> = Partial<
  UnionToIntersection<N extends EndpointName ? QueryOf<Endpoints[N]> : never>
>;

/**
 * The options a delete reads: those of every delete endpoint a kind handles (`SharedOptions`), today the
 * cluster's `deleteOnCascade`, which the other deletes lack.
 */
export type DeleteOptions = SharedOptions<HandledEndpointWith<{ method: "DELETE" }>>;

/** The handlers of some endpoints of the table (`schemas/endpoints.ts`), by endpoint name. */
export type EndpointHandlers = { readonly [N in EndpointName]?: ApiHandler<N> };

/** How a kind fills a project with settled records (`seed.ts`). */
export interface KindSeeding<R extends BaseRecord> {
  /**
   * Whether a seeding names the cluster its records live under (`SeedRequest.kaasId`): required for such a kind,
   * refused for the others.
   */
  readonly underCluster: boolean;
  /**
   * The plan of one seeding of `request` (valid, the lifecycles settled): where its records live (by default
   * `SEED_LOCATION`) and how one record is built on the fields every record shares, already `Active`. Throws the
   * 400 of a request the kind refuses (a cluster that is missing or being deleted).
   */
  plan(svc: Service, request: SeedRequest): { location?: string; record(base: BaseRecord): R };
}

/**
 * Everything the emulator knows about one kind: its record type `R` (whose `kind` is the kind's name, the
 * prefix of its ids), the response `Response` it renders, the field of the state file that holds its records
 * (`StateField`), its endpoints (`Endpoint`, of the table in `schemas/endpoints.ts`) and their handlers, and how
 * it lives, is listed, looked up, deleted and seeded.
 */
export interface KindModule<
  R extends BaseRecord,
  Response,
  StateField extends string,
  Endpoint extends EndpointName,
> {
  /** The kind as problem details name it: `KaaS "kaas-0001" was not found.` */
  readonly label: string;
  /**
   * The field of the state file, and of the control API's state snapshot, that holds the records. The file
   * format is public (a state file written by an earlier version is read as it is), so these names stay.
   */
  readonly stateField: StateField;
  /** The handler of each of the kind's endpoints; every endpoint of the table is some kind's (`routes.ts`). */
  readonly handlers: { readonly [N in Endpoint]: ApiHandler<N> };
  /** The response object of a record. */
  render(rec: R, ctx: RenderContext): Response;
  /**
   * Applies every transition of `rec` whose time has come (`transitions.ts`); `Gone` when the tombstone period
   * is over and the record is to be purged.
   */
  settle(rec: R, now: number, durations: Durations): LifeState | "Gone";
  /** What goes with a purged record besides itself (a cluster's backups). */
  purge?(store: Store, rec: R): void;
  /**
   * The record the request's path names, 404 when there is none in the project (a backup: below its cluster,
   * which must be there too); `Deleted` tombstones (of the cluster too) only with `allowDeleted`.
   */
  find(svc: Service, req: PathRequest, allowDeleted: boolean): R;
  /**
   * Which records a list of the request's path holds (besides `Deleted` ones, never listed): those of the
   * project, a cluster's backups. Throws the 404 of a missing cluster before anything is listed.
   */
  listScope(svc: Service, req: PathRequest): (rec: R) => boolean;
  /** How long a deletion reads `Deleting`. */
  deleteMs(durations: Durations): number;
  /**
   * What a delete does besides `Deleting`, from its query options. They are read before the handler runs
   * (`routes.ts`), so a bad flag answers 400 even for a missing object.
   */
  deleteEffects?(options: DeleteOptions): (svc: Service, rec: R, now: number) => void;
  /** How the control API seeds records of the kind. */
  readonly seeding: KindSeeding<R>;
}

/** The names of the kinds of `kinds`, in its order. */
export function kindNames(kinds: KindTable): Kind[] {
  // The table is the list's object (`kinds.ts`), whose keys are the kinds and nothing else.
  return Object.keys(kinds) as Kind[];
}

/** Whether `name` is a kind of `kinds` (a request body's or the command line's text, say). */
export function isKindOf(kinds: KindTable, name: unknown): name is Kind {
  return typeof name === "string" && Object.hasOwn(kinds, name);
}

/**
 * The object of `entries`. TypeScript types no object built from a list of keys, so this is where the shared
 * code asserts one: its callers pass an entry for every key of `T` (every kind, or every kind's state-file
 * field, from the list of kinds).
 */
function tableOf<T>(entries: readonly (readonly [keyof T & string, T[keyof T]])[]): T {
  return Object.fromEntries(entries) as T;
}

/**
 * The names of the kinds of `kinds` as the emulator lists them to people: those a project holds directly first,
 * in the list's order, then those under a cluster (`kaas, registry, backup`). Seed refusals, the fault
 * configuration's provisioning and the command line's `--provisioning` name the kinds in this order, the one
 * they had before the list of kinds existed.
 */
export function kindNamesProjectFirst(kinds: KindTable): Kind[] {
  const names = kindNames(kinds);
  return [
    ...names.filter((kind) => !kinds[kind].seeding.underCluster),
    ...names.filter((kind) => kinds[kind].seeding.underCluster),
  ];
}

/**
 * An object with one entry per kind of `kinds`, by kind name: `valueOf(kind)`. Its keys come in the order of
 * `order`, by default the list's; `order` names every kind of `kinds` (`kindNames`, `kindNamesProjectFirst`).
 */
export function byKind<T extends { readonly [K in Kind]: unknown }>(
  kinds: KindTable,
  valueOf: <K extends Kind>(kind: K) => T[K],
  order: (kinds: KindTable) => Kind[] = kindNames,
): T {
  return tableOf<T>(order(kinds).map((kind) => [kind, valueOf(kind)]));
}

/** An object with one entry per kind of `kinds`, under the kind's state-file field: `valueOf(kind)`. */
export function byStateField<V>(
  kinds: KindTable,
  valueOf: (kind: Kind) => V,
): Record<StateFieldByKind[Kind], V> {
  return tableOf(kindNames(kinds).map((kind) => [kinds[kind].stateField, valueOf(kind)]));
}
