#!/usr/bin/env node
// Part of `npm run build`, after tsc: writes the validator of every request and response schema of the endpoint
// table as a plain module, `dist/validators/<name>.js` (ajv's standalone mode, the same options as at run time:
// `AJV_OPTIONS` of schemas/validate.ts), named as the table names the schema (`validatorNames`; `WIRE_SCHEMAS`
// of schemas/index.ts). The built package then loads these instead of compiling validators at run time, so a
// provider process never loads ajv's compiler nor holds what its code generation allocates. The modules require
// only ajv's small run-time helpers and ajv-formats' format functions, both dependencies of the package.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { default: Ajv, _ } = require("ajv");
const { default: addFormats } = require("ajv-formats");
const { default: standaloneCode } = require("ajv/dist/standalone");
const { validatorNames } = require(path.join(ROOT, "dist/schemas/endpoints.js"));
const { WIRE_SCHEMAS } = require(path.join(ROOT, "dist/schemas/index.js"));
const { AJV_OPTIONS, GENERATED_VALIDATORS } = require(path.join(ROOT, "dist/schemas/validate.js"));

const ajv = new Ajv({
  ...AJV_OPTIONS,
  // The generated code takes the format functions from ajv-formats instead of closing over this process's.
  code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
});
addFormats(ajv);

fs.rmSync(GENERATED_VALIDATORS, { recursive: true, force: true });
fs.mkdirSync(GENERATED_VALIDATORS, { recursive: true });
let bytes = 0;
const names = validatorNames();
for (const name of names) {
  const code = standaloneCode(ajv, ajv.compile(WIRE_SCHEMAS[name]));
  fs.writeFileSync(path.join(GENERATED_VALIDATORS, `${name}.js`), code);
  bytes += code.length;
}
process.stderr.write(
  `validators: ${names.length} written to ${path.relative(ROOT, GENERATED_VALIDATORS)}/ (${Math.round(bytes / 1024)} KB)\n`,
);
