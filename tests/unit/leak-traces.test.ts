/**
 * `skipUnreadLeakTraces` (sdk/leakTraces.ts): while a resource class registers, the traces the Pulumi SDK
 * records in `debuggablePromise` are their first line alone, without the installed (source-mapping) formatter;
 * every other error keeps it, and `PULUMI_DEBUG_PROMISE_LEAKS` turns the whole thing off.
 */
import { skipUnreadLeakTraces } from "../../sdk/leakTraces";

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

it("records the SDK's leak traces as their first line alone, without the installed formatter", () => {
  const restore = skipUnreadLeakTraces();
  const trace = debuggablePromise();
  restore();
  expect(mapped).not.toHaveBeenCalled();
  expect(trace).toBe("Error: leak trace");
});

it("leaves every other error to the installed formatter", () => {
  const restore = skipUnreadLeakTraces();
  const trace = somethingElse();
  restore();
  expect(trace).toBe("mapped: user error");
});

it("puts the installed formatter back", () => {
  skipUnreadLeakTraces()();
  expect(Error.prepareStackTrace).toBe(mapped);
  expect(debuggablePromise()).toBe("mapped: leak trace");
});

it("changes nothing when PULUMI_DEBUG_PROMISE_LEAKS is set, so a leak report keeps mapped positions", () => {
  process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
  const restore = skipUnreadLeakTraces();
  expect(Error.prepareStackTrace).toBe(mapped);
  expect(debuggablePromise()).toBe("mapped: leak trace");
  restore();
  expect(Error.prepareStackTrace).toBe(mapped);
});

it("changes nothing when no formatter is installed (V8 maps nothing then)", () => {
  // V8's default: no formatter (the Node typings declare it always present).
  Object.assign(Error, { prepareStackTrace: undefined });
  const restore = skipUnreadLeakTraces();
  expect(Error.prepareStackTrace).toBeUndefined();
  restore();
  expect(Error.prepareStackTrace).toBeUndefined();
});
