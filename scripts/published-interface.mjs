// @ts-check
/**
 * Writes the repository's record of the service's published interface: the facts of a published OpenAPI
 * description, and nothing else.
 *
 *   node scripts/published-interface.mjs <openapi.json> [out]     (or: npm run published-interface -- <openapi.json>)
 *
 * `out` defaults to schemas/published/interface.json. The conformance tests (tests/unit/published-interface.test.ts
 * for responses, tests/unit/request-conformance.test.ts for requests) read that record, so that the repository
 * carries what its tests read: nothing at build, test or run time reads a file outside it. Run this again when a
 * new published description comes out, then the two tests: they say what changed for the provider.
 *
 * Kept: every path and method; each operation's parameters (name, in, required, schema), request body (required,
 * schema per media type) and responses (status code, schema per media type, or no body); and every schema of
 * `components.schemas` with its facts: type, format, nullable, properties, required, additionalProperties, enum,
 * items, `$ref` (targets keep their names, so the record's `$ref`s resolve inside it), composition
 * (`allOf`/`oneOf`/`anyOf`/`not`), constraints (lengths, bounds, pattern), default, readOnly/writeOnly,
 * deprecated. Also `openapi`, `info.title`, `info.version` and the security schemes' type, name and location.
 * Dropped: prose (description, summary, title of a schema, examples, external docs), tags, and extensions
 * (`x-*`, `APIDOC`). A keyword that is in neither list stops the script with its location, so that a fact is
 * never dropped, nor prose copied, unnoticed: add the keyword to `SCHEMA_FACTS` or `SCHEMA_PROSE` below.
 *
 * The output is deterministic: object keys sorted, `required` lists sorted (they are sets), every other array in
 * the published order (enum values, parameters), two-space JSON with a final newline. Prettier does not rewrite
 * it (.prettierignore): it is generated, and regenerating it must give the same bytes.
 */
import console from "node:console";
import fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_OUT = path.join(ROOT, "schemas/published/interface.json");

/** Schema keywords that state facts: copied (their sub-schemas walked the same way). */
const SCHEMA_FACTS = new Set([
  "$ref",
  "type",
  "format",
  "nullable",
  "properties",
  "required",
  "additionalProperties",
  "enum",
  "items",
  "allOf",
  "oneOf",
  "anyOf",
  "not",
  "discriminator",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "default",
  "readOnly",
  "writeOnly",
  "deprecated",
]);
/** Schema keywords that carry prose: dropped. */
const SCHEMA_PROSE = new Set(["description", "title", "example", "examples", "externalDocs"]);
/** Operation keys dropped: prose, grouping labels and the vendor's `APIDOC` flag. */
const OPERATION_DROPPED = new Set(["summary", "description", "tags", "externalDocs", "APIDOC"]);
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/** @typedef {Record<string, unknown>} Json */

/** @param {unknown} value @returns {value is Json} */
const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** @param {string} at @param {string} message @returns {never} */
function fail(at, message) {
  throw new Error(`${at}: ${message}`);
}

/** @param {unknown} value @param {string} at @returns {Json} */
function object(value, at) {
  if (!isObject(value)) fail(at, "expected an object");
  return value;
}

/**
 * The facts of one schema.
 * @param {unknown} value
 * @param {string} at JSON-pointer-like location, for errors
 * @returns {Json}
 */
function schemaFacts(value, at) {
  const schema = object(value, at);
  /** @type {Json} */
  const out = {};
  for (const [key, sub] of Object.entries(schema)) {
    const here = `${at}/${key}`;
    if (SCHEMA_PROSE.has(key) || key.startsWith("x-")) continue;
    if (!SCHEMA_FACTS.has(key)) fail(here, `unknown schema keyword "${key}": a fact or prose?`);
    if (key === "properties") {
      /** @type {Json} */
      const properties = {};
      for (const [name, property] of Object.entries(object(sub, here)))
        properties[name] = schemaFacts(property, `${here}/${name}`);
      out.properties = properties;
    } else if (key === "items" || key === "not") {
      out[key] = schemaFacts(sub, here);
    } else if (key === "additionalProperties") {
      out[key] = typeof sub === "boolean" ? sub : schemaFacts(sub, here);
    } else if (key === "allOf" || key === "oneOf" || key === "anyOf") {
      if (!Array.isArray(sub)) fail(here, "expected an array");
      out[key] = sub.map((member, index) => schemaFacts(member, `${here}/${index}`));
    } else if (key === "required") {
      if (!Array.isArray(sub)) fail(here, "expected an array");
      out.required = [...sub].map(String).sort();
    } else {
      out[key] = sub;
    }
  }
  return out;
}

/**
 * The facts of a request body's or a response's `content`, in the published shape (`{[media]: {schema}}`); a
 * media type without a schema keeps an empty object: the body exists, its shape is not published.
 * @param {unknown} value @param {string} at @returns {Json}
 */
