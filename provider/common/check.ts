/**
 * The building blocks of every kind's `check`: a problem collector and field validators. Every validator
 * skips unknown values (preview) and records `{property, reason}` instead of throwing, so that `check`
 * reports every problem at once (house style "Pure logic").
 */
import type { dynamic } from "@pulumi/pulumi";
import { CREATION_TAG_PREFIX } from "./tags";
import { isUnknown } from "./unknown";
import { isOneOf, isPlainObject } from "./typed";

/** One input problem: the SDK's own `CheckFailure`, `{property, reason}`. */
export type CheckFailure = dynamic.CheckFailure;

/** A bag of inputs or outputs as the engine hands it to a dynamic provider. */
export type Inputs = Record<string, unknown>;

/** Collects problems while a kind's `check` walks its inputs. */
export class Problems {
  readonly failures: CheckFailure[] = [];
  add(property: string, reason: string): void {
    this.failures.push({ property, reason });
  }
  get empty(): boolean {
    return this.failures.length === 0;
  }
}

/** The longest value a reason quotes whole, in characters: a long URI, not a list of them. */
export const QUOTE_LIMIT = 128;

/**
 * A value as a reason quotes it: its JSON text (a string in double quotes), or, when that is longer than
 * `QUOTE_LIMIT` characters, its start and its length (`"aaaa"… (5000 characters)`), so that no reason carries a whole
 * list or a pasted document onto the CLI's one line.
 */
export function quote(value: unknown): string {
  if (typeof value === "string") {
    if (value.length <= QUOTE_LIMIT) return JSON.stringify(value);
    return `${JSON.stringify(value.slice(0, QUOTE_LIMIT))}… (${value.length} characters)`;
  }
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= QUOTE_LIMIT ? text : `${text.slice(0, QUOTE_LIMIT)}… (${text.length} characters)`;
}

const typeName = (value: unknown): string =>
  Array.isArray(value) ? "array" : value === null ? "null" : typeof value;

/** Reports properties not in `allowed` (spec §2: unknown properties are rejected). */
export function rejectUnknownProperties(
  inputs: Inputs,
  allowed: readonly string[],
  problems: Problems,
  prefix = "",
): void {
  for (const key of Object.keys(inputs)) {
    if (key === "__provider") continue;
    if (!allowed.includes(key))
      problems.add(prefix + key, `is not a known argument (allowed: ${allowed.join(", ")})`);
  }
}

/** Validates a string; `required` reports a missing value. Returns the value when usable. */
export function str(
  value: unknown,
  property: string,
  problems: Problems,
  opts: { required?: boolean; pattern?: RegExp; patternHint?: string; maxLength?: number } = {},
): string | undefined {
  if (value === undefined || value === null) {
    if (opts.required) problems.add(property, "is required");
    return undefined;
  }
  if (isUnknown(value)) return undefined;
  if (typeof value !== "string") {
    problems.add(property, `must be a string, got ${typeName(value)}`);
    return undefined;
  }
  if (opts.required && value.trim() === "") {
    problems.add(property, "must not be empty");
    return undefined;
  }
  if (opts.maxLength !== undefined && value.length > opts.maxLength) {
    problems.add(property, `must be at most ${opts.maxLength} characters`);
  }
  if (opts.pattern && !opts.pattern.test(value)) {
    problems.add(property, opts.patternHint ?? `must match ${opts.pattern}`);
    return undefined;
  }
  return value;
}

/** Validates an optional boolean. */
export function bool(value: unknown, property: string, problems: Problems): boolean | undefined {
  if (value === undefined || value === null || isUnknown(value)) return undefined;
  if (typeof value !== "boolean") {
    problems.add(property, `must be a boolean, got ${typeName(value)}`);
    return undefined;
  }
  return value;
}

