/**
 * IPv4 addresses and CIDR ranges as the emulated service reads them, and the private ranges a node CIDR must lie
 * in (spec §2.2, §8).
 *
 * The emulator keeps its own parser, not the provider's (provider/common/cidr.ts), and it is stricter on purpose:
 * an octet with a leading zero is refused (`010.0.0.0/8`: parsers in the inet_aton tradition read it as octal, so
 * which network it names is ambiguous), and `hostBitsSet` tells an address with host bits set (`10.0.0.1/16`),
 * which the service refuses as a node CIDR. The provider accepts both and leaves the refusal to the service; it
 * also has no parser of a bare address, which an authorized IP range may be.
 */

/** A parsed IPv4 CIDR: network base as an unsigned 32-bit number and prefix length. */
export interface Cidr {
  base: number;
  prefix: number;
}

/** Parses a dotted IPv4 address; undefined when malformed. */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = value * 256 + n;
  }
  return value;
}

/** The network mask of a prefix length, as an unsigned 32-bit number. */
function maskOf(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/** Parses `a.b.c.d/n`; undefined when malformed. `hostBitsSet` tells whether the address is not the network. */
export function parseCidr(text: string): (Cidr & { hostBitsSet: boolean }) | undefined {
  const match = /^([^/]+)\/(\d{1,2})$/.exec(text.trim());
  if (!match) return undefined;
  const address = parseIPv4(match[1]);
  const prefix = Number(match[2]);
  if (address === undefined || prefix > 32) return undefined;
  const base = (address & maskOf(prefix)) >>> 0;
  return { base, prefix, hostBitsSet: base !== address };
}

/** True when `inner` lies entirely within `outer`. */
export function cidrWithin(inner: Cidr, outer: Cidr): boolean {
  const mask = maskOf(outer.prefix);
  return inner.prefix >= outer.prefix && (inner.base & mask) >>> 0 === (outer.base & mask) >>> 0;
}

/** True when the two ranges share an address. */
export function cidrOverlaps(a: Cidr, b: Cidr): boolean {
  return cidrWithin(a, b) || cidrWithin(b, a);
}

/** The private ranges a node CIDR must lie in (spec §8), as the service names them. */
export const PRIVATE_RANGE_TEXTS = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"] as const;

/** A CIDR text the emulator itself spells, parsed; throws on a malformed one, which is a defect here. */
function knownCidr(text: string): Cidr {
  const cidr = parseCidr(text);
  if (!cidr) throw new Error(`malformed built-in CIDR ${text}`);
  return cidr;
}

/** The private ranges, parsed. */
export const PRIVATE_RANGES: readonly Cidr[] = PRIVATE_RANGE_TEXTS.map(knownCidr);
