/**
 * The one ajv instance of the package. Validators are compiled once per schema object and cached, so the
 * REST client and the emulator pay the compile cost once per process.
 *
 * A list's validator carries its own copy of the item schema's code. Checking the items one by one with the
 * item schema's validator instead saves that copy (about 5 MB) but makes the item validator hot, and V8's
 * optimised code for it costs more: the provider process's peak RSS during an `up` of 100 clusters rose by
 * 15 MB (bench/results/latest.md, row 7).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { TSchema } from "@sinclair/typebox";

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const compiled = new WeakMap<TSchema, ValidateFunction>();

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
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
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
