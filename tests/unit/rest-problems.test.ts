/**
 * Problem bodies in every shape the published interface allows (api-notes "Errors" and "What the published
 * interface does not show"): field errors from an array in both spellings, from an ASP.NET map, or from
 * nowhere (the messages in `detail`); the message the user reads; the busy rule of `rest/busy.ts`; and
 * `isUncertain` of the providers, which reads that rule's verdict and nothing else about 400s.
 */
import fc from "fast-check";
import { isUncertain } from "../../provider/common/lifecycle";
import {
  busyVerdict,
  mayBeBusyRefusal,
  namesTransitionalState,
  showsValidationFailure,
} from "../../rest/busy";
import {
  VendorApiError,
  fieldProblemsOf,
  parseProblem,
  problemText,
  type VendorApiErrorInit,
} from "../../rest/errors";
import { REDACTED, registerSecret } from "../../rest/redact";

const CIDR_MESSAGE = "must lie within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16";

describe("fieldProblemsOf", () => {
  it.each<[string, unknown, { field: string; message: string }[]]>([
    [
      "an array of {field, message} (the documentation's spelling)",
      [{ field: "properties.ha", message: "cannot be disabled" }],
      [{ field: "properties.ha", message: "cannot be disabled" }],
    ],
    [
      "an array of {fieldName, errorMessage} (the live wire's spelling)",
      [{ fieldName: "properties.nodeCidr.address", errorMessage: CIDR_MESSAGE }],
      [{ field: "properties.nodeCidr.address", message: CIDR_MESSAGE }],
    ],
    [
      "an array mixing spellings, bare strings, numbers and unusable items",
      [{ message: "location is invalid" }, { field: "name" }, "quota reached", 42, null, [["nested"]], {}],
      [
        { field: "", message: "location is invalid" },
        { field: "name", message: "is invalid" },
        { field: "", message: "quota reached" },
        { field: "", message: "42" },
        { field: "", message: "is invalid" },
      ],
    ],
    [
      "a map {field: [messages]} (the ASP.NET shape), one field error per message",
      {
        "properties.nodeCidr.address": [CIDR_MESSAGE],
        "properties.nodePools[0].name": ["is required", "must be at most 20 characters"],
      },
      [
        { field: "properties.nodeCidr.address", message: CIDR_MESSAGE },
        { field: "properties.nodePools[0].name", message: "is required" },
        { field: "properties.nodePools[0].name", message: "must be at most 20 characters" },
      ],
    ],
    [
      "a map whose values are a string, an empty list, null or objects",
      { a: "is wrong", b: [], c: null, d: [{ errorMessage: "is too big" }], "": ["A body is required."] },
      [
        { field: "a", message: "is wrong" },
        { field: "b", message: "is invalid" },
        { field: "c", message: "is invalid" },
        { field: "d", message: "is too big" },
        { field: "", message: "A body is required." },
      ],
    ],
    [
      "a single error object",
      { fieldName: "metadata.location", errorMessage: "Location Invalid" },
      [{ field: "metadata.location", message: "Location Invalid" }],
    ],
    ["a bare string", "Location Invalid", [{ field: "", message: "Location Invalid" }]],
    ["an empty string", "", [{ field: "", message: "is invalid" }]],
    ["an empty array", [], []],
    ["an empty map", {}, []],
    ["null", null, []],
    ["absent", undefined, []],
  ])("reads %s", (_shape, errors, expected) => {
    expect(fieldProblemsOf({ title: "Bad Request", errors })).toEqual(expected);
  });

  it.each([["a string"], [null], [undefined], [42], [[{ fieldName: "a", errorMessage: "b" }]]])(
    "reads no field errors from a problem that is %j, not an object",
    (problem) => {
      expect(fieldProblemsOf(problem)).toEqual([]);
    },
  );
});

describe("parseProblem", () => {
  it.each<[string, string, unknown]>([
    ["a JSON object", '{"title":"Bad Request","detail":"x"}', { title: "Bad Request", detail: "x" }],
    ["an object after white space", '\n {"title":"t"}', { title: "t" }],
    ["plain text", "Bad Gateway", undefined],
    ["a JSON array", '[{"fieldName":"a"}]', undefined],
    ["a JSON string", '"Bad Request"', undefined],
    ["broken JSON", '{"title": ', undefined],
    ["nothing", "", undefined],
  ])("parses %s", (_what, text, expected) => {
    expect(parseProblem(text)).toEqual(expected);
  });
});

/** Any value at all, including the kinds JSON cannot produce: the parsing must not care. */
const anyValue = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withObjectString: true,
  withSet: true,
  withSparseArray: true,
  withTypedArray: true,
});

