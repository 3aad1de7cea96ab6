/**
 * The list, get and delete of every resource kind (spec §4.1-§4.3), written once: the kinds differ only in
 * what their modules say (`kind.ts`: where a record of a path lives, which records a list holds, how long a
 * deletion takes, what else it does, how a record renders) and in what their endpoints' query schemas declare
 * (the typed `req.options`). A kind module builds these handlers from its own parts (`KindResources`), so this
 * module never imports the list of kinds.
 */
import type { SchemaType } from "../../schemas/endpoints";
import type { WireSchemaName } from "../../schemas";
import { listEnvelope, parseListParams, type ListEnvelopeBody } from "../base/filter";
import type { ApiRequest, Reply } from "../base/api";
import type { BaseDurations } from "../base/durations";
import type { BaseRecord } from "../base/record";
import type { RenderContext } from "../base/render";
import type { DeleteOptions, EndpointWith, KindResources, PathRequest, SharedOptions } from "./kind";
import { rejectIf, type KindService, type Mutation } from "./service";
import { checkLocationOnUpdate } from "../base/location";
import type { MetadataRequest } from "../../schemas/common";
import type { RecordMap } from "./store";
import { beginDelete, beginUpdate } from "../base/transitions";

/**
 * The options a list reads: those of every list endpoint a kind handles (`SharedOptions`; the table marks a
 * list by the schema of its items, `list`), today the list query's and the registry list's
 * `loadEngineVersion` (spec §2.7: only registry lists fill `data.info.version`), which the other lists lack.
 */
type ListOptions = SharedOptions<EndpointWith<{ list: WireSchemaName }>>;

/** The options a get reads. */
type GetOptions = SchemaType<"GetQuery">;

/**
 * The list of `kind` (`GET P/kaas`, `GET P/kaas/{kaasId}/backups`, `GET P/registries`): filtered, sorted,
 * paged and projected (`filter.ts`); `Deleted` records are not listed.
 */
export function listHandler<
  K extends string,
  R extends BaseRecord,
  Response extends object,
  M extends RecordMap & { readonly [P in K]: R },
  D extends BaseDurations,
>(
  row: KindResources<K, R, Response, M, D>,
): (
  svc: KindService<M>,
  req: ApiRequest<undefined, ListOptions>,
) => Reply<ListEnvelopeBody<Partial<Response>>> {
  return (svc, req) => {
    const params = parseListParams(req.options, svc.config.wire.filters);
    const inScope = row.listScope(svc, req);
    const ctx = svc.renderContext(req.options.loadEngineVersion ?? false);
    const records: ReadonlyMap<string, R> = svc.store.records[row.kind];
    const items = [...records.values()]
      .filter((rec) => inScope(rec) && rec.life.state !== "Deleted")
      .map((rec) => row.render(rec, ctx));
    return { status: 200, body: listEnvelope(items, params, req.pageUrl) };
  };
}

/**
 * The get of `kind` (`GET P/kaas/{id}`, `GET P/kaas/{kaasId}/backups/{id}`, `GET P/registries/{id}`): a
 * `Deleted` tombstone answers with its state, or 404 with `ignoreDeletedStatus=true`. A registry's
 * `data.info.version` is null here: only lists load it.
 */
export function getHandler<
  K extends string,
  R extends BaseRecord,
  Response,
  M extends RecordMap,
  D extends BaseDurations,
>(
  row: KindResources<K, R, Response, M, D>,
): (svc: KindService<M>, req: ApiRequest<undefined, GetOptions>) => Reply<Response> {
  return (svc, req) => {
    const ignoreDeleted = req.options.ignoreDeletedStatus ?? false;
    const rec = row.find(svc, req, !ignoreDeleted);
    return { status: 200, body: row.render(rec, svc.renderContext()) };
  };
}

/**
 * The delete of `kind` (`DELETE P/kaas/{id}`, `DELETE P/kaas/{kaasId}/backups/{id}`, `DELETE P/registries/{id}`):
 * 202; the record reads `Deleting`, then `Deleted`, then is gone. A DELETE of a record already `Deleting`
 * answers 202 again, so a retried DELETE is harmless.
 */
export function deleteHandler<
  K extends string,
  R extends BaseRecord & { kind: keyof M & string },
  Response,
  M extends RecordMap,
  D extends BaseDurations,
