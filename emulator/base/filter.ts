/**
 * List queries (spec §4.1 "Syntax and semantics of `filter`, `sort` and `projection`: not shown"; the filter
 * grammar is the one api-notes "Envelopes" documents):
 *
 * - `filter`: criteria `field:op(args)` joined by `;` (AND). `field` is a dotted path into the response object
 *   (`metadata.name`, `status.state`, `properties.nodePools.name`). Ops: `eq ne in nin exists gt gte lt lte
 *   between`. Arguments are JSON literals: double-quoted strings, numbers, `true`, `false`, `null`.
 *   What `eq` does on an array field, and how an unsupported filter is answered, the published interface does
 *   not say (api-notes "What the published interface does not show"), so the configuration's `wire.filters`
 *   picks the reading, per request:
 *   - `membership` (default): a path through an array, or ending on one, matches when any element matches
 *     (so `metadata.tags:eq("x")` means "has tag x");
 *   - `whole`: `eq`, `ne`, `in` and `nin` compare an array at the end of the path as a whole, so
 *     `metadata.tags:eq("x")` matches only tags that are exactly `["x"]`; arrays on the way are still walked
 *     and scalars compare as with `membership`;
 *   - `ignored`: the `filter` parameter is not even parsed; every object is listed (still sorted and paged);
 *   - `refused`: any request carrying `filter` is answered 400 `invalidQuery` naming `filter`.
 * - `sort`: comma-separated dotted paths, `-` prefix for descending; missing values sort last.
 * - `projection`: comma-separated top-level keys to keep (`status,properties`); `metadata` is always kept.
 * - `offset`/`limit` paging (spec §4.4): default limit 25, at most 100.
 *
 * The dispatch reads the parameters as the list's query schema types them (`query.ts`), so what is parsed here
 * is the typed list options: the grammars above, and the bounds of `offset` and `limit`, which are the list's
 * and not the schema's (its integers are any `Int32`).
 */
import type { ListQuery } from "../../schemas/common";
import type { WireReadings } from "./config";
import { ApiProblem, type WireFieldError } from "./problems";
import { integerMessage } from "./query";

/** The reading of the `filter` parameter (`wire.filters` of the configuration). */
export type FilterReading = WireReadings["filters"];

/** How the equality operators treat an array at the end of a path: element by element, or whole. */
export type ArrayEquality = "membership" | "whole";

/** Default page size. */
export const DEFAULT_LIMIT = 25;
/** Largest accepted page size. */
export const MAX_LIMIT = 100;

type Literal = string | number | boolean | null;

/** One parsed filter criterion. */
export interface Criterion {
  path: string[];
  op: FilterOp;
  args: Literal[];
}

const OPS = ["eq", "ne", "in", "nin", "exists", "gt", "gte", "lt", "lte", "between"] as const;
/** A filter operator. */
export type FilterOp = (typeof OPS)[number];

/** One sort key. */
export interface SortKey {
  path: string[];
  descending: boolean;
}

/** Parsed list parameters. */
export interface ListParams {
  criteria: Criterion[];
  /** How `criteria` compare arrays: `whole` under the `whole` reading, else `membership`. */
  arrays: ArrayEquality;
  sort: SortKey[];
  /** Top-level keys to keep, or null for all. */
  projection: string[] | null;
  offset: number;
  limit: number;
}

/** The list envelope (spec §2.9). */
export interface ListEnvelopeBody<T> {
  total: number;
  self: string;
  prev: string;
  next: string;
  first: string;
  last: string;
  values: T[];
}

const PATH = /^[A-Za-z_$][\w$-]*(\.[A-Za-z_$][\w$-]*)*$/;
const PROJECTABLE = ["metadata", "status", "properties", "data"];

function invalid(fieldName: string, errorMessage: string): ApiProblem {
  return new ApiProblem("invalidQuery", {
    errors: [{ fieldName, errorMessage }],
    detail: `${fieldName}: ${errorMessage}`,
  });
}

