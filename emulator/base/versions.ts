/**
 * Kubernetes version syntax and ordering as the emulated service reads them. The emulator keeps its own copy,
 * not the provider's: it is the test double the provider is checked against, so it must not share the rule it
 * checks. Today both read `major.minor[.patch]` and order numerically, part by part (docs/wire.md "KaaS").
 */

/** `major.minor` or `major.minor.patch`. */
export const VERSION_PATTERN = /^\d+\.\d+(\.\d+)?$/;

/** Numeric comparison of dotted versions, part by part (a missing part reads 0): negative when `a < b`. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
