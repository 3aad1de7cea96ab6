/**
 * The wire schemas of the service: those every kind shares (schemas/common.ts), the kinds, each kind's schemas
 * and those the endpoint table names (schemas/wire.ts, which lists the kinds' schema modules), with their
 * validation (schemas/validate.ts).
 */
import { nameValidators } from "./validate";
import { WIRE_SCHEMAS } from "./wire";

export * from "./common";
export * from "./kinds";
export * from "./validate";
export * from "./wire";

// A schema object handed to `validateSchema` (the emulator checks bodies with the objects) finds the validator
// generated under its name too.
nameValidators(Object.entries(WIRE_SCHEMAS));
