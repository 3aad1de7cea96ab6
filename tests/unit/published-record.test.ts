/**
 * The record of the published interface (schemas/published/interface.json) and the script that writes it
 * (scripts/published-interface.mjs): the script keeps the facts of a published description and drops its prose,
 * writes the same bytes for the same description, stops on a keyword it does not know, and the record in the
 * repository is in the form the script writes. The script is run as users run it, with Node.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PUBLISHED_RECORD_PATH, loadPublishedRecord, type Json } from "./support/published-interface";

const ROOT = path.resolve(__dirname, "../..");
const SCRIPT = path.join(ROOT, "scripts/published-interface.mjs");

/** A small published description with prose, extensions and facts at every level. */
const DESCRIPTION = {
  openapi: "3.0.1",
  info: { title: "Demo.Api", description: "Demo <b>HTTP</b> API", version: "2.0.0" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/things/{id}": {
      put: {
        tags: ["Things"],
        summary: "Update a thing",
        parameters: [
          { name: "id", in: "path", description: "the thing", required: true, schema: { type: "string" } },
          { name: "api-version", in: "query", schema: { type: "string", default: "1" } },
        ],
        requestBody: {
          description: "the new thing",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
        },
        responses: { "200": { description: "OK" }, "400": { description: "Bad Request" } },
        APIDOC: true,
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: "object",
        description: "A thing",
        required: ["size", "name"],
        properties: {
          size: { type: "integer", format: "int32", description: "how big", example: 3 },
          name: { type: "string", nullable: true, minLength: 1 },
          title: { type: "string", title: "a property named title" },
          colour: { enum: ["Red", "Blue"], type: "string", "x-vendor": 1 },
          parts: { type: "array", items: { $ref: "#/components/schemas/Part" }, nullable: true },
        },
        additionalProperties: false,
      },
      Part: { type: "object", additionalProperties: { type: "string" } },
    },
    securitySchemes: {
      Bearer: { type: "apiKey", description: "Insert JWT token", name: "Authorization", in: "header" },
    },
  },
  security: [{ Bearer: [] }],
};

/** The record the script writes for `DESCRIPTION`, as text. */
const RECORD = `${JSON.stringify(
  {
    components: {
      schemas: {
        Part: { additionalProperties: { type: "string" }, type: "object" },
        Thing: {
          additionalProperties: false,
          properties: {
            colour: { enum: ["Red", "Blue"], type: "string" },
            name: { minLength: 1, nullable: true, type: "string" },
            parts: { items: { $ref: "#/components/schemas/Part" }, nullable: true, type: "array" },
            size: { format: "int32", type: "integer" },
            title: { type: "string" },
          },
          required: ["name", "size"],
          type: "object",
        },
      },
      securitySchemes: { Bearer: { in: "header", name: "Authorization", type: "apiKey" } },
    },
    generatedBy: "node scripts/published-interface.mjs demo.openapi.json",
    info: { title: "Demo.Api", version: "2.0.0" },
    openapi: "3.0.1",
    paths: {
      "/things/{id}": {
        put: {
          parameters: [
            { in: "path", name: "id", required: true, schema: { type: "string" } },
            { in: "query", name: "api-version", required: false, schema: { default: "1", type: "string" } },
          ],
          requestBody: {
            content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
            required: false,
          },
          responses: { "200": {}, "400": {} },
        },
      },
    },
    security: [{ Bearer: [] }],
  },
  null,
  2,
)}\n`;

describe("scripts/published-interface.mjs", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "published-record-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const run = (description: unknown, out = path.join(dir, "record.json")) => {
    const input = path.join(dir, "demo.openapi.json");
    fs.writeFileSync(input, JSON.stringify(description));
    return spawnSync(process.execPath, [SCRIPT, input, out], { cwd: dir, encoding: "utf8" });
  };

  it("keeps the facts of a description and drops its prose, tags and extensions, keys sorted", () => {
    const result = run(DESCRIPTION);
    expect([result.status, result.stderr]).toEqual([0, ""]);
    expect(result.stdout).toBe(`wrote record.json (${RECORD.length} bytes)\n`);
    expect(fs.readFileSync(path.join(dir, "record.json"), "utf8")).toBe(RECORD);
  });

  it("writes the same bytes for the same description, whatever the order of its keys", () => {
    const reversed = JSON.parse(JSON.stringify(DESCRIPTION), (_key, value: unknown) =>
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).reverse())
        : value,
    ) as unknown;
    expect(run(reversed).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, "record.json"), "utf8")).toBe(RECORD);
  });

  it("stops on a schema keyword it does not know, naming where, and writes nothing", () => {
    const description = JSON.parse(JSON.stringify(DESCRIPTION)) as { components: { schemas: Json } };
    (description.components.schemas.Part as Json).discriminatorMapping = {};
    const result = run(description);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'Error: /components/schemas/Part/discriminatorMapping: unknown schema keyword "discriminatorMapping": a fact or prose?',
    );
    expect(fs.existsSync(path.join(dir, "record.json"))).toBe(false);
  });

  it("says how to run it when given no description", () => {
    const result = spawnSync(process.execPath, [SCRIPT], { cwd: dir, encoding: "utf8" });
    expect([result.status, result.stderr]).toEqual([
      2,
      "usage: node scripts/published-interface.mjs <openapi.json> [out]\n",
    ]);
  });
});

describe("the record in the repository", () => {
  it("is in the form the script writes (sorted keys, two-space JSON, final newline)", () => {
    const canonical = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { recordText } from ${JSON.stringify(SCRIPT)}; import fs from "node:fs";` +
          `process.stdout.write(recordText(JSON.parse(fs.readFileSync(${JSON.stringify(PUBLISHED_RECORD_PATH)}, "utf8"))));`,
      ],
      { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
    );
    expect(canonical === fs.readFileSync(PUBLISHED_RECORD_PATH, "utf8")).toBe(true);
  });

  it("holds the 12 published paths, all below the provider prefix, and the 221 schemas, with no prose", () => {
    const record = loadPublishedRecord();
    const prefix = "/projects/{projectId}/providers/Vendor.Container";
    expect(Object.keys(record.paths as Json).filter((route) => !route.startsWith(prefix))).toEqual([]);
    expect(Object.keys(record.paths as Json)).toHaveLength(12);
    const schemas = (record.components as Json).schemas as Json;
    expect(Object.keys(schemas)).toHaveLength(221);
    const text = JSON.stringify(record);
    for (const prose of ['"description"', '"summary"', '"example"', '"tags":["', '"APIDOC"'])
      expect([prose, text.includes(prose)]).toEqual([prose, false]);
    expect(record.generatedBy).toBe("node scripts/published-interface.mjs container-api.openapi.json");
  });

  it("is what the command of docs/tests.md writes, with the npm script that runs the script", () => {
    const page = fs.readFileSync(path.join(ROOT, "docs/tests.md"), "utf8");
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Json }
    ).scripts;
    expect(page).toContain(
      "npm run published-interface -- path/to/container-api.openapi.json   # writes schemas/published/interface.json",
    );
    expect(scripts["published-interface"]).toBe("node scripts/published-interface.mjs");
    expect(path.relative(ROOT, PUBLISHED_RECORD_PATH)).toBe("schemas/published/interface.json");
  });
});
