/**
 * The validators the build generates (`scripts/validators.mjs`, ajv's standalone mode) into
 * `dist/validators/`: one per request and response schema of the endpoint table, named as the table names the
 * schema (`WIRE_SCHEMAS`, schemas/index.ts), each reporting exactly what the validator compiled at run time
 * reports, and a process that validates by those names loads none of ajv's compiler, no schema and no
 * TypeBox. `npm test` builds first; run alone, this file needs `npm run build`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import type { ValidateFunction } from "ajv";
import { insertBody } from "../../provider/kaas/mapping";
import { ENDPOINTS, validatorNames } from "../../schemas/endpoints";
import { WIRE_SCHEMAS } from "../../schemas";
import { problemsOf, runtimeAjv } from "../../schemas/validate";
import { checkedKaasInputsArb, pathsOf, responseFor, setAt } from "./support/kaas-fixtures";
import { LOADED_MODULES } from "./support/loaded-modules";

const ROOT = path.resolve(__dirname, "../..");
const GENERATED = path.join(ROOT, "dist/validators");

/** The generated validator named `name`. */
function generated(name: string): ValidateFunction {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module the build generates
  return require(path.join(GENERATED, `${name}.js`)) as ValidateFunction;
}

const NAMES = [...validatorNames()];

it("generates one validator per request and response schema of the table, and nothing else", () => {
  expect(fs.readdirSync(GENERATED).sort()).toEqual(
    [
      "BackupInsert",
      "BackupList",
      "BackupResponse",
      "BackupUpdate",
      "KaasInsert",
      "KaasList",
      "KaasResponse",
      "KaasUpdate",
      "NodePoolUpdate",
      "RegistryInsert",
      "RegistryList",
      "RegistryPasswordReset",
      "RegistryResponse",
      "RegistryUpdate",
      "VolumeAction",
    ].map((name) => `${name}.js`),
  );
  // Every body and response schema the table names, each once.
  const named = Object.values(ENDPOINTS).flatMap((e) => [
    ...("body" in e ? [e.body] : []),
    ...("response" in e ? [e.response] : []),
  ]);
  expect(new Set(NAMES)).toEqual(new Set(named));
  expect(NAMES.length).toBe(new Set(NAMES).size);
});

/** A value with one member replaced by an arbitrary JSON value, so that the problems lie deep inside. */
const mutated = <T>(value: T) =>
  fc
    .tuple(fc.constantFrom(...pathsOf(value)), fc.jsonValue())
    .map(([at, replacement]) => setAt(value, at, replacement));

describe.each(NAMES)("%s", (name) => {
  const compiled = runtimeAjv().compile(WIRE_SCHEMAS[name]);
  const fromBuild = generated(name);
  const agree = (value: unknown) => expect(problemsOf(fromBuild, value)).toEqual(problemsOf(compiled, value));

  it("reports what the compiled validator reports, for any JSON value", () => {
    fc.assert(fc.property(fc.jsonValue(), agree), { numRuns: 200 });
  });

  if (name === "KaasInsert") {
    it("reports what the compiled validator reports, for a cluster's create body and its mutations", () => {
      const bodies = checkedKaasInputsArb.map((inputs) => insertBody(inputs));
      fc.assert(
        fc.property(bodies, (body) => expect(problemsOf(fromBuild, body)).toEqual([])),
        {
          numRuns: 50,
        },
      );
      fc.assert(fc.property(bodies.chain(mutated), agree), { numRuns: 300 });
    });
  }
  if (name === "KaasResponse" || name === "KaasList") {
    it("reports what the compiled validator reports, for a cluster's answer and its mutations", () => {
      const answers = checkedKaasInputsArb.map((inputs) => {
        const answer = responseFor(inputs);
        return name === "KaasList" ? { values: [answer, answer] } : answer;
      });
      fc.assert(
        fc.property(answers, (answer) => expect(problemsOf(fromBuild, answer)).toEqual([])),
        {
          numRuns: 50,
        },
      );
      fc.assert(fc.property(answers.chain(mutated), agree), { numRuns: 300 });
    });
  }
});

it("validates every schema of the table by name in the built package, with no ajv compiler, schema or TypeBox", () => {
  const script = `
    const { validatorNames } = require("./dist/schemas/endpoints");
    const { validateSchema } = require("./dist/schemas/validate");
    let problems = 0;
    for (const name of validatorNames()) problems += validateSchema(name, { metadata: {} }).length;
    ${LOADED_MODULES}
    console.log(JSON.stringify({
      problems: problems > 0,
      ajv: loaded(/node_modules\\/ajv(-formats)?\\//),
      typebox: loaded(/node_modules\\/@sinclair\\//),
      schemas: loaded(/\\/dist\\/schemas\\//),
    }));
  `;
  const out = JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8" }));
  expect(out).toEqual({
    problems: true,
    ajv: ["ajv-formats/dist/formats.js", "ajv/dist/runtime/ucs2length.js"],
    typebox: [],
    schemas: [
      "dist/schemas/endpoints.js",
      "dist/schemas/generated.js",
      "dist/schemas/typed.js",
      "dist/schemas/validate.js",
    ],
  });
});
