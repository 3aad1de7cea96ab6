/**
 * Schema validation of the package. Each schema gets one validator per process, cached: in the built package,
 * the endpoint table's schemas have validators generated at build time with ajv's standalone mode
 * (`scripts/validators.mjs` writes `dist/validators/<name>.js`, named by `validatorNames` of the endpoint
 * table), loaded when first needed, so a provider process compiles nothing at run time and never loads ajv's
 * compiler; any other schema (the emulator's wire readings, a projected list) is compiled at run time by the
 * one ajv instance, with the same options. Run from the sources (the tests), every schema is compiled.
 *
 * A list's validator carries its own copy of the item schema's code. Checking the items one by one with the
 * item schema's validator instead saves that copy (about 5 MB) but makes the item validator hot, and V8's
 * optimised code for it costs more: the provider process's peak RSS during an `up` of 100 clusters rose by
 * 15 MB (bench/results/latest.md, row 7).
 */
import path from "node:path";
import type Ajv from "ajv";
import type { ErrorObject, Options, ValidateFunction } from "ajv";
import type { TSchema } from "@sinclair/typebox";

/** The options of every validator, compiled at run time or generated at build time. */
export const AJV_OPTIONS: Options = { allErrors: true, strict: false };

/** The name of each schema whose validator the build generates (see `nameValidators`). */
const NAMES = new WeakMap<object, string>();
const validators = new WeakMap<object, ValidateFunction>();
let ajv: Ajv | undefined;

/**
 * Records the name under which the build generates the validator of each schema of `names`; the endpoint table
 * names its schemas (`schemas/endpoints.ts`). A schema without a name, or whose generated validator is absent
 * (a run from the sources), is compiled at run time.
 */
export function nameValidators(names: ReadonlyMap<TSchema, string>): void {
  for (const [schema, name] of names) NAMES.set(schema, name);
}

/** The folder of the generated validators: `dist/validators`, next to `dist/schemas`. */
export const GENERATED_VALIDATORS = path.join(__dirname, "..", "validators");

/** The generated validator named `name`, or undefined when the build made none (a run from the sources). */
function generated(name: string): ValidateFunction | undefined {
  const file = path.join(GENERATED_VALIDATORS, `${name}.js`);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module the build generates
    return require(file) as ValidateFunction;
  } catch (error) {
    const missing =
      (error as { code?: string }).code === "MODULE_NOT_FOUND" && (error as Error).message.includes(file);
    if (missing) return undefined;
    throw error;
  }
}

/** The ajv instance that compiles at run time, made (and ajv loaded) on the first compile. */
export function runtimeAjv(): Ajv {
  if (!ajv) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when something is compiled
    const { default: AjvClass } = require("ajv") as typeof import("ajv");
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- idem
    const { default: addFormats } = require("ajv-formats") as typeof import("ajv-formats");
    ajv = new AjvClass(AJV_OPTIONS);
    addFormats(ajv);
  }
  return ajv;
}

/** The validator of `schema`: generated at build time where there is one, else compiled; cached. */
function validatorOf(schema: TSchema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    const name = NAMES.get(schema);
    validate = (name === undefined ? undefined : generated(name)) ?? runtimeAjv().compile(schema);
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

function describe(error: ErrorObject): SchemaProblem {
  const base = error.instancePath || "/";
  switch (error.keyword) {
    case "additionalProperties": {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      return { path: `${error.instancePath}/${extra}`, message: "is not an allowed property" };
    }
    case "required": {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      return { path: `${error.instancePath}/${missing}`, message: "is required" };
    }
    default:
      return { path: base, message: error.message ?? "is invalid" };
  }
}

function isNullBranch(error: ErrorObject): boolean {
  return error.keyword === "type" && (error.params as { type?: unknown }).type === "null";
}

/**
 * Validates `value` against `schema` and returns every problem (empty when valid). Union branches
 * (`Nullable`) produce one message per branch from ajv; they are folded so each path is reported once.
 */
export function validateSchema(schema: TSchema, value: unknown): SchemaProblem[] {
  return problemsOf(validatorOf(schema), value);
}

/** Every problem `validate` finds in `value`, folded and worded as `validateSchema` reports them. */
export function problemsOf(validate: ValidateFunction, value: unknown): SchemaProblem[] {
  if (validate(value)) return [];
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== "anyOf");
  // A union of literals (`"Hour" | "Month" | "Year"`) fails one `const` per branch: name them all at once.
  const allowed = new Map<string, unknown[]>();
  for (const e of errors) {
    if (e.keyword === "const") {
      allowed.set(e.instancePath, [
        ...(allowed.get(e.instancePath) ?? []),
        (e.params as { allowedValue: unknown }).allowedValue,
      ]);
    }
  }
  for (const error of errors) {
    // A wrong item inside a nullable container (`tags: [1]`) also fails the `null` branch at the container;
    // the other branch's errors explain the problem, so that "must be null" is noise.
    const below = (e: ErrorObject) =>
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
