/**
 * Malformed answers on demand. The published schemas mark `metadata.id`, a pool's `name`
 * and most other fields nullable, so a service may answer an object the client cannot read among good ones.
 * A stored resource may carry values that replace parts of its rendered response (`ResourcePatch.wireOverrides`),
 * so tests can show how a list, a lookup and a read cope with such an object.
 */
import { isRecord } from "../../schemas/typed";
import type { WireFieldError } from "./problems";
import type { BaseRecord } from "./record";

/** The reference tokens of a JSON pointer (RFC 6901): `/properties/nodePools/0/name`. */
function tokensOf(pointer: string): string[] {
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * The problems of `overrides` as a `ResourcePatch.wireOverrides`: an object whose keys are JSON pointers
 * below the root (`/metadata/id`).
 */
export function checkWireOverrides(overrides: unknown): WireFieldError[] {
  if (overrides === null || typeof overrides !== "object" || Array.isArray(overrides))
    return [{ fieldName: "wireOverrides", errorMessage: "must be an object of JSON pointers to values" }];
  return Object.keys(overrides)
    .filter((pointer) => !/^\/[^/]/.test(pointer))
    .map((pointer) => ({
      fieldName: `wireOverrides.${pointer}`,
      errorMessage: "must be a JSON pointer below the root, such as /metadata/id",
    }));
}

/**
 * `response` with the record's overrides applied, each pointer's value set (`null` included), missing
 * containers created as objects. The response is a fresh rendering, so it is changed in place.
 */
export function withWireOverrides<T>(rec: BaseRecord, response: T): T {
  const overrides = rec.wireOverrides;
  // A rendered response is a JSON object; each pointer walks it (and creates what it misses) as plain objects.
  if (!overrides || !isRecord(response)) return response;
  for (const [pointer, value] of Object.entries(overrides)) {
    const tokens = tokensOf(pointer);
    let target: Record<string, unknown> = response;
    for (const token of tokens.slice(0, -1)) {
      const next = target[token];
      if (isRecord(next)) {
        target = next;
      } else {
        // Not an object: replaced by an empty one, which the walk goes on into.
        const made: Record<string, unknown> = {};
        target[token] = made;
        target = made;
      }
    }
    target[tokens[tokens.length - 1]] = structuredClone(value);
  }
  return response;
}
