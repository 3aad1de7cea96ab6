/**
 * Schema validation of the package. Each schema gets one validator per process, cached. The schemas of the
 * endpoint table are named (`WIRE_SCHEMAS`, schemas/index.ts), and in the built package each named schema has
 * a validator generated at build time with ajv's standalone mode (`scripts/validators.mjs` writes
 * `dist/validators/<name>.js`), loaded when first needed: a provider process compiles nothing at run time and
 * never loads ajv's compiler, and one that validates by name (the REST client) never loads the schemas either,
 * nor TypeBox. Any other schema (the emulator's wire readings, a projected list), and a named one whose
 * generated validator is absent (a run from the sources, the tests), is compiled at run time by the one ajv
 * instance, with the same options.
 *
 * A list's validator carries its own copy of the item schema's code. Checking the items one by one with the
 * item schema's validator instead saves that copy (about 5 MB) but makes the item validator hot, and V8's
 * optimised code for it costs more: the provider process's peak RSS during an `up` of 100 clusters rose by
 * 15 MB (bench/results/latest.md, row 7).
 */
import type Ajv from "ajv";
import type { DefinedError, Options, ValidateFunction } from "ajv";
import { GENERATED_VALIDATORS, generated } from "./generated";
import type { TSchema } from "@sinclair/typebox";
import type { WireSchemaName } from "./wire";
import { requiredAs } from "./typed";

/** The options of every validator, compiled at run time or generated at build time. */
export const AJV_OPTIONS: Options = { allErrors: true, strict: false };

/** A schema to validate against: a schema object, or the name of a schema of the endpoint table. */
export type SchemaRef = TSchema | WireSchemaName;

/** The name of each schema of the endpoint table, by object (see `nameValidators`). */
const NAMES = new WeakMap<object, string>();
const validators = new WeakMap<object, ValidateFunction>();
/** The validators of the table's schemas, by name: generated, or compiled where none was generated. */
const namedValidators = new Map<string, ValidateFunction>();
let ajv: Ajv | undefined;

/**
 * Records the name of each schema of `schemas` (`WIRE_SCHEMAS`, schemas/index.ts), so that validating with the
 * object uses the validator generated under its name, as validating by the name does.
 */
export function nameValidators(schemas: Iterable<readonly [string, TSchema]>): void {
  for (const [name, schema] of schemas) NAMES.set(schema, name);
}

export { GENERATED_VALIDATORS };

/**
 * The errors of a failed validation, as ajv's union of its own keywords' errors, which narrows on `keyword`.
 * The schemas of the package use no custom keyword, so every error is one of them (ajv's documentation,
 * "Error objects": `DefinedError`).
 */
function definedErrors(validate: ValidateFunction): DefinedError[] {
  return (validate.errors ?? []) as DefinedError[];
}

/** The ajv instance that compiles at run time, made (and ajv loaded) on the first compile. */
export function runtimeAjv(): Ajv {
  if (!ajv) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when something is compiled
    const { default: AjvClass } = requiredAs<typeof import("ajv")>(() => require("ajv"));
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- idem
    const { default: addFormats } = requiredAs<typeof import("ajv-formats")>(() => require("ajv-formats"));
    ajv = new AjvClass(AJV_OPTIONS);
    addFormats(ajv);
  }
  return ajv;
}

/**
 * The schema of the endpoint table named `name`. The schemas are loaded here, on the first need, not at
 * import: validating by name with generated validators needs none of them.
 */
export function wireSchema(name: WireSchemaName): TSchema {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, see above
  return requiredAs<typeof import("./wire")>(() => require("./wire")).WIRE_SCHEMAS[name];
}

/**
 * The validator of the table's schema `name`: generated at build time where there is one, else compiled from
 * `schema` (the table's schema of that name, loaded only then).
 */
function namedValidator(name: string, schema: () => TSchema): ValidateFunction {
  let validate = namedValidators.get(name);
  if (!validate) {
    validate = generated(name) ?? runtimeAjv().compile(schema());
    namedValidators.set(name, validate);
  }
  return validate;
}

/** The validator of `schema`: by name for a schema of the table, else compiled once per schema object. */
function validatorOf(schema: SchemaRef): ValidateFunction {
  if (typeof schema === "string") return namedValidator(schema, () => wireSchema(schema));
  const name = NAMES.get(schema);
  if (name !== undefined) return namedValidator(name, () => schema);
  let validate = validators.get(schema);
  if (!validate) {
    validate = runtimeAjv().compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** One schema violation: the JSON path of the value (`/properties/nodeCidr/address`) and what is wrong. */
export interface SchemaProblem {
  /** JSON pointer of the value, e.g. `/properties/nodePools/0/nodes`. */
  path: string;
  /** Why the value was refused. */
  message: string;
}

function describe(error: DefinedError): SchemaProblem {
  const base = error.instancePath || "/";
  switch (error.keyword) {
    case "additionalProperties": {
      const extra = error.params.additionalProperty;
      return { path: `${error.instancePath}/${extra}`, message: "is not an allowed property" };
    }
    case "required": {
      const missing = error.params.missingProperty;
      return { path: `${error.instancePath}/${missing}`, message: "is required" };
    }
    default:
      return { path: base, message: error.message ?? "is invalid" };
  }
}

function isNullBranch(error: DefinedError): boolean {
  return error.keyword === "type" && error.params.type === "null";
}

/**
 * Validates `value` against `schema` and returns every problem (empty when valid). Union branches
 * (`Nullable`) produce one message per branch from ajv; they are folded so each path is reported once.
 */
export function validateSchema(schema: SchemaRef, value: unknown): SchemaProblem[] {
  return problemsOf(validatorOf(schema), value);
}

/** Every problem `validate` finds in `value`, folded and worded as `validateSchema` reports them. */
export function problemsOf(validate: ValidateFunction, value: unknown): SchemaProblem[] {
  if (validate(value)) return [];
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  const errors = definedErrors(validate).filter((e) => e.keyword !== "anyOf");
  // A union of literals (`"Hour" | "Month" | "Year"`) fails one `const` per branch: name them all at once.
  const allowed = new Map<string, unknown[]>();
  for (const e of errors) {
    if (e.keyword === "const") {
      allowed.set(e.instancePath, [...(allowed.get(e.instancePath) ?? []), e.params.allowedValue]);
    }
  }
  for (const error of errors) {
    // A wrong item inside a nullable container (`tags: [1]`) also fails the `null` branch at the container;
    // the other branch's errors explain the problem, so that "must be null" is noise.
    const below = (e: DefinedError) =>
      e.instancePath === error.instancePath || e.instancePath.startsWith(`${error.instancePath}/`);
    if (isNullBranch(error) && errors.some((e) => !isNullBranch(e) && below(e))) continue;
    const values = error.keyword === "const" ? allowed.get(error.instancePath) : undefined;
    const problem = values
      ? {
          path: error.instancePath || "/",
          message: `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`,
        }
      : describe(error);
    // A nullable field that is wrong reports both "must be X" and "must be null": keep the first.
    if (seen.has(problem.path)) continue;
    seen.add(problem.path);
    problems.push(problem);
  }
  return problems;
}

/** Formats problems as `path: message; path: message`. */
export function formatProblems(problems: SchemaProblem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join("; ");
}