/** Validates an integer within bounds. */
export function int(
  value: unknown,
  property: string,
  problems: Problems,
  opts: { required?: boolean; min?: number; max?: number } = {},
): number | undefined {
  if (value === undefined || value === null) {
    if (opts.required) problems.add(property, "is required");
    return undefined;
  }
  if (isUnknown(value)) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    problems.add(property, `must be an integer, got ${typeof value === "number" ? value : typeName(value)}`);
    return undefined;
  }
  const min = opts.min ?? -2147483648;
  const max = opts.max ?? 2147483647;
  if (value < min || value > max) {
    problems.add(property, `must be between ${min} and ${max}, got ${value}`);
    return undefined;
  }
  return value;
}

/** Validates an optional array of strings, each through `each`. */
export function strArray(
  value: unknown,
  property: string,
  problems: Problems,
  each?: (item: string, property: string) => void,
  opts: { maxItems?: number } = {},
): string[] | undefined {
  if (value === undefined || value === null || isUnknown(value)) return undefined;
  if (!Array.isArray(value)) {
    problems.add(property, `must be a list of strings, got ${typeName(value)}`);
    return undefined;
  }
  if (opts.maxItems !== undefined && value.length > opts.maxItems) {
    problems.add(property, `must have at most ${opts.maxItems} entries, got ${value.length}`);
  }
  value.forEach((item, i) => {
    if (isUnknown(item)) return;
    if (typeof item !== "string")
      problems.add(`${property}[${i}]`, `must be a string, got ${typeName(item)}`);
    else each?.(item, `${property}[${i}]`);
  });
  // Returned even with items refused above (their problems are reported), so that the caller can go on
  // checking the rest; unknown items stay as the placeholder string.
  return value as string[];
}

/** Validates an optional plain object; returns it when usable. */
export function obj(
  value: unknown,
  property: string,
  problems: Problems,
  opts: { required?: boolean } = {},
): Inputs | undefined {
  if (value === undefined || value === null) {
    if (opts.required) problems.add(property, "is required");
    return undefined;
  }
  if (isUnknown(value)) return undefined;
  if (!isPlainObject(value)) {
    problems.add(property, `must be an object, got ${typeName(value)}`);
    return undefined;
  }
  return value;
}

/** Validates one of a fixed set of strings. */
export function oneOf<T extends string>(
  value: unknown,
  property: string,
  allowed: readonly T[],
  problems: Problems,
): T | undefined {
  const text = str(value, property, problems);
  if (text === undefined) return undefined;
  if (!isOneOf(text, allowed)) {
    problems.add(property, `must be one of ${allowed.join(", ")}, got ${quote(text)}`);
    return undefined;
  }
  return text;
}

/** ISO 8601 date-time with a time zone, as the service takes it. */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** `Date.parse` rolls impossible dates over (`2026-02-30` becomes March 2nd, `T24:00` the next day). */
function isCalendarDateTime(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split("-").map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && Number(text.slice(11, 13)) <= 23;
}

/** Validates a future ISO date-time; `now` is injected for tests. */
export function futureDate(
  value: unknown,
  property: string,
  problems: Problems,
  now: number,
): string | undefined {
  const text = str(value, property, problems, {
    pattern: ISO_DATE_TIME,
    patternHint: "must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T02:00:00Z",
  });
  if (text === undefined) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at) || !isCalendarDateTime(text)) {
    problems.add(property, `is not a valid date: "${text}"`);
    return undefined;
  }
  if (at <= now) {
    problems.add(property, `must be in the future, got ${text}`);
    return undefined;
  }
  return text;
}

/** A duration such as `40m`, `1h30m`, `90s` or a number of minutes. Returns ms. */
export function duration(value: unknown, property: string, problems: Problems): number | undefined {
  if (value === undefined || value === null || isUnknown(value)) return undefined;
  if (typeof value === "number" && value > 0) return value * 60_000;
  if (typeof value === "string") {
    const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value.trim());
    if (match && value.trim() !== "") {
      const ms = (Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0)) * 1000;
      if (ms > 0) return ms;
    }
  }
  problems.add(property, `must be a duration like "40m", "1h30m" or "90s", got ${quote(value)}`);
  return undefined;
}

