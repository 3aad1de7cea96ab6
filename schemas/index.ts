/**
 * The wire schemas of the service, the kinds and the schemas the endpoint table names (schemas/wire.ts), with
 * their validation (schemas/validate.ts).
 */
import { nameValidators } from "./validate";
import { WIRE_SCHEMAS } from "./wire";

export * from "./common";
export * from "./kinds";
export * from "./kaas";
export * from "./kaasBackup";
export * from "./registry";
export * from "./volume";
export * from "./validate";
export * from "./wire";

// A schema object handed to `validateSchema` (the emulator checks bodies with the objects) finds the validator
// generated under its name too.
nameValidators(Object.entries(WIRE_SCHEMAS));
