// Setup of the jest project `integration (published interface)`: every harness starts its emulator under
// STRICT_WIRE (see wire.ts).
process.env.EMULATOR_WIRE = "strict";
