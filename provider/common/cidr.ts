/** IPv4 CIDR parsing and the private ranges of spec §8. */

/** Parses `a.b.c.d/n`; undefined when malformed. */
export function parseCidr(text: string): { base: number; prefix: number } | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(text.trim());
  if (!match) return undefined;
  const octets = match.slice(1, 5).map(Number);
  const prefix = Number(match[5]);
  if (octets.some((o) => o > 255) || prefix > 32) return undefined;
  const base = ((octets[0] << 24) >>> 0) + (octets[1] << 16) + (octets[2] << 8) + octets[3];
  return { base, prefix };
}

/** The private ranges a node CIDR must lie within (spec §8). */
export const PRIVATE_RANGES = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"] as const;

const mask = (prefix: number) => (prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0);

/** True when `inner` lies entirely within `outer`. */
export function cidrWithin(
  inner: { base: number; prefix: number },
  outer: { base: number; prefix: number },
): boolean {
  return (
    inner.prefix >= outer.prefix &&
    (inner.base & mask(outer.prefix)) >>> 0 === (outer.base & mask(outer.prefix)) >>> 0
  );
}

/** True when the CIDR lies within one of the private ranges of spec §8. */
export function isPrivateCidr(text: string): boolean {
  const cidr = parseCidr(text);
  if (!cidr) return false;
  return PRIVATE_RANGES.some((range) => cidrWithin(cidr, parseCidr(range)!));
}
