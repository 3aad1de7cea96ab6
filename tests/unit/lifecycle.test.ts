/**
 * `isUncertain`: whether an update request may have been applied, so the provider plans again from the live
 * object. A 400 is judged only by the busy rule of rest/busy.ts, carried as `busy` by the HTTP choke point.
 */
import { VendorApiError } from "../../rest/errors";
import { isUncertain } from "../../provider/common/lifecycle";

const error = (init: Partial<ConstructorParameters<typeof VendorApiError>[0]>) =>
  new VendorApiError({ kind: "http", method: "PUT", path: "/kaas/k-1", ...init });

describe("isUncertain", () => {
  it.each([
    ["a dropped connection", error({ kind: "network" }), true],
    ["a request timeout", error({ kind: "timeout" }), true],
    ["retries that ran out on a 503", error({ kind: "deadline", status: 503 }), true],
    ["a retryable 502", error({ status: 502, retryable: true }), true],
    ["an ambiguous answer", error({ status: 500, ambiguous: true }), true],
    ["a busy 400", error({ status: 400, busy: true }), true],
    ["retries that ran out on a busy 400", error({ kind: "deadline", status: 400, busy: true }), true],
    ["a final 400", error({ status: 400 }), false],
    ["retries that ran out after a final 400", error({ kind: "deadline", status: 400 }), false],
    ["a 404", error({ status: 404 }), false],
    ["a plain error", new Error("boom"), false],
  ])("%s: %s", (_what, thrown, expected) => {
    expect(isUncertain(thrown)).toBe(expected);
  });
});
