/**
 * `sameValue`, the equality every kind's `diff` and the Kaas refresh compare arguments and outputs with, is
 * equality of canonical JSON (`canonical`: keys sorted, an `undefined` member absent, `null` kept) after a
 * top-level `null` is read as `undefined`. It walks the two values instead of writing them out; these tests
 * hold it to the written-out definition, over generated values and their rearranged copies.
 */
import fc from "fast-check";
import { canonical, sameValue } from "../../provider/common/diff";

/** The definition: the canonical JSON of both, a top-level `null` as `undefined`. */
const byDefinition = (a: unknown, b: unknown) =>
  canonical(a === null ? undefined : a) === canonical(b === null ? undefined : b);

/** Values as inputs and outputs hold them, and what JSON writes differently: undefined, NaN, dates. */
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.constantFrom(null, undefined, 0, -0, 1, NaN, Infinity, "", "a", "1", true, false),
    fc.integer({ min: -3, max: 3 }),
    fc.constant(new Date(Date.UTC(2026, 0, 1))),
    fc.constant("2026-01-01T00:00:00.000Z"),
  ),
  node: fc.oneof({ depthSize: "small" }, tie("leaf"), tie("array"), tie("object")),
  array: fc.array(tie("node"), { maxLength: 3 }),
  object: fc.dictionary(fc.constantFrom("a", "b", "c"), tie("node"), { maxKeys: 3 }),
})).node;

/** A copy of `v` with every object's keys in reverse order, an `undefined` member added to each. */
function rearranged(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(rearranged);
  if (v === null || typeof v !== "object" || v instanceof Date) return v;
  const entries = Object.entries(v).reverse();
  return Object.fromEntries([...entries.map(([k, x]) => [k, rearranged(x)]), ["z", undefined]]);
}

it("agrees with the canonical JSON of both values, for any two values", () => {
  fc.assert(
    fc.property(value, value, (a, b) => expect(sameValue(a, b)).toBe(byDefinition(a, b))),
    { numRuns: 2000 },
  );
});

it("holds a value equal to its rearranged copy, and agrees with the definition on its one-leaf changes", () => {
  fc.assert(
    fc.property(value, value, (a, b) => {
      expect(sameValue(a, rearranged(a))).toBe(true);
      const changed = Array.isArray(a) ? [...a, b] : a !== null && typeof a === "object" ? { ...a, b } : b;
      expect(sameValue(a, changed)).toBe(byDefinition(a, changed));
    }),
    { numRuns: 2000 },
  );
});

it.each([
  ["null and undefined at the top", null, undefined, true],
  ["null and undefined inside", { a: null }, { a: undefined }, false],
  ["an undefined member and none", { a: 1, b: undefined }, { a: 1 }, true],
  ["key order", { a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 }, true],
  ["NaN and null inside", [NaN], [null], true],
  ["undefined and null in an array", [undefined], [null], true],
  ["a hole and a value in an array", [, 1], [5, 1], false], // eslint-disable-line no-sparse-arrays
  ["a date and its ISO string", { at: new Date(0) }, { at: "1970-01-01T00:00:00.000Z" }, true],
  ["a number and its string", 1, "1", false],
  ["arrays of other lengths", [1], [1, undefined], false],
  ["a `__proto__` member and none", JSON.parse('{"__proto__": {}}'), {}, false],
])("%s: %p and %p are the same: %p", (_label, a, b, same) => {
  expect(sameValue(a, b)).toBe(same);
  expect(byDefinition(a, b)).toBe(same);
});