function contentFacts(value, at) {
  /** @type {Json} */
  const out = {};
  for (const [media, entry] of Object.entries(object(value, at))) {
    const schema = object(entry, `${at}/${media}`).schema;
    out[media] = schema === undefined ? {} : { schema: schemaFacts(schema, `${at}/${media}/schema`) };
  }
  return out;
}

/** @param {unknown} value @param {string} at @returns {Json} */
function parameterFacts(value, at) {
  const parameter = object(value, at);
  if ("$ref" in parameter) fail(at, "a $ref parameter is not supported: inline it");
  /** @type {Json} */
  const out = { in: parameter.in, name: parameter.name, required: parameter.required === true };
  if (parameter.schema !== undefined) out.schema = schemaFacts(parameter.schema, `${at}/schema`);
  for (const key of ["deprecated", "allowEmptyValue", "style", "explode"])
    if (parameter[key] !== undefined) out[key] = parameter[key];
  return out;
}

/** @param {unknown} value @param {string} at @returns {Json} */
function operationFacts(value, at) {
  const operation = object(value, at);
  /** @type {Json} */
  const out = {};
  for (const [key, sub] of Object.entries(operation)) {
    const here = `${at}/${key}`;
    if (OPERATION_DROPPED.has(key) || key.startsWith("x-")) continue;
    if (key === "operationId" || key === "deprecated" || key === "security") out[key] = sub;
    else if (key === "parameters") {
      if (!Array.isArray(sub)) fail(here, "expected an array");
      out.parameters = sub.map((parameter, index) => parameterFacts(parameter, `${here}/${index}`));
    } else if (key === "requestBody") {
      const body = object(sub, here);
      if ("$ref" in body) fail(here, "a $ref request body is not supported: inline it");
      out.requestBody = {
        content: contentFacts(body.content ?? {}, `${here}/content`),
        required: body.required === true,
      };
    } else if (key === "responses") {
      /** @type {Json} */
      const responses = {};
      for (const [status, response] of Object.entries(object(sub, here))) {
        const answer = object(response, `${here}/${status}`);
        responses[status] =
          answer.content === undefined
            ? {}
            : { content: contentFacts(answer.content, `${here}/${status}/content`) };
      }
      out.responses = responses;
    } else fail(here, `unknown operation key "${key}": a fact or prose?`);
  }
  return out;
}

/**
 * The record of a published description.
 * @param {Json} published the parsed OpenAPI document
 * @param {string} source the file name it came from (its base name is recorded)
 * @returns {Json}
 */
export function publishedInterfaceRecord(published, source) {
  const info = object(published.info ?? {}, "/info");
  /** @type {Json} */
  const paths = {};
  for (const [route, item] of Object.entries(object(published.paths, "/paths"))) {
    /** @type {Json} */
    const operations = {};
    for (const [method, operation] of Object.entries(object(item, `/paths/${route}`))) {
      const at = `/paths/${route}/${method}`;
      if (method === "parameters") fail(at, "path-level parameters are not supported: inline them");
      if (!METHODS.has(method)) continue; // summary, description, servers of a path item
      operations[method] = operationFacts(operation, at);
    }
    paths[route] = operations;
  }
  const components = object(published.components ?? {}, "/components");
  /** @type {Json} */
  const schemas = {};
  for (const [name, schema] of Object.entries(object(components.schemas ?? {}, "/components/schemas")))
    schemas[name] = schemaFacts(schema, `/components/schemas/${name}`);
  /** @type {Json} */
  const securitySchemes = {};
  for (const [name, scheme] of Object.entries(
    object(components.securitySchemes ?? {}, "/components/securitySchemes"),
  )) {
    const { description: _description, ...facts } = object(scheme, `/components/securitySchemes/${name}`);
    securitySchemes[name] = facts;
  }
  return {
    components: { schemas, securitySchemes },
    generatedBy: `node scripts/published-interface.mjs ${path.basename(source)}`,
    info: { title: info.title, version: info.version },
    openapi: published.openapi,
    paths,
    security: published.security ?? [],
  };
}

/**
 * The value with every object's keys sorted, recursively (arrays keep their order).
 * @param {unknown} value @returns {unknown}
 */
export function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}

/** The record's file text: sorted keys, two-space JSON, a final newline. @param {Json} record */
export const recordText = (record) => `${JSON.stringify(sortKeys(record), null, 2)}\n`;

function main() {
  const [input, output = DEFAULT_OUT] = process.argv.slice(2);
  if (!input || input === "--help" || input === "-h") {
    console.error("usage: node scripts/published-interface.mjs <openapi.json> [out]");
    process.exit(input ? 0 : 2);
  }
  const published = object(JSON.parse(fs.readFileSync(input, "utf8")), "/");
  const text = recordText(publishedInterfaceRecord(published, input));
  fs.mkdirSync(path.dirname(path.resolve(output)), { recursive: true });
  fs.writeFileSync(output, text);
  console.log(`wrote ${path.relative(process.cwd(), path.resolve(output))} (${text.length} bytes)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