describe("the message of a 400", () => {
  const error400 = (problem: unknown, init: Partial<VendorApiErrorInit> = {}) =>
    new VendorApiError({
      kind: "http",
      method: "POST",
      path: "/kaas",
      status: 400,
      problem: problem as VendorApiErrorInit["problem"],
      ...init,
    });

  it.each<[string, unknown, string]>([
    [
      "an array of field errors",
      {
        title: "One or more validation errors occurred.",
        detail: "See the errors property for details.",
        errors: [{ fieldName: "properties.nodeCidr.address", errorMessage: CIDR_MESSAGE }],
      },
      `POST /kaas failed (400 Bad Request): properties.nodeCidr.address: ${CIDR_MESSAGE}`,
    ],
    [
      "a map of field errors",
      {
        title: "One or more validation errors occurred.",
        errors: { "properties.nodeCidr.address": [CIDR_MESSAGE], "metadata.name": ["is required"] },
      },
      `POST /kaas failed (400 Bad Request): properties.nodeCidr.address: ${CIDR_MESSAGE}; metadata.name: is required`,
    ],
    [
      "no errors member: the detail carries the messages",
      {
        title: "One or more validation errors occurred.",
        detail: `properties.nodeCidr.address: ${CIDR_MESSAGE}`,
      },
      `POST /kaas failed (400 Bad Request): One or more validation errors occurred: properties.nodeCidr.address: ${CIDR_MESSAGE}`,
    ],
    ["a title alone", { title: "Bad Request" }, "POST /kaas failed (400 Bad Request): Bad Request"],
    [
      "a detail alone",
      { detail: "Location Invalid" },
      "POST /kaas failed (400 Bad Request): Location Invalid",
    ],
    [
      "a number title and an object detail, which say nothing readable",
      { title: 7, detail: { text: "x" }, errors: "odd" },
      "POST /kaas failed (400 Bad Request): odd",
    ],
    ["an empty object", {}, "POST /kaas failed (400 Bad Request)"],
  ])("reads %s", (_shape, problem, message) => {
    expect(error400(problem).message).toBe(message);
  });

  it("redacts a registered secret the service echoed in a map message or in the detail", () => {
    registerSecret("identity-secret-R4nd0m");
    const inMap = error400({
      errors: { "properties.identity.clientSecret": ["identity-secret-R4nd0m is not accepted"] },
    });
    const inDetail = error400({ title: "Bad Request", detail: "identity-secret-R4nd0m is not accepted" });
    expect(inMap.message).toBe(
      `POST /kaas failed (400 Bad Request): properties.identity.clientSecret: ${REDACTED} is not accepted`,
    );
    expect(inDetail.message).toBe(
      `POST /kaas failed (400 Bad Request): Bad Request: ${REDACTED} is not accepted`,
    );
  });

  it("never throws and always names the request and the status, whatever the body (property)", () => {
    fc.assert(
      fc.property(anyValue, anyValue, (problem, errors) => {
        for (const candidate of [problem, { title: "Bad Request", detail: problem, errors }]) {
          const error = error400(candidate);
          expect(error.message.startsWith("POST /kaas failed (400 Bad Request)")).toBe(true);
          expect(Array.isArray(error.fieldErrors)).toBe(true);
          for (const f of error.fieldErrors) {
            expect(typeof f.field).toBe("string");
            expect(typeof f.message).toBe("string");
          }
          expect(typeof problemText(candidate as VendorApiErrorInit["problem"])).toBe("string");
        }
      }),
      { numRuns: 500 },
    );
  });

  it("never throws on any body text, JSON or not (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v) ?? ""),
        ),
        (text) => {
          const problem = parseProblem(text);
          const fieldErrors = fieldProblemsOf(problem);
          const refusal = { status: 400, idempotent: true, problem, fieldErrors, text };
          mayBeBusyRefusal(refusal);
          busyVerdict(refusal, undefined);
          expect(error400(problem, { detail: problem ? undefined : text }).message).toMatch(
            /^POST \/kaas failed/,
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("carries every message of a map into the error message (property)", () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
    fc.assert(
      fc.property(
        fc.dictionary(word, fc.array(word, { minLength: 1, maxLength: 3 }), { minKeys: 1 }),
        (map) => {
          const message = error400({ title: "One or more validation errors occurred.", errors: map }).message;
          for (const [field, messages] of Object.entries(map)) {
            for (const m of messages) expect(message).toContain(`${field}: ${m}`);
          }
        },
      ),
    );
  });
});

describe("the busy rule", () => {
  const busyTitle = { title: "Resource is busy: Updating", detail: 'KaaS "k-1" is Updating; retry later.' };
  const refusal = (problem: unknown, over: { status?: number; idempotent?: boolean; text?: string } = {}) => {
    const parsed = problem as VendorApiErrorInit["problem"];
    return { status: 400, idempotent: true, problem: parsed, fieldErrors: fieldProblemsOf(parsed), ...over };
  };

  it.each<[string, ReturnType<typeof refusal>, boolean, boolean]>([
    ["a refusal naming a busy state", refusal(busyTitle), false, true],
    ["a bare Bad Request", refusal({ title: "Bad Request" }), false, true],
    [
      "a plain-text 400 without validation words",
      refusal(undefined, { text: "Conflict with operation" }),
      false,
      true,
    ],
    ["a create (POST to a collection)", refusal(busyTitle, { idempotent: false }), false, false],
    ["a 404", refusal(busyTitle, { status: 404 }), false, false],
    ["an array of field errors", refusal({ errors: [{ fieldName: "a", errorMessage: "b" }] }), true, false],
    ["a map of field errors", refusal({ errors: { a: ["b"] } }), true, false],
    [
      "the ASP.NET validation title",
      refusal({ title: "One or more validation errors occurred." }),
      true,
      false,
    ],
    [
      "a detail listing field errors",
      refusal({ detail: `properties.nodeCidr.address: ${CIDR_MESSAGE}` }),
      true,
      false,
    ],
    [
      "a detail naming an indexed field",
      refusal({ detail: "properties.nodePools[1]: duplicate name" }),
      true,
      false,
    ],
    ["the location quirk", refusal({ title: "Bad Request", detail: "Location Invalid" }), true, false],
    ["malformed JSON", refusal({ title: "The request body is not valid JSON." }), true, false],
    ["a plain-text validation failure", refusal(undefined, { text: "Invalid nodeCidr" }), true, false],
  ])("%s: shows a validation failure %s, may be busy %s", (_what, r, validation, busy) => {
    expect(showsValidationFailure(r)).toBe(validation);
    expect(mayBeBusyRefusal(r)).toBe(busy);
  });

  it.each<[string, unknown, boolean | undefined, string]>([
    ["the probe sees the resource transitional", { title: "Bad Request" }, true, "busy"],
    ["it settled since the refusal named Updating", busyTitle, false, "settled-since"],
    ["the probe failed after a refusal naming a state", busyTitle, undefined, "settled-since"],
    [
      "it settled and the refusal said 'being updated'",
      { detail: "The cluster is being updated" },
      false,
      "settled-since",
    ],
    ["nothing says it was ever busy", { title: "Bad Request", detail: "Conflict" }, false, "final"],
    ["the probe failed and nothing says busy", { title: "Bad Request" }, undefined, "final"],
  ])("%s: %s", (_what, problem, probe, verdict) => {
    expect(busyVerdict(refusal(problem), probe)).toBe(verdict);
  });

  it.each(["InCreation", "Creating", "Provisioning", "Updating", "Deleting"])(
    "takes the state %s named in a refusal for a busy one",
    (state) => {
      expect(namesTransitionalState({ problem: { title: `Resource is busy: ${state}` } })).toBe(true);
      expect(namesTransitionalState({ problem: { detail: `it is ${state.toLowerCase()}` } })).toBe(true);
    },
  );
});

describe("isUncertain", () => {
  const http400 = (over: Partial<VendorApiErrorInit>) =>
    new VendorApiError({ kind: "http", method: "PUT", path: "/kaas/k-1", status: 400, ...over });

  it.each<[string, boolean, unknown]>([
    ["a busy refusal", true, http400({ problem: { title: "Resource is busy: Updating" }, busy: true })],
    ["a 400 without field errors that was not busy", false, http400({ problem: { title: "Bad Request" } })],
    ["a 400 in the absent shape", false, http400({ problem: { detail: `properties.x: ${CIDR_MESSAGE}` } })],
    ["a 400 with a map of field errors", false, http400({ problem: { errors: { a: ["b"] } } })],
    ["a dropped connection", true, new VendorApiError({ kind: "network", method: "PUT", path: "/k" })],
    ["a timeout", true, new VendorApiError({ kind: "timeout", method: "PUT", path: "/k" })],
    ["exhausted retries", true, new VendorApiError({ kind: "deadline", method: "PUT", path: "/k" })],
    [
      "a 503",
      true,
      new VendorApiError({ kind: "http", method: "PUT", path: "/k", status: 503, retryable: true }),
    ],
    ["a 404", false, new VendorApiError({ kind: "http", method: "PUT", path: "/k", status: 404 })],
    ["a plain Error", false, new Error("x")],
  ])("%s is uncertain: %s", (_what, expected, error) => {
    expect(isUncertain(error)).toBe(expected);
  });
});
