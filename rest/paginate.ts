/** Paging through list endpoints (spec §2.9, §4.4). */
import type { ListPage } from "../schemas/common";

/**
 * Iterates every item of a list endpoint by `offset`/`limit`. Stops on an empty page, on an explicit empty
 * `next`, or when `total` (or `totalCount`) is reached; when the service gives neither, a short page ends
 * the list.
 */
export async function* paginate<T>(
  fetchPage: (offset: number, limit: number) => Promise<ListPage<T>>,
  pageSize = 100,
): AsyncGenerator<T, void, undefined> {
  let offset = 0;
  for (;;) {
    const page = await fetchPage(offset, pageSize);
    const values = page.values ?? [];
    for (const value of values) yield value;
    offset += values.length;
    if (values.length === 0) return;
    const total = page.total ?? page.totalCount ?? undefined;
    if (page.next !== undefined) {
      if (!page.next) return;
    } else if (total !== undefined) {
      if (offset >= total) return;
    } else if (values.length < pageSize) {
      return;
    }
    if (total !== undefined && offset >= total) return;
  }
}

/** Collects an async iterable into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
