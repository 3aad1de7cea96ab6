/**
 * The one way out of the package's own lines: progress, retries, warnings. Every line carries the package's
 * prefix and is redacted. The engine shows a dynamic provider's console output as diagnostics, so by default
 * a line goes to the console; a provider plugin's console output is hidden (the engine logs it at debug level
 * only), so the plugin sends each line to the engine's log instead (`setOutputSink`).
 */
import { redact } from "./redact";

/** How a line is shown: a progress line, or a warning the CLI marks as one. */
export type Severity = "info" | "warning";

/** Where lines go instead of the console. */
export type OutputSink = (severity: Severity, line: string) => void;

let sink: OutputSink | undefined;

/** Sends every later line to `to` (the plugin: the engine's log), or back to the console when undefined. */
export function setOutputSink(to: OutputSink | undefined): void {
  sink = to;
}

/** Prints `line` with the package's prefix, redacted. */
export function emit(line: string, severity: Severity = "info"): void {
  const text = redact(`[vendor-container] ${line}`);
  if (sink) sink(severity, text);
  else if (severity === "warning") console.warn(text);
  else console.log(text);
}
