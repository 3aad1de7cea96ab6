/**
 * The list, get and delete of every resource kind (spec §4.1-§4.3), written once: the kinds differ only in
 * what the table below says (where a record of a path lives, what a list reads from its query, how long a
 * deletion takes, what else it does); the store map and the renderer come from the kind itself.
 */
import type { Durations } from "./config";
import { listEnvelope, parseListParams, type ListEnvelopeBody } from "./filter";
import { kaasDeleteEffects } from "./kaas";
import { renderRecord, type ResponseByKind } from "./render";
import { assertMutable, booleanQuery, type ApiRequest, type Reply, type Service } from "./service";
import type { Kind, RecordByKind } from "./store";
import { beginDelete } from "./transitions";

/** The parts of a request that name a record: its project and its path parameters. */
type PathRequest = Pick<ApiRequest, "projectId" | "params">;

/** How the list, get and delete of one kind differ from the other kinds'. */
interface KindRow<K extends Kind> {
  /**
   * The record the request's path names, 404 when there is none in the project (a backup: below its cluster,
   * which must be there too); `Deleted` tombstones (of the cluster too) only with `allowDeleted`.
   */
  find(svc: Service, req: PathRequest, allowDeleted: boolean): RecordByKind[K];
  /**
   * Which records a list of the request's path holds (besides `Deleted` ones, never listed): those of the
   * project, a cluster's backups. Throws the 404 of a missing cluster before anything is listed.
   */
  listScope(svc: Service, req: PathRequest): (rec: RecordByKind[K]) => boolean;
  /** Whether a list reads `loadEngineVersion=true` (spec §2.7: only registry lists fill `data.info.version`). */
  listLoadsEngineVersion: boolean;
  /** How long a deletion reads `Deleting`. */
  deleteMs(durations: Durations): number;
  /**
   * What a delete does besides `Deleting`, from its query, which is read before the lookup (a bad flag answers
   * 400 even for a missing object).
   */
  deleteEffects?(query: URLSearchParams): (svc: Service, rec: RecordByKind[K], now: number) => void;
}

/** Every kind's row: a kind without one does not compile. */
const KINDS: { readonly [K in Kind]: KindRow<K> } = {
  kaas: {
    find: (svc, req, allowDeleted) => svc.kaas(req.projectId, req.params.id, allowDeleted),
    listScope: (_svc, req) => (rec) => rec.projectId === req.projectId,
    listLoadsEngineVersion: false,
    deleteMs: (durations) => durations.kaasDeleteMs,
    deleteEffects: kaasDeleteEffects,
  },
  backup: {
    find: (svc, req, allowDeleted) => {
      svc.kaas(req.projectId, req.params.kaasId, allowDeleted);
      return svc.backup(req.projectId, req.params.kaasId, req.params.id, allowDeleted);
    },
    listScope: (svc, req) => {
      const cluster = svc.kaas(req.projectId, req.params.kaasId);
      return (rec) => rec.kaasId === cluster.id;
    },
    listLoadsEngineVersion: false,
    deleteMs: (durations) => durations.backupDeleteMs,
  },
  registry: {
    find: (svc, req, allowDeleted) => svc.registry(req.projectId, req.params.id, allowDeleted),
    listScope: (_svc, req) => (rec) => rec.projectId === req.projectId,
    listLoadsEngineVersion: true,
    deleteMs: (durations) => durations.registryDeleteMs,
  },
};

/**
 * The list of `kind` (`GET P/kaas`, `GET P/kaas/{kaasId}/backups`, `GET P/registries`): filtered, sorted,
 * paged and projected (`filter.ts`); `Deleted` records are not listed.
 */
export function listHandler<K extends Kind>(
  kind: K,
): (svc: Service, req: ApiRequest<undefined>) => Reply<ListEnvelopeBody<Partial<ResponseByKind[K]>>> {
  const row: KindRow<K> = KINDS[kind];
  return (svc, req) => {
    const params = parseListParams(req.query, svc.config.wire.filters);
    const inScope = row.listScope(svc, req);
    const ctx = svc.renderContext(row.listLoadsEngineVersion && booleanQuery(req.query, "loadEngineVersion"));
    const items = [...svc.store.records[kind].values()]
      .filter((rec) => inScope(rec) && rec.life.state !== "Deleted")
      .map((rec) => renderRecord(kind, rec, ctx));
    return { status: 200, body: listEnvelope(items, params, req.pageUrl) };
  };
}

/**
 * The get of `kind` (`GET P/kaas/{id}`, `GET P/kaas/{kaasId}/backups/{id}`, `GET P/registries/{id}`): a
 * `Deleted` tombstone answers with its state, or 404 with `ignoreDeletedStatus=true`. A registry's
 * `data.info.version` is null here: only lists load it.
 */
export function getHandler<K extends Kind>(
  kind: K,
): (svc: Service, req: ApiRequest<undefined>) => Reply<ResponseByKind[K]> {
  const row: KindRow<K> = KINDS[kind];
  return (svc, req) => {
    const ignoreDeleted = booleanQuery(req.query, "ignoreDeletedStatus");
    const rec = row.find(svc, req, !ignoreDeleted);
    return { status: 200, body: renderRecord(kind, rec, svc.renderContext()) };
  };
}

/**
 * The delete of `kind` (`DELETE P/kaas/{id}`, `DELETE P/kaas/{kaasId}/backups/{id}`, `DELETE P/registries/{id}`):
 * 202; the record reads `Deleting`, then `Deleted`, then is gone. A DELETE of a record already `Deleting`
 * answers 202 again, so a retried DELETE is harmless.
 */
export function deleteHandler<K extends Kind>(
  kind: K,
): (svc: Service, req: ApiRequest<undefined>) => Reply<undefined> {
  const row: KindRow<K> = KINDS[kind];
  return (svc, req) => {
    const effects = row.deleteEffects?.(req.query);
    const rec = row.find(svc, req, false);
    if (rec.life.state === "Deleting") return { status: 202 };
    assertMutable(rec, "delete");
    const now = svc.now();
    beginDelete(rec, now, row.deleteMs(svc.config.durations));
    effects?.(svc, rec, now);
    svc.commit();
    return { status: 202 };
  };
}