>(
  row: KindResources<K, R, Response, M, D>,
): (svc: KindService<M, D>, req: ApiRequest<undefined, DeleteOptions>) => Reply<undefined> {
  return (svc, req) => {
    const effects = row.deleteEffects?.(req.options);
    const rec = row.find(svc, req, false);
    if (rec.life.state === "Deleting") return { status: 202 };
    svc.assertMutable(rec, "delete");
    const now = svc.now();
    beginDelete(rec, now, row.deleteMs(svc.config.durations));
    effects?.(svc, rec, now);
    svc.commit();
    return { status: 202 };
  };
}

/**
 * The answer of a create (`POST P/kaas`, `POST P/kaas/{kaasId}/backups`, `POST P/registries`): stores `rec` under
 * its kind, writes the state file, and answers 201 with the record's response and its `Location`.
 */
export function createdReply<M extends RecordMap, K extends keyof M & string, Body>(
  svc: KindService<M>,
  kind: K,
  rec: M[K],
  render: (rec: M[K], ctx: RenderContext<M>) => Body,
  location: string,
): { status: 201; body: Body; headers: { Location: string } } {
  svc.store.records[kind].set(rec.id, rec);
  svc.commit();
  return { status: 201, body: render(rec, svc.renderContext()), headers: { Location: location } };
}

/**
 * Where the records of a kind that a project holds directly live (a cluster, a registry), for its
 * `KindResources`: the record of a path is the project's record of the path's `id`, and a list holds the
 * project's records.
 */
export function heldByProject<M extends RecordMap, K extends keyof M & string>(
  kind: K,
): Pick<KindResources<K, M[K], unknown, M>, "find" | "listScope"> {
  return {
    find: (svc, req, allowDeleted) => svc.lookup(kind, req.projectId, req.params.id, allowDeleted),
    listScope: (_svc, req) => (rec) => rec.projectId === req.projectId,
  };
}

/**
 * The record the request's path names (404 otherwise, `KindResources.find`), which `mutation` may change now:
 * refused with a 400 while it is busy or failed (`KindService.assertMutable`).
 */
export function findMutable<M extends RecordMap, R extends BaseRecord & { kind: keyof M & string }>(
  row: Pick<KindResources<string, R, unknown, M>, "find">,
  svc: KindService<M>,
  req: PathRequest,
  mutation: Mutation,
): R {
  const rec = row.find(svc, req, false);
  svc.assertMutable(rec, mutation);
  return rec;
}

/**
 * The record a `PUT` of a resource names, renamed and retagged by its `metadata`: 404 when there is none, 400
 * while it is busy or failed (`findMutable`) or when `metadata` moves its location. For a kind whose update has
 * no other rule to report with the location's (a cluster's reports them all at once, so it does not use this).
 */
export function updatableRecord<M extends RecordMap, R extends BaseRecord & { kind: keyof M & string }>(
  row: Pick<KindResources<string, R, unknown, M>, "find">,
  svc: KindService<M>,
  req: PathRequest,
  metadata: MetadataRequest,
): R {
  const rec = findMutable(row, svc, req, "update");
  rejectIf(checkLocationOnUpdate(metadata, rec.location));
  applyMetadataUpdate(rec, metadata);
  return rec;
}

/** The metadata of an update (`PUT` of a resource) renames the record and, when `tags` is sent, retags it. */
export function applyMetadataUpdate(
  rec: BaseRecord,
  metadata: { name: string; tags?: string[] | null },
): void {
  rec.name = metadata.name;
  if (metadata.tags !== undefined) rec.tags = metadata.tags ?? [];
}

/**
 * The answer of an update without a body (`PUT P/kaas/{id}`, `PUT P/kaas/{kaasId}/backups/{id}`,
 * `PUT P/registries/{id}`, `PUT P/registries/{id}/resetAdminPassword`): the record reads `Updating` for `durationMs` from `now`, the state file is written,
 * and the answer is 200.
 */
export function updatedReply<M extends RecordMap>(
  svc: KindService<M>,
  rec: BaseRecord,
  now: number,
  durationMs: number,
): { status: 200 } {
  beginUpdate(rec, now, durationMs);
  svc.commit();
  return { status: 200 };
}
