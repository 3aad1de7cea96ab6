/**
 * The resource reference, docs/resources/: every committed page is the one scripts/resource-docs.mjs generates
 * from the built package schema (dist/plugin/schema.json), the kinds' checks and the examples, and each page
 * lists every input and output of its resource, every argument and result property of its function, and every
 * property of the types it links.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../support/command";

const run = promisify(execFile);
const DIR = path.join(ROOT, "docs/resources");
const FIX = "npm run docs:resources";

interface PropertySpec {
  description?: string;
}
interface ObjectSpec {
  properties?: Record<string, PropertySpec>;
}
interface PackageSchema {
  resources: Record<
    string,
    { inputProperties: Record<string, PropertySpec>; properties: Record<string, PropertySpec> }
  >;
  functions: Record<string, { inputs: ObjectSpec; outputs: ObjectSpec }>;
  types: Record<string, ObjectSpec>;
}

const schema = JSON.parse(
  fs.readFileSync(path.join(ROOT, "dist/plugin/schema.json"), "utf8"),
) as PackageSchema;
const nameOf = (token: string): string => token.slice(token.lastIndexOf(":") + 1);
const committed = (file: string): string => fs.readFileSync(path.join(DIR, file), "utf8");

/** The lines under `heading` (`## Inputs`, `### NodePool`) up to the next heading of its level or above. */
function section(page: string, heading: string): string[] {
  const lines = page.split("\n");
  const start = lines.indexOf(heading);
  if (start === -1) return [];
  const level = heading.indexOf(" ");
  const end = lines.findIndex((line, i) => i > start && new RegExp(`^#{1,${level}} `).test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

/** The names in the first column of the table under `heading`. */
const tableNames = (page: string, heading: string): string[] =>
  section(page, heading)
    .filter((line) => line.startsWith("| `"))
    .map((line) => /^\| `([^`]+)`/.exec(line)?.[1] ?? "");

/** The sections of the page's `## Types`, by type name. */
const typeHeadings = (page: string): string[] =>
  section(page, "## Types")
    .filter((line) => line.startsWith("### "))
    .map((line) => line.slice(4));

let generated: Record<string, string>;
beforeAll(async () => {
  const { stdout } = await run("node", ["scripts/resource-docs.mjs", "--json"], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  generated = JSON.parse(stdout) as Record<string, string>;
});

/** Where two texts first differ, as `line N`. */
function firstDifference(a: string, b: string): string {
  const [left, right] = [a.split("\n"), b.split("\n")];
  const line = left.findIndex((text, i) => text !== right[i]);
  return `line ${(line === -1 ? left.length : line) + 1}`;
}

it("commits every page as the built schema, the checks and the examples generate it", () => {
  const files = fs.readdirSync(DIR).filter((file) => file.endsWith(".md"));
  const problems = [
    ...Object.keys(generated)
      .filter((file) => !files.includes(file))
      .map((file) => `docs/resources/${file} is missing: run ${FIX}`),
    ...files
      .filter((file) => !(file in generated))
      .map((file) => `docs/resources/${file} is no page of the schema: run ${FIX}`),
    ...files
      .filter((file) => file in generated && committed(file) !== generated[file])
      .map(
        (file) =>
          `docs/resources/${file} is stale (${firstDifference(committed(file), generated[file])}): run ${FIX}`,
      ),
  ];
  expect(problems).toEqual([]);
});

describe.each(Object.keys(schema.resources))("the page of %s", (token) => {
  const resource = schema.resources[token];
  const page = () => committed(`${nameOf(token)}.md`);
  const inputs = Object.keys(resource.inputProperties);
  const computed = Object.keys(resource.properties).filter((name) => !inputs.includes(name));

  it("names its token", () => {
    expect(page()).toContain(`Token \`${token}\`.`);
  });

  it("lists every input, then every output besides the inputs, which are outputs too", () => {
    expect(tableNames(page(), "## Inputs")).toEqual(inputs);
    expect(tableNames(page(), "## Outputs")).toEqual(computed);
    expect(Object.keys(resource.properties).sort()).toEqual([...inputs, ...computed].sort());
  });

  it("lists every property of each type it links", () => {
    for (const type of typeHeadings(page()))
      expect({ type, properties: tableNames(page(), `### ${type}`) }).toEqual({
        type,
        properties: Object.keys(schema.types[`vendor-container:index:${type}`].properties ?? {}),
      });
    const linked = [...page().matchAll(/\]\(#([a-z0-9]+)\)/g)].map((m) => m[1]);
    const sections = typeHeadings(page()).map((type) => type.toLowerCase());
    expect([...new Set(linked)].filter((anchor) => !sections.includes(anchor))).toEqual([]);
  });

  it("shows the import command and an example in TypeScript, Python and YAML", () => {
    expect(page()).toMatch(new RegExp(`\`\`\`sh\\npulumi import ${token} <name> \\S+\\n\`\`\``));
    expect(["```ts", "```python", "```yaml"].filter((fence) => !page().includes(`${fence}\n`))).toEqual([]);
  });
});

describe.each(Object.keys(schema.functions))("the page of %s", (token) => {
  const fn = schema.functions[token];
  const page = () => committed(`${nameOf(token)}.md`);

  it("names its token and lists every argument and result property", () => {
    expect(page()).toContain(`Token \`${token}\`.`);
    expect(tableNames(page(), "## Arguments")).toEqual(Object.keys(fn.inputs.properties ?? {}));
    expect(tableNames(page(), "## Result")).toEqual(Object.keys(fn.outputs.properties ?? {}));
  });

  it("shows an example invoke in TypeScript, Python and YAML", () => {
    expect(page()).toContain(`function: ${token}\n`);
    expect(["```ts", "```python", "```yaml"].filter((fence) => !page().includes(`${fence}\n`))).toEqual([]);
  });
});

it("links every page from the index, and the index from docs/README.md and README.md", () => {
  const index = committed("README.md");
  const pages = [...Object.keys(schema.resources), ...Object.keys(schema.functions)].map(nameOf);
  expect(pages.filter((name) => !index.includes(`[${name}](${name}.md)`))).toEqual([]);
  expect(fs.readFileSync(path.join(ROOT, "docs/README.md"), "utf8")).toContain("(resources/README.md)");
  expect(fs.readFileSync(path.join(ROOT, "README.md"), "utf8")).toContain("(docs/resources/README.md)");
});
