/**
 * The wire readings of the provider-level suites. By default the emulator's richest readings; in the jest
 * project `integration (published interface)` (`EMULATOR_WIRE=strict`, set by `strict-wire.ts`) only what the
 * published interface defines (`STRICT_WIRE`: no attachments or node ids shown, no field errors, zone names
 * only, filters refused). The same tests must pass under both.
 */
import { STRICT_WIRE, type WireReadings } from "../../../emulator";

export function harnessWire(): WireReadings | undefined {
  return process.env.EMULATOR_WIRE === "strict" ? { ...STRICT_WIRE } : undefined;
}
