/**
 * What the dynamic-provider host prints for a failed provider method (`${error}: ${error.stack}`): one line for
 * a failure raised on purpose, the stack trace for a defect.
 */
import type { KindProvider } from "../../provider";
import { isDeliberate, quietFailures, quieted } from "../../provider/common/quiet";
import { SettingsError } from "../../rest/settings";

/** The host's line for a failed check, diff, read or delete. */
const hostLine = (error: Error) => `${error}: ${error.stack}`;

class VendorLikeError extends Error {
  readonly status = 401;
  constructor(message: string) {
    super(message);
    this.name = "VendorApiError";
  }
}

it.each([
  ["an API error", new VendorLikeError("GET /kaas/k-1 failed (401 Unauthorized): check vendor:token")],
  ["a settings error", new SettingsError('vendor:pollIntervalMs must be a positive integer (ms), got "x"')],
  ["a plain Error", new Error('Kaas "cluster": adoptId k-9: no such cluster in project p-1')],
])("prints %s as one line, Name: message", (_label, error) => {
  const message = error.message;
  expect(hostLine(quieted(error))).toBe(`${error.name}: ${message}`);
  expect(error.message).toBe(message);
});

it("keeps every other property of the error, a partial failure's id and outputs among them", () => {
  const error = Object.assign(new Error("create failed"), { id: "k-1", properties: { state: "Failed" } });
  expect(quieted(error)).toBe(error);
  expect({ id: error.id, properties: error.properties, message: error.message }).toEqual({
    id: "k-1",
    properties: { state: "Failed" },
    message: "create failed",
  });
});

it.each([
  new TypeError("Cannot read properties of undefined (reading 'id')"),
  new RangeError("Invalid array length"),
  new ReferenceError("x is not defined"),
])("keeps the stack trace of a defect: %s", (error) => {
  const stack = error.stack!;
  expect(isDeliberate(error)).toBe(false);
  expect(quieted(error).stack).toBe(stack);
  expect(hostLine(error)).toBe(`${String(error)}: ${stack}`);
  expect(stack).toMatch(/\n\s+at /);
});

it("leaves values that are not errors alone", () => {
  expect(quieted("text")).toBe("text");
  expect(isDeliberate({ message: "m" })).toBe(false);
});

it("quiets every method's rejection and passes its results through unchanged", async () => {
  const refused = () => Promise.reject(new VendorLikeError("GET /kaas/k-1 failed (401 Unauthorized)"));
  const inner: KindProvider = {
    check: (olds, news) => Promise.resolve({ inputs: { ...olds, ...news }, failures: [] }),
    diff: refused,
    create: refused,
    read: refused,
    update: refused,
    delete: refused,
    importObject: refused,
  };
  const provider = quietFailures(inner);
  await expect(provider.check({ a: 1 }, { b: 2 })).resolves.toEqual({ inputs: { a: 1, b: 2 }, failures: [] });
  for (const call of [
    () => provider.diff("k-1", {}, {}),
    () => provider.create({}),
    () => provider.read("k-1", {}),
    () => provider.update("k-1", {}, {}),
    () => provider.delete("k-1", {}),
    () => provider.importObject("k-1", "proj/dev/prod"),
  ]) {
    const error = (await call().catch((e: unknown) => e)) as Error;
    expect(hostLine(error)).toBe("VendorApiError: GET /kaas/k-1 failed (401 Unauthorized)");
  }
});