/** Splits `text` on `sep` outside double quotes and parentheses. */
function splitTopLevel(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      current += ch;
      if (ch === "\\" && i + 1 < text.length) current += text[++i];
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    if (ch === sep && depth === 0) {
      parts.push(current);
      current = "";
    } else {
      current += ch;
    }
  }
  if (quoted) throw invalid("filter", "unterminated string literal");
  parts.push(current);
  return parts;
}

function parseLiteral(token: string, criterion: string): Literal {
  const t = token.trim();
  if (t.startsWith('"')) {
    try {
      const value: unknown = JSON.parse(t);
      if (typeof value === "string") return value;
    } catch {
      // Reported below.
    }
    throw invalid("filter", `malformed string literal ${t} in "${criterion}"`);
  }
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(t)) return Number(t);
  if (t === "true") return true;
  if (t === "false") return false;
  if (t === "null") return null;
  throw invalid(
    "filter",
    `bad value ${t === "" ? "(empty)" : t} in "${criterion}": strings must be double-quoted`,
  );
}

/** Parses a `filter` parameter; throws a 400 problem naming `filter` when malformed. */
export function parseFilter(text: string): Criterion[] {
  if (text.trim() === "") return [];
  return splitTopLevel(text, ";").map((raw) => {
    const criterion = raw.trim();
    const match = /^([^:()\s]+)\s*:\s*([A-Za-z]+)\s*\((.*)\)$/s.exec(criterion);
    if (!match) throw invalid("filter", `"${criterion}" is not of the form field:op(args)`);
    const [, field, opText, argText] = match;
    if (!PATH.test(field)) throw invalid("filter", `"${field}" is not a dotted field path`);
    const op = OPS.find((known) => known === opText);
    if (op === undefined) throw invalid("filter", `unknown operator "${opText}" (known: ${OPS.join(", ")})`);
    const args =
      argText.trim() === "" ? [] : splitTopLevel(argText, ",").map((a) => parseLiteral(a, criterion));
    const arity: Record<FilterOp, [number, number]> = {
      eq: [1, 1],
      ne: [1, 1],
      gt: [1, 1],
      gte: [1, 1],
      lt: [1, 1],
      lte: [1, 1],
      in: [1, Infinity],
      nin: [1, Infinity],
      exists: [0, 1],
      between: [2, 2],
    };
    const [min, max] = arity[op];
    if (args.length < min || args.length > max) {
      const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
      throw invalid("filter", `${op} takes ${expected} argument(s), got ${args.length} in "${criterion}"`);
    }
    if (op === "exists" && args.length === 1 && typeof args[0] !== "boolean") {
      throw invalid("filter", `exists takes true or false in "${criterion}"`);
    }
    return { path: field.split("."), op, args };
  });
}

/**
 * Values found at `path` in `obj`; arrays on the way are flattened, and so are arrays at the end unless
 * `flattenLast` is false (the `whole` reading compares those as one value).
 */
export function resolvePath(obj: unknown, path: string[], flattenLast = true): unknown[] {
  let current: unknown[] = [obj];
  for (const segment of path) {
    const next: unknown[] = [];
    for (const value of current) {
      const holders = Array.isArray(value) ? value : [value];
      for (const holder of holders) {
        if (holder !== null && typeof holder === "object" && segment in holder) {
          next.push(Reflect.get(holder, segment));
        }
      }
    }
    current = next;
  }
  return flattenLast ? current.flatMap((v): unknown[] => (Array.isArray(v) ? v : [v])) : current;
}

