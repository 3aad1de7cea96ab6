/**
 * The emulator's service rules (`emulator/rules.ts`) read versions with the rule the provider reads them with
 * (`schemas/versions.ts`) and CIDRs as the provider's helpers do (`provider/common/cidr.ts`), except where the
 * emulator reads a CIDR more strictly on purpose (leading zeros, host bits). These tables pin both readings.
 */
import { mergeConfig } from "../../emulator/base/config";
import { checkEmulatorConfig, defaultConfig } from "../../emulator/composition/config";
import { cidrOverlaps, parseCidr } from "../../emulator/base/cidr";
import { checkNodeCidr } from "../../emulator/kinds/kaas/rules";
import { parseCidr as parseProviderCidr } from "../../provider/common/cidr";
import { compareVersions, VERSION_PATTERN } from "../../schemas/versions";

describe("compareVersions", () => {
  it.each([
    ["1.33.10", "1.33.9", 1],
    ["1.33.9", "1.33.10", -1],
    ["1.34", "1.33.2", 1],
    ["1.33", "1.33.2", -2],
    ["1.33", "1.33.0", 0],
    ["1.33.2", "1.33.2", 0],
    ["2.0", "1.99.99", 1],
  ])("orders %s against %s as %d", (a, b, order) => {
    expect(compareVersions(a, b)).toBe(order);
  });

  // Values that are not `major.minor[.patch]` have no order (NaN: neither below, equal nor above), so every
  // caller, the emulator's included, tests VERSION_PATTERN first. Read digit by digit (leading digits of each
  // part, 0 for a part without), `1.33.2-rc1` would equal 1.33.2, `v1.34.1` sort below 1.33.2, and `1e1.0` and
  // `0x10.0` below 9.0.
  it.each([
    ["1.33.2-rc1", "1.33.2"],
    ["v1.34.1", "1.33.2"],
    ["1.34.x", "1.34.0"],
    ["1.34.1-gke.100", "1.34.1"],
    ["garbage", "1.33.2"],
  ])("gives %s against %s no order", (a, b) => {
    expect(VERSION_PATTERN.test(a)).toBe(false);
    expect(compareVersions(a, b)).toBeNaN();
  });

  // Outside the pattern, Number reads some parts whole: these are ordered, but VERSION_PATTERN refuses them.
  it.each([
    ["1e1.0", "9.0", 1],
    ["0x10.0", "9.0", 7],
  ])("orders %s against %s as %d, though the pattern refuses it", (a, b, order) => {
    expect(VERSION_PATTERN.test(a)).toBe(false);
    expect(compareVersions(a, b)).toBe(order);
  });
});

describe("the emulator's version catalogue", () => {
  it("admits only major.minor[.patch] versions, which compareVersions orders", () => {
    const config = mergeConfig(defaultConfig(), {
      kubernetesVersions: ["1.35", "1.35.0", "1.35.1-rc.1", "v1.36"],
    });
    expect(checkEmulatorConfig(config)).toEqual([
      {
        fieldName: "kubernetesVersions[2]",
        errorMessage: '"1.35.1-rc.1" is not major.minor or major.minor.patch',
      },
      { fieldName: "kubernetesVersions[3]", errorMessage: '"v1.36" is not major.minor or major.minor.patch' },
    ]);
  });

  it("admits the default catalogue", () => {
    expect(checkEmulatorConfig(defaultConfig())).toEqual([]);
  });
});

describe("CIDR readings", () => {
  const network = (text: string) => {
    const cidr = parseProviderCidr(text);
    return cidr && { base: cidr.base, prefix: cidr.prefix };
  };

  // 10.0.0.0 is 167772160; 10.0.0.1 is 167772161.
  it.each([
    ["10.0.0.0/8", { base: 167772160, prefix: 8 }, { base: 167772160, prefix: 8, hostBitsSet: false }],
    [" 10.0.0.0/08 ", { base: 167772160, prefix: 8 }, { base: 167772160, prefix: 8, hostBitsSet: false }],
    ["0.0.0.0/0", { base: 0, prefix: 0 }, { base: 0, prefix: 0, hostBitsSet: false }],
    // The emulator's readings: an address with host bits set names its network, and says so ...
    ["10.0.0.1/8", { base: 167772161, prefix: 8 }, { base: 167772160, prefix: 8, hostBitsSet: true }],
    // ... and an octet with a leading zero is no CIDR (octal to inet_aton, decimal to the provider).
    ["010.0.0.0/8", { base: 167772160, prefix: 8 }, undefined],
    ["00.0.0.0/0", { base: 0, prefix: 0 }, undefined],
    ["10.0.0.0/33", undefined, undefined],
    ["10.0.0/16", undefined, undefined],
    ["256.0.0.0/8", undefined, undefined],
  ])("%j: the provider reads %j, the emulator %j", (text, provider, emulator) => {
    expect(network(text)).toEqual(provider);
    expect(parseCidr(text)).toEqual(emulator);
  });

  it.each([
    ["10.0.0.0/8", []],
    ["192.168.1.0/24", []],
    ["172.32.0.0/16", ["must lie within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16"]],
    ["10.0.0.1/16", ['"10.0.0.1/16" is not a network address: host bits are set']],
    ["010.0.0.0/8", ['"010.0.0.0/8" is not a valid CIDR (expected a.b.c.d/n)']],
  ])("a node CIDR %s has the problems %j", (address, messages) => {
    expect(checkNodeCidr(address, "properties.nodeCidr.address")).toEqual(
      messages.map((errorMessage) => ({ fieldName: "properties.nodeCidr.address", errorMessage })),
    );
  });

  it.each([
    ["10.0.0.0/8", "10.244.0.0/16", true],
    ["10.244.0.0/16", "10.0.0.0/8", true],
    ["10.0.0.0/16", "10.1.0.0/16", false],
    ["192.168.0.0/17", "192.168.128.0/17", false],
  ])("%s and %s overlap: %s", (a, b, overlap) => {
    expect(cidrOverlaps(parseCidr(a)!, parseCidr(b)!)).toBe(overlap);
  });
});
