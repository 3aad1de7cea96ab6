/**
 * `jsonSafe`, which every kind's outputs pass through before they reach the engine: no `undefined` member or
 * array item is left (the engine's struct encoding throws on one), dates become ISO strings, the input is not
 * changed.
 */
import fc from "fast-check";
import { jsonSafe } from "../../provider/common/outputs";

/** JSON values with `undefined` members and dates among them, as mapping functions build outputs. */
const output = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.constantFrom(null, 0, "", "a", true, false),
    fc.integer(),
    fc.constant(new Date(Date.UTC(2026, 0, 1))),
  ),
  node: fc.oneof({ depthSize: "small" }, tie("leaf"), tie("array"), tie("object")),
  array: fc.array(tie("node"), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(tie("node"), fc.constant(undefined)), {
    maxKeys: 4,
  }),
})).node;

/** Every path below `v` that holds `undefined`. */
function undefinedAt(v: unknown, at = ""): string[] {
  if (v === undefined) return [at];
  if (v === null || typeof v !== "object") return [];
  return Object.keys(v).flatMap((k) => undefinedAt((v as Record<string, unknown>)[k], `${at}/${k}`));
}

it("is what JSON makes of an output without undefined array items, and leaves no undefined", () => {
  fc.assert(
    fc.property(output, (value) => {
      const before = JSON.stringify(value);
      const safe = jsonSafe(value);
      expect(safe).toStrictEqual(JSON.parse(before));
      expect(undefinedAt(safe)).toEqual([]);
      expect(JSON.stringify(value)).toBe(before);
    }),
    { numRuns: 1000 },
  );
});

it("drops undefined array items (JSON would write null), keeps null and a `__proto__` member", () => {
  const proto = JSON.parse('{"__proto__": {"a": 1}}') as object;
  expect(jsonSafe({ list: [1, undefined, null, 2], at: new Date(0), gone: undefined, proto })).toStrictEqual({
    list: [1, null, 2],
    at: "1970-01-01T00:00:00.000Z",
    proto: JSON.parse('{"__proto__": {"a": 1}}'),
  });
  expect(Object.keys((jsonSafe({ proto }) as { proto: object }).proto)).toEqual(["__proto__"]);
});