/** Validates `timeouts {create, update, delete}`. */
export function timeouts(value: unknown, property: string, problems: Problems): void {
  const t = obj(value, property, problems);
  if (!t) return;
  rejectUnknownProperties(t, ["create", "update", "delete"], problems, `${property}.`);
  for (const key of ["create", "update", "delete"]) duration(t[key], `${property}.${key}`, problems);
}

/** Parses a duration that `check` already accepted, with a default. */
export function durationMs(value: unknown, fallbackMs: number): number {
  const problems = new Problems();
  return duration(value, "", problems) ?? fallbackMs;
}

/**
 * `preset` versus an existing VPC and subnet (spec §2.2): either the service creates the network
 * (`preset: true`, the default when no URI is given) or the URIs name an existing one. Sets the default on
 * `inputs`. A cluster needs both URIs; with `subnetNamesNetwork` (a registry, whose create sends no `vpc`:
 * api-notes "Registry") the subnet alone names the network, and `vpcUri`, checked against the answer, needs
 * the subnet but is optional beside it.
 */
export function network(
  news: Inputs,
  inputs: Inputs,
  problems: Problems,
  { subnetNamesNetwork = false }: { subnetNamesNetwork?: boolean } = {},
): void {
  const preset = bool(news.preset, "preset", problems);
  str(news.vpcUri, "vpcUri", problems);
  str(news.subnetUri, "subnetUri", problems);
  const hasVpc = news.vpcUri !== undefined && news.vpcUri !== null;
  const hasSubnet = news.subnetUri !== undefined && news.subnetUri !== null;
  if (preset === true && (hasVpc || hasSubnet)) {
    problems.add(
      "preset",
      "cannot be true together with vpcUri or subnetUri: the service would create its own VPC",
    );
  }
  if (preset === false && !hasVpc && !hasSubnet) {
    problems.add(
      "preset",
      subnetNamesNetwork
        ? "is false but subnetUri is not given: there would be no network"
        : "is false but vpcUri and subnetUri are not given: there would be no network",
    );
  }
  if (subnetNamesNetwork) {
    if (hasVpc && !hasSubnet) problems.add("subnetUri", "is required together with vpcUri");
  } else if (hasVpc !== hasSubnet) {
    problems.add(
      hasVpc ? "subnetUri" : "vpcUri",
      "is required together with " + (hasVpc ? "vpcUri" : "subnetUri"),
    );
  }
  if (news.preset === undefined && !hasVpc && !hasSubnet) inputs.preset = true;
}

/**
 * `projectId`: the argument, else the configured default (`vendor:projectId` / `VENDOR_PROJECT_ID`), which
 * is written into the inputs so that state records the project the object lives in.
 */
export function projectId(inputs: Inputs, defaultProjectId: string | undefined, problems: Problems): void {
  if (inputs.projectId === undefined || inputs.projectId === null) {
    if (defaultProjectId) inputs.projectId = defaultProjectId;
    else
      problems.add(
        "projectId",
        "is required: set it, or stack config vendor:projectId, or VENDOR_PROJECT_ID",
      );
  } else str(inputs.projectId, "projectId", problems, { required: true });
}

/**
 * The metadata every service object carries: `name`, `location` and `tags`. The `pulumi-ct-` tag prefix is
 * reserved for the creation token of idempotent create.
 */
export function metadata(news: Inputs, problems: Problems): void {
  str(news.name, "name", problems, { required: true, maxLength: 63 });
  str(news.location, "location", problems, { required: true });
  strArray(news.tags, "tags", problems, (tag, at) => {
    if (tag.startsWith(CREATION_TAG_PREFIX))
      problems.add(at, `must not start with "${CREATION_TAG_PREFIX}" (reserved)`);
  });
}
