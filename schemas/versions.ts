/**
 * Kubernetes version syntax and ordering, as the service reads them (docs/wire.md "KaaS"): `major.minor[.patch]`,
 * ordered numerically, part by part. The provider's `check` and `diff`, the policies and the emulator all read
 * versions with this one rule, so that what the provider refuses and what the emulated service refuses cannot
 * drift apart. Imports nothing: `check` loads it without loading TypeBox.
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
