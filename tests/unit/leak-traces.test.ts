/**
 * `unmapLeakTraces` (sdk/leakTraces.ts): while a resource class registers, the traces the Pulumi SDK records
 * in `debuggablePromise` skip the installed (source-mapping) formatter; every other error keeps it, and
 * `PULUMI_DEBUG_PROMISE_LEAKS` turns the whole thing off.
 */
import { unmapLeakTraces } from "../../sdk/leakTraces";

const original = Error.prepareStackTrace;
const mapped = jest.fn((error: Error) => `mapped: ${error.message}`);

// Named like the SDK's function that records a trace on every promise it makes.
function debuggablePromise(): string {
  return new Error("leak trace").stack ?? "";
}
function somethingElse(): string {
  return new Error("user error").stack ?? "";
}

beforeEach(() => {
  mapped.mockClear();
  Error.prepareStackTrace = mapped;
  delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
});
afterAll(() => {
  Error.prepareStackTrace = original;
  delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
});

it("formats the SDK's leak traces without the installed formatter, with every frame", () => {
  const restore = unmapLeakTraces();
  const trace = debuggablePromise();
  restore();
  expect(mapped).not.toHaveBeenCalled();
  const lines = trace.split("\n");
  expect(lines[0]).toBe("Error: leak trace");
  expect(lines[1]).toMatch(/^ {4}at debuggablePromise \(.*leak-traces\.test\.ts:\d+:\d+\)$/);
  expect(lines.length).toBeGreaterThan(2);
  expect(lines.slice(1).every((line) => line.startsWith("    at "))).toBe(true);
});

it("leaves every other error to the installed formatter", () => {
  const restore = unmapLeakTraces();
  const trace = somethingElse();
  restore();
  expect(trace).toBe("mapped: user error");
});

it("puts the installed formatter back", () => {
  unmapLeakTraces()();
  expect(Error.prepareStackTrace).toBe(mapped);
  expect(debuggablePromise()).toBe("mapped: leak trace");
});

it("changes nothing when PULUMI_DEBUG_PROMISE_LEAKS is set, so a leak report keeps mapped positions", () => {
  process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
  const restore = unmapLeakTraces();
  expect(Error.prepareStackTrace).toBe(mapped);
  expect(debuggablePromise()).toBe("mapped: leak trace");
  restore();
  expect(Error.prepareStackTrace).toBe(mapped);
});

it("changes nothing when no formatter is installed (V8 maps nothing then)", () => {
  // V8's default: no formatter (the Node typings declare it always present).
  Object.assign(Error, { prepareStackTrace: undefined });
  const restore = unmapLeakTraces();
  expect(Error.prepareStackTrace).toBeUndefined();
  restore();
  expect(Error.prepareStackTrace).toBeUndefined();
});
