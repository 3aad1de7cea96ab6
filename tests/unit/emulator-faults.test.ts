/**
 * The checks of the emulator's fault configuration (`emulator/faults.ts`) on provisioning: the kinds it names
 * come from the list of kinds (`emulator/kinds.ts`), and a kind the emulator does not have is refused by name.
 */
import {
  checkFaults,
  defaultFaults,
  PROVISIONED_KINDS,
  type FaultConfig,
} from "../../emulator/composition/faults";

/** The default configuration with `provisioning` in place of its own, as `PUT /_emulator/faults` builds it. */
function withProvisioning(provisioning: Record<string, unknown>): FaultConfig {
  // A configuration from outside (a PUT body, start options) may name any key; the check is what refuses it.
  return { ...defaultFaults(), provisioning: provisioning as FaultConfig["provisioning"] };
}

it("names every kind, those a project holds directly first", () => {
  expect(PROVISIONED_KINDS).toEqual(["kaas", "registry", "backup"]);
});

it("provisions every kind ok by default, the kinds in that order", () => {
  const { provisioning } = defaultFaults();
  expect(provisioning).toEqual({ kaas: "ok", registry: "ok", backup: "ok" });
  expect(JSON.stringify(provisioning)).toBe('{"kaas":"ok","registry":"ok","backup":"ok"}');
  expect(checkFaults(defaultFaults())).toEqual([]);
});

it("accepts every outcome for every kind, and a configuration that leaves kinds out", () => {
  expect(checkFaults(withProvisioning({ kaas: "fail", registry: "stuck", backup: "ok" }))).toEqual([]);
  expect(checkFaults(withProvisioning({ backup: "fail" }))).toEqual([]);
  expect(checkFaults(withProvisioning({}))).toEqual([]);
});

it("refuses a kind the emulator does not have, naming the kinds, and an unknown outcome", () => {
  expect(checkFaults(withProvisioning({ nosuch: "ok", kaas: "maybe", backups: "fail" }))).toEqual([
    { fieldName: "provisioning.nosuch", errorMessage: "is not a kind (kinds: kaas, registry, backup)" },
    { fieldName: "provisioning.kaas", errorMessage: "must be ok, stuck or fail" },
    { fieldName: "provisioning.backups", errorMessage: "is not a kind (kinds: kaas, registry, backup)" },
  ]);
});

it("refuses an inherited property name as a kind", () => {
  expect(checkFaults(withProvisioning({ constructor: "ok" }))).toEqual([
    { fieldName: "provisioning.constructor", errorMessage: "is not a kind (kinds: kaas, registry, backup)" },
  ]);
});
