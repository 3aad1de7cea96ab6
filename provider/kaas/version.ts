/** Kubernetes version syntax and ordering. */

/** `major.minor` or `major.minor.patch`. */
export const VERSION_PATTERN = /^\d+\.\d+(\.\d+)?$/;

/** Numeric comparison of dotted versions: negative when `a < b`. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
