/** Paging through list endpoints (spec §2.9, §4.4), and the items of a page the client cannot read. */
import type { ListPage } from "../schemas/common";
import { emit } from "./output";
import type { SchemaProblem } from "../schemas/validate";

/**
 * An item of a list answer that fails the item schema (the published schemas mark
 * `metadata.id`, a pool's `name` and most fields nullable, so one such item may be answered among good ones).
 */
export interface UnreadableItem {
  /** Position of the item in the whole list: the page's `offset` plus its index in the page. */
  offset: number;
  /** The item's `metadata.id`, when it has a usable one. */
  id?: string;
  /** What is wrong with it, with paths inside the item (`/metadata/id`). */
  problems: SchemaProblem[];
}

/** A page as the client reads it: `values` holds the readable items, `unreadable` the ones it skipped. */
export interface ReadPage<T> extends ListPage<T> {
  /** The items of the answer that fail the item schema, left out of `values`. */
  unreadable: UnreadableItem[];
}

/** Where the lines about skipped items go: a provider's progress log, or the program's warnings. */
export type UnreadableSink = (line: string) => void;

/**
 * The one wording of a skipped item, e.g. `GET /kaas: skipped the item at offset 1, which the client cannot
 * read: /metadata/id: must be string`; an item with a usable id is named by it.
 */
export function unreadableItemLine(request: string, item: UnreadableItem): string {
  const which = item.id === undefined ? "the item" : `item ${item.id}`;
  const problems = item.problems.map((p) => `${p.path}: ${p.message}`).join("; ");
  return `${request}: skipped ${which} at offset ${item.offset}, which the client cannot read: ${problems}`;
}

/**
 * The sink of a list nobody gave one: standard error, with the prefix of every line of the package. The
 * providers and the SDK's functions pass their own.
 */
export const warnOnConsole: UnreadableSink = (line) => emit(line, "warning");

/**
 * Iterates every readable item of a list endpoint by `offset`/`limit`; each unreadable item is reported to
 * `onUnreadable` by `describe` and skipped, so one bad item never fails the whole read. Stops on an empty
 * page, on an explicit empty `next`, or when `total` (or `totalCount`) is reached; when the service gives
 * neither, a short page ends the list. Skipped items count as items of their page.
 */
export async function* paginate<T>(
  fetchPage: (offset: number, limit: number) => Promise<ListPage<T> & { unreadable?: UnreadableItem[] }>,
  pageSize = 100,
  onUnreadable: UnreadableSink = warnOnConsole,
  describe: (item: UnreadableItem) => string = (item) => unreadableItemLine("list", item),
): AsyncGenerator<T, void, undefined> {
  let offset = 0;
  for (;;) {
    const page = await fetchPage(offset, pageSize);
    const values = page.values ?? [];
    const unreadable = page.unreadable ?? [];
    for (const item of unreadable) onUnreadable(describe(item));
    for (const value of values) yield value;
    const count = values.length + unreadable.length;
    offset += count;
    if (count === 0) return;
    const total = page.total ?? page.totalCount ?? undefined;
    if (page.next !== undefined) {
      if (!page.next) return;
    } else if (total !== undefined) {
      if (offset >= total) return;
    } else if (count < pageSize) {
      return;
    }
    if (total !== undefined && offset >= total) return;
  }
}

/**
 * True when a list query carries a projection (passed as is, its grammar is not documented): its answer is
 * checked as projected, and the SDK's functions hand it back as the service answered it.
 */
export const hasProjection = (query: { projection?: string | null }): boolean =>
  query.projection !== undefined && query.projection !== null;

/** Collects an async iterable into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
