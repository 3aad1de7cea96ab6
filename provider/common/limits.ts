/**
 * The account's per-cluster-type limits as a user declares them (`vendor:limits` / `VENDOR_LIMITS`). The
 * service has these limits but does not publish their values (spec §8, §2.8 "Cluster type configuration"), so
 * a preview can only hold a cluster against them when the user states them. Parsing never throws: what is
 * wrong with the setting travels with it, and every cluster's `check` reports it.
 */
import { isOneOf } from "./typed";

/** The limits of a cluster type, in the order of spec §2.8; each bounds something only when declared. */
export const LIMIT_KEYS = [
  "maxNodePool",
  "minNodePool",
  "maxNode",
  "minNode",
  "minClusterBlockStorageSize",
  "maxClusterBlockStorageSize",
  "maxWhitelistCount",
] as const;

/** One limit of a cluster type. */
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** The pairs that bound one quantity from both sides: a minimum above its maximum admits nothing. */
const RANGES: [LimitKey, LimitKey][] = [
  ["minNodePool", "maxNodePool"],
  ["minNode", "maxNode"],
  ["minClusterBlockStorageSize", "maxClusterBlockStorageSize"],
];

/** The limits a user declared, and where. */
export interface DeclaredLimits {
  /** The setting they came from, as messages name it: `vendor:limits` or `VENDOR_LIMITS`. */
  setting: string;
  /** The declared values; a key that is missing (or `null`, as the service spells "no limit") bounds nothing. */
  values: Partial<Record<LimitKey, number>>;
  /** What is wrong with the setting, one sentence each naming the setting (and the key); empty when usable. */
  problems: string[];
}

const typeName = (value: unknown): string =>
  Array.isArray(value) ? "array" : value === null ? "null" : typeof value;

/**
 * Parses the JSON object of `vendor:limits` (`setting` names where `text` came from). `undefined` when the
 * setting is not set. Every key is optional; a value is a non-negative integer, or `null` for no limit. An
 * unknown key, any other value, or a minimum above its maximum is a problem, and only the usable keys are kept.
 */
export function parseDeclaredLimits(text: string | undefined, setting: string): DeclaredLimits | undefined {
  if (text === undefined) return undefined;
  const shape = `${setting} must be a JSON object like {"maxNode": 50, "maxNodePool": 10}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { setting, values: {}, problems: [`${shape}, got ${JSON.stringify(text)} (not JSON)`] };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { setting, values: {}, problems: [`${shape}, got ${typeName(parsed)}`] };
  }
  const values: Partial<Record<LimitKey, number>> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(parsed)) {
    if (!isOneOf(key, LIMIT_KEYS)) {
      problems.push(`${setting}: "${key}" is not a limit (limits: ${LIMIT_KEYS.join(", ")})`);
    } else if (value === null) {
      continue;
    } else if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
      problems.push(
        `${setting}: ${key} must be a non-negative integer or null, got ${JSON.stringify(value)}`,
      );
    } else {
      values[key] = value;
    }
  }
  for (const [min, max] of RANGES) {
    const low = values[min];
    const high = values[max];
    if (low !== undefined && high !== undefined && low > high) {
      problems.push(`${setting}: ${min} (${low}) must not exceed ${max} (${high})`);
    }
  }
  return { setting, values, problems };
}
