/**
 * The Pulumi SDK's promise-leak traces, formatted without source maps while a resource of this package
 * registers (issue 12: most of the time this package added to a `pulumi preview` went here).
 *
 * For every property of a resource, output-only ones included, the SDK makes four promises and records a
 * stack trace on each (`debuggablePromise` in `@pulumi/pulumi/runtime/debuggable`), which it prints only for a
 * promise still pending at exit and only when `PULUMI_DEBUG_PROMISE_LEAKS` is set. In a program run by
 * `pulumi`, `Error.prepareStackTrace` is the source-map-support of the SDK's ts-node, which maps every frame of
 * every such trace through a source map. A cluster registers its arguments, `identity`, `creationScope` and the
 * 20 output-only names it seeds: the 100 clusters of the benchmark recorded 12,400 traces where 100 plain dynamic
 * resources with the same arguments record 3,600, and that was most of the difference between their previews.
 *
 * While a class's `super(...)` runs, those traces, and only those, are formatted as V8 formats them: the
 * same frames, positions in the JavaScript that ran. Every other error keeps the installed formatter, and
 * with `PULUMI_DEBUG_PROMISE_LEAKS` set nothing changes, so a leak report still shows mapped positions.
 */

/** V8's own rendering of a stack: `Error: message` then one `    at ...` line per frame. */
function unmapped(error: Error, frames: NodeJS.CallSite[]): string {
  let text = String(error);
  for (const frame of frames) text += `\n    at ${String(frame)}`;
  return text;
}

/**
 * Installs the formatter described above and returns the function that puts the previous one back. Call it
 * right before `super(...)` and restore in a `finally`.
 */
export function unmapLeakTraces(): () => void {
  const installed = Error.prepareStackTrace;
  if (!installed || process.env.PULUMI_DEBUG_PROMISE_LEAKS) return () => undefined;
  Error.prepareStackTrace = (error, frames) =>
    frames[0]?.getFunctionName() === "debuggablePromise" ? unmapped(error, frames) : installed(error, frames);
  return () => {
    Error.prepareStackTrace = installed;
  };
}