function compare(a: unknown, b: Literal): number | undefined {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

/** True when some value is comparable with `arg` (same type) and `pred` holds for the comparison. */
function ordered(values: unknown[], arg: Literal, pred: (difference: number) => boolean): boolean {
  return values.some((v) => {
    const difference = compare(v, arg);
    return difference !== undefined && pred(difference);
  });
}

/** Operators whose comparison of an array changes under the `whole` reading. */
const EQUALITY_OPS: ReadonlySet<FilterOp> = new Set(["eq", "ne", "in", "nin"]);

/** Equality of a found value and a literal; `whole`: an array equals a literal only when it is `[literal]`. */
function equalsLiteral(x: unknown, y: Literal, arrays: ArrayEquality): boolean {
  if (y === null) return x === null || x === undefined;
  if (arrays === "whole" && Array.isArray(x)) return x.length === 1 && x[0] === y;
  return x === y;
}

function matches(values: unknown[], c: Criterion, arrays: ArrayEquality): boolean {
  const present = values.filter((v) => v !== undefined && v !== null);
  const eq = (x: unknown, y: Literal) => equalsLiteral(x, y, arrays);
  const any = (pred: (v: unknown) => boolean) => values.some(pred);
  switch (c.op) {
    case "eq":
      return c.args[0] === null ? present.length === 0 : any((v) => eq(v, c.args[0]));
    case "ne":
      return c.args[0] === null ? present.length > 0 : !any((v) => eq(v, c.args[0]));
    case "in":
      return any((v) => c.args.some((a) => eq(v, a)));
    case "nin":
      return !any((v) => c.args.some((a) => eq(v, a)));
    case "exists":
      return (c.args[0] ?? true) === present.length > 0;
    case "gt":
      return ordered(values, c.args[0], (d) => d > 0);
    case "gte":
      return ordered(values, c.args[0], (d) => d >= 0);
    case "lt":
      return ordered(values, c.args[0], (d) => d < 0);
    case "lte":
      return ordered(values, c.args[0], (d) => d <= 0);
    case "between":
      return any((v) => {
        const low = compare(v, c.args[0]);
        const high = compare(v, c.args[1]);
        return low !== undefined && high !== undefined && low >= 0 && high <= 0;
      });
  }
}

/**
 * True when `obj` satisfies every criterion. `arrays`: `membership` (default) matches an array when an
 * element matches; `whole` makes `eq`, `ne`, `in` and `nin` compare an array at the end of a path as a whole.
 */
export function matchesAll(
  obj: unknown,
  criteria: Criterion[],
  arrays: ArrayEquality = "membership",
): boolean {
  return criteria.every((c) => {
    const whole = arrays === "whole" && EQUALITY_OPS.has(c.op);
    return matches(resolvePath(obj, c.path, !whole), c, whole ? "whole" : "membership");
  });
}

/** The criteria of the `filter` parameter under `reading`; see the module comment for the four readings. */
function filterCriteria(text: string | undefined, reading: FilterReading): Criterion[] {
  if (text === undefined || reading === "ignored") return [];
  if (reading === "refused") throw invalid("filter", "is not supported");
  return parseFilter(text);
}

/** Parses a `sort` parameter. */
export function parseSort(text: string): SortKey[] {
  if (text.trim() === "") return [];
  return text.split(",").map((raw) => {
    const key = raw.trim();
    const descending = key.startsWith("-");
    const path = key.replace(/^[-+]/, "");
    if (!PATH.test(path))
      throw invalid("sort", `"${key}" is not a dotted field path (prefix - for descending)`);
    return { path: path.split("."), descending };
  });
}

function sortValue(obj: unknown, path: string[]): string | number | boolean | undefined {
  const found = resolvePath(obj, path).find((v) => v !== null && v !== undefined);
  return typeof found === "string" || typeof found === "number" || typeof found === "boolean"
    ? found
    : undefined;
}

/** Sorts a copy of `items` by `keys` (stable; missing values last whatever the direction). */
export function sortItems<T>(items: T[], keys: SortKey[]): T[] {
  if (keys.length === 0) return [...items];
  return [...items].sort((a, b) => {
    for (const key of keys) {
      const va = sortValue(a, key.path);
      const vb = sortValue(b, key.path);
      if (va === vb) continue;
      if (va === undefined) return 1;
      if (vb === undefined) return -1;
      const order = va < vb ? -1 : 1;
      return key.descending ? -order : order;
    }
    return 0;
  });
}

/** Parses a `projection` parameter: top-level keys, `metadata` always included. */
export function parseProjection(text: string): string[] | null {
  if (text.trim() === "") return null;
  const keys = text.split(",").map((k) => k.trim());
  const unknown = keys.filter((k) => !PROJECTABLE.includes(k));
  if (unknown.length > 0) {
    throw invalid(
      "projection",
      `unknown key(s) ${unknown.map((k) => `"${k}"`).join(", ")} (known: ${PROJECTABLE.join(", ")})`,
    );
  }
  return [...new Set(["metadata", ...keys])];
}

/** The integer `value` of parameter `name`, `fallback` when absent; a 400 naming it outside `[min, max]`. */
function bounded(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (value < min || value > max) throw invalid(name, integerMessage(min, max));
  return value;
}

/**
 * Parses the list options `options` (the list query, typed), collecting the first problem of each parameter.
 * `filters` is the reading of the `filter` parameter (`wire.filters`): read from the configuration per request,
 * since the configuration can change at run time.
 */
export function parseListParams(options: ListQuery, filters: FilterReading): ListParams {
  const errors: WireFieldError[] = [];
  const attempt = <T>(fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch (error) {
      if (error instanceof ApiProblem && error.errors) errors.push(...error.errors);
      else throw error;
      return fallback;
    }
  };
  const result: ListParams = {
    criteria: attempt(() => filterCriteria(options.filter, filters), []),
    arrays: filters === "whole" ? "whole" : "membership",
    sort: attempt(() => parseSort(options.sort ?? ""), []),
    projection: attempt(() => parseProjection(options.projection ?? ""), null),
    offset: attempt(() => bounded("offset", options.offset, 0, 0, Infinity), 0),
    limit: attempt(() => bounded("limit", options.limit, DEFAULT_LIMIT, 1, MAX_LIMIT), DEFAULT_LIMIT),
  };
  if (errors.length > 0) {
    throw new ApiProblem("invalidQuery", {
      errors,
      detail: errors.map((e) => `${e.fieldName}: ${e.errorMessage}`).join("; "),
    });
  }
  return result;
}

/** Keeps only the projected top-level keys of `obj`. */
// The kept keys are keys of `obj` with their values: a `Partial<T>`. The signature says so once.
export function project<T extends object>(obj: T, keys: string[] | null): Partial<T>;
export function project(obj: object, keys: string[] | null): object {
  if (!keys) return obj;
  return Object.fromEntries(Object.entries(obj).filter(([k]) => keys.includes(k)));
}

/**
 * Filters, sorts, pages and projects `items`, and builds the envelope. `pageUrl(offset, limit)` renders the
 * link of a page (spec §2.9 `self/prev/next/first/last`); `prev` and `next` are empty strings when there is
 * no such page (spec §4.4).
 */
export function listEnvelope<T extends object>(
  items: T[],
  params: ListParams,
  pageUrl: (offset: number, limit: number) => string,
): ListEnvelopeBody<Partial<T>> {
  const matching = sortItems(
    items.filter((item) => matchesAll(item, params.criteria, params.arrays)),
    params.sort,
  );
  const { offset, limit } = params;
  const total = matching.length;
  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / limit) * limit;
  return {
    total,
    self: pageUrl(offset, limit),
    prev: offset > 0 ? pageUrl(Math.max(0, offset - limit), limit) : "",
    next: offset + limit < total ? pageUrl(offset + limit, limit) : "",
    first: pageUrl(0, limit),
    last: pageUrl(lastOffset, limit),
    values: matching.slice(offset, offset + limit).map((item) => project(item, params.projection)),
  };
}
