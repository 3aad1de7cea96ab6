/**
 * The contract of a resource kind of the emulator: the parts every kind module (`kinds/<kind>/kind.ts`) exports
 * as one `KindModule`, generic over the kind's record type. The generic code (the store and the service, the
 * list, get and delete of `resources.ts`) knows a kind only through this contract; the routes, the seeding and
 * the control API read the list of kinds (`kinds/index.ts`). A module that lacks a part does not compile.
 */
import type { ENDPOINTS, EndpointName, QueryOf } from "../../schemas/endpoints";
import type { ApiRequest } from "../base/api";
import type { BaseDurations, DurationSpecs, KindDurations } from "../base/durations";
import type { BaseRecord } from "../base/record";
import type { RenderContext } from "../base/render";
import type { ApiHandler } from "./endpoint";
import type { KindService } from "./service";
import type { RecordMap, StoredKind } from "./store";
import { kindNames } from "./tables";

type Endpoints = typeof ENDPOINTS;

/** The parts of a request that name a record: its project and its path parameters. */
export type PathRequest = Pick<ApiRequest, "projectId" | "params">;

/**
 * The endpoints whose entry in the endpoint table (`schemas/endpoints.ts`) has `Shape`: `{ method: "DELETE" }`
 * gives the deletes, `{ list: WireSchemaName }` the lists. Every endpoint of the table is some kind's (the
 * routes do not compile otherwise), so these are the endpoints the kinds handle.
 */
export type EndpointWith<Shape> = {
  [N in EndpointName]: Endpoints[N] extends Shape ? N : never;
}[EndpointName];

/** The type that is every member of the union `U` at once: `A | B` gives `A & B`. */
export type UnionToIntersection<U> = (U extends unknown ? (member: U) => void : never) extends (
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
 * The options a delete reads: those of every delete endpoint (`SharedOptions`), today the cluster's
 * `deleteOnCascade`, which the other deletes lack.
 */
export type DeleteOptions = SharedOptions<EndpointWith<{ method: "DELETE" }>>;

/** The handlers of some endpoints of the table (`schemas/endpoints.ts`), by endpoint name. */
export type EndpointHandlers<M extends RecordMap, D extends BaseDurations = BaseDurations> = {
  readonly [N in EndpointName]?: ApiHandler<N, M, D>;
};

/** What a seeding names besides the kind and the count (`composition/seed.ts` `SeedRequest`). */
export interface SeedTarget {
  /** Project of the objects. */
  projectId: string;
  /** The cluster the objects live under, for a kind that lives under one. */
  kaasId?: string;
}

/** How a kind fills a project with settled records (`composition/seed.ts`). */
export interface KindSeeding<R extends BaseRecord, M extends RecordMap> {
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
  plan(svc: KindService<M>, request: SeedTarget): { location?: string; record(base: BaseRecord): R };
}

/**
 * What the list, get and delete shared by every kind read of it (`resources.ts`): its name, how its records
 * render, where the record of a path lives, which records a list holds, and what a delete does.
 */
export interface KindResources<
  K extends string,
  R extends BaseRecord,
  Response,
  M extends RecordMap,
  D extends BaseDurations = BaseDurations,
> {
  /** The kind's name, the prefix of its ids and the key of its records in the store. */
  readonly kind: K;
  /** The response object of a record. */
  render(rec: R, ctx: RenderContext<M>): Response;
  /**
   * The record the request's path names, 404 when there is none in the project (a backup: below its cluster,
   * which must be there too); `Deleted` tombstones (of the cluster too) only with `allowDeleted`.
   */
  find(svc: KindService<M>, req: PathRequest, allowDeleted: boolean): R;
  /**
   * Which records a list of the request's path holds (besides `Deleted` ones, never listed): those of the
   * project, a cluster's backups. Throws the 404 of a missing cluster before anything is listed.
   */
  listScope(svc: KindService<M>, req: PathRequest): (rec: R) => boolean;
  /** How long a deletion reads `Deleting`. */
  deleteMs(durations: D): number;
  /**
   * What a delete does besides `Deleting`, from its query options. They are read before the handler runs
   * (`routes.ts`), so a bad flag answers 400 even for a missing object.
   */
  deleteEffects?(options: DeleteOptions): (svc: KindService<M>, rec: R, now: number) => void;
}

/**
 * Everything the emulator knows about one kind: its name `K` (the prefix of its ids), its record type `R`
 * (whose `kind` is `K`), the response `Response` it renders, the field of the state file that holds its records
 * (`StateField`), its endpoints (`Endpoint`, of the table in `schemas/endpoints.ts`) and their handlers, the
 * durations of its operations (`S`), and how it lives, is listed, looked up, deleted and seeded. `M` is the
 * records, by kind, that its handlers read: its own, and those of the kinds it reads (a backup's cluster).
 */
export interface KindModule<
  K extends string,
  R extends BaseRecord & { kind: K },
  Response,
  StateField extends string,
  Endpoint extends EndpointName,
  M extends RecordMap & { readonly [P in K]: R },
  S extends DurationSpecs,
>
  extends StoredKind<M, R, KindDurations<S>>, KindResources<K, R, Response, M, KindDurations<S>> {
  readonly stateField: StateField;
  /**
   * The durations of the kind's operations, by the name of the emulator's option (`durations.kaasCreateMs`):
   * the emulator's `Durations`, their defaults and the command line's `--create-ms`, `--update-ms` and
   * `--delete-ms` are derived from these (`composition/config.ts`).
   */
  readonly durations: S;
  /** The handler of each of the kind's endpoints; every endpoint of the table is some kind's (`routes.ts`). */
  readonly handlers: { readonly [N in Endpoint]: ApiHandler<N, M, KindDurations<S>> };
  /** How the control API seeds records of the kind. */
  readonly seeding: KindSeeding<R, M>;
}

/**
 * The names of the kinds of `kinds` as the emulator lists them to people: those a project holds directly first,
 * in the list's order, then those under a cluster (`kaas, registry, backup`). Seed refusals, the fault
 * configuration's provisioning and the command line's `--provisioning` name the kinds in this order, the one
 * they had before the list of kinds existed.
 */
export function kindNamesProjectFirst<
  T extends { readonly [kind: string]: { readonly seeding: { readonly underCluster: boolean } } },
>(kinds: T): (keyof T & string)[] {
  const names = kindNames(kinds);
  return [
    ...names.filter((kind) => !kinds[kind].seeding.underCluster),
    ...names.filter((kind) => kinds[kind].seeding.underCluster),
  ];
}
