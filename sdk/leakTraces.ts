/**
 * The Pulumi SDK's promise-leak traces, left unformatted while a resource of this package registers: nothing
 * reads them unless `PULUMI_DEBUG_PROMISE_LEAKS` is set (formatting them was most of the time this package
 * added to a `pulumi preview`: bench/results/latest.md).
 *
 * For every property of a resource, output-only ones included, the SDK makes four promises and records
 * `new Error().stack` on each (`debuggablePromise` in `@pulumi/pulumi/runtime/debuggable`). It reads that trace
 * only to print a leak report, for a promise still pending at exit, and only when `PULUMI_DEBUG_PROMISE_LEAKS`
 * is set. In a program run by `pulumi`, `Error.prepareStackTrace` is the source-map-support of the SDK's
 * ts-node, which maps every frame of every such trace through a source map. A cluster registers its arguments,
 * `identity`, `creationScope` and the 20 output-only names it seeds: the 100 clusters of the benchmark recorded
 * 12,400 traces where 100 plain dynamic resources with the same arguments record 3,600.
 *
 * While a class's `super(...)` runs, those traces, and only those, are the error's first line alone. Every
 * other error keeps the installed formatter, and with `PULUMI_DEBUG_PROMISE_LEAKS` set nothing changes, so a
 * leak report shows every frame, source-mapped, as before.
 */

/**
 * Installs the formatter described above and returns the function that puts the previous one back. Call it
 * right before `super(...)` and restore in a `finally`.
 */
export function skipUnreadLeakTraces(): () => void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- V8 calls the hook without a receiver, and so does the formatter below
  const installed = Error.prepareStackTrace;
  if (!installed || process.env.PULUMI_DEBUG_PROMISE_LEAKS) return () => undefined;
  Error.prepareStackTrace = (error, frames): unknown =>
    frames[0]?.getFunctionName() === "debuggablePromise" ? String(error) : installed(error, frames);
  return () => {
    Error.prepareStackTrace = installed;
  };
}
