/**
 * The validators the build generates (`scripts/validators.mjs` writes `dist/validators/<name>.js`, see
 * schemas/validate.ts), each loaded by its name when first needed.
 *
 * The release's single-file plugin (scripts/release/plugin.mjs) cannot require a file by a path computed at run
 * time: its bundler replaces this module with one that requires each generated validator by its literal path,
 * still when first needed.
 */
import path from "node:path";
import type { ValidateFunction } from "ajv";
import { isRecord, requiredAs } from "./typed";

/** The folder of the generated validators: `dist/validators`, next to `dist/schemas`. */
export const GENERATED_VALIDATORS = path.join(__dirname, "..", "validators");

/** The generated validator named `name`, or undefined when the build made none (a run from the sources). */
export function generated(name: string): ValidateFunction | undefined {
  const file = path.join(GENERATED_VALIDATORS, `${name}.js`);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module the build generates; it exports one ajv validator
    return requiredAs<ValidateFunction>(() => require(file));
  } catch (error) {
    if (isMissingModule(error, file)) return undefined;
    throw error;
  }
}

/** Whether `error` is Node's failure to find the module `file` (not a failure inside it). */
function isMissingModule(error: unknown, file: string): boolean {
  // Not `instanceof Error`: a loader (jest's) may throw an error of another realm.
  return (
    isRecord(error) &&
    error.code === "MODULE_NOT_FOUND" &&
    typeof error.message === "string" &&
    error.message.includes(file)
  );
}
