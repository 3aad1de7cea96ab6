#!/usr/bin/env node
// `npm run docs:resources`: writes docs/resources/, a reference page per resource and function of the provider
// plugin's package schema (dist/plugin/schema.json, written by `npm run build`), and their index. Nothing on a
// page is written by hand: types, requirement, secrecy and replacement come from the schema; the refusals at
// preview from running each kind's own `check` (provider/index.ts `checkedArgumentsOf`) on the page's example,
// with the changes scripts/resource-docs/examples.mjs lists, and from the kind's declared limits; the import id
// from what the kind's import parses (its descriptor's `parents`, an attachment's id); the examples from one
// input object per resource and function (examples.mjs), written in each language's syntax. With `--json` it
// prints the pages as a JSON object (file name -> text) instead of writing them, which is how
// tests/docs/resource-docs.test.ts compares them with the committed ones.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import ts from "typescript";
import YAML from "yaml";
import { CHECK_CONTEXT, FUNCTION_EXAMPLES, RESOURCE_EXAMPLES } from "./resource-docs/examples.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
/** Where the pages go, relative to ROOT. */
const PAGES_DIR = "docs/resources";
/** The width the Python examples break at, as the TypeScript ones do (prettier's printWidth). */
const WIDTH = 100;

const dist = (file) => require(path.join(ROOT, "dist", file));

/**
 * The kinds' declared limits (the account's, from `vendor-container:limits`) that `check` holds a resource to:
 * the exported table and the source whose TSDoc says what each entry bounds.
 */
const DECLARED_LIMITS = {
  Kaas: { module: "provider/kaas/limits", name: "KAAS_DECLARED_LIMITS" },
};

/** The descriptor of each kind whose import goes through its description (`importTarget`, provider/common/frame.ts). */
const DESCRIPTORS = {
  Kaas: { module: "provider/kaas/descriptor", name: "KAAS" },
  KaasBackup: { module: "provider/kaasBackup/descriptor", name: "KAAS_BACKUP" },
  Registry: { module: "provider/registry/descriptor", name: "REGISTRY" },
};

// ---- text ----

const lastSegment = (token) => token.slice(token.lastIndexOf(":") + 1);
const camel = (text) => text.replace(/[-_]+(.)/g, (_, c) => c.toUpperCase());
/** A schema name as the Python SDK spells it (`kubernetesVersion` -> `kubernetes_version`). */
const snake = (name) =>
  name
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();

/** TSDoc as markdown: `{@link Kaas}` links the page of what it names, if there is one. */
function markdown(text, pages) {
  return text.replace(/\{@link\s+([^}\s]+)\s*\}/g, (_, name) =>
    pages.has(name) ? `[${name}](${name}.md)` : `\`${name}\``,
  );
}

/** Text for a table cell: one line, pipes escaped. */
const cell = (text, pages) =>
  markdown(text ?? "", pages)
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\|/g, "\\|");

/** The first sentence of a description, for the index. */
const firstSentence = (text, pages) => {
  const line = cell(text, pages);
  const end = line.search(/\.(\s|$)/);
  return end === -1 ? line : line.slice(0, end + 1);
};

const table = (head, rows) =>
  [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");

const yesNo = (flag) => (flag ? "yes" : "no");

// ---- types ----

const typeToken = (ref) => (ref.startsWith("#/types/") ? ref.slice("#/types/".length) : undefined);

/** The markdown of a property's type: a nested object type links its section on the page. */
function typeText(spec) {
  if (spec.$ref) {
    const token = typeToken(spec.$ref);
    if (!token) return "any";
    const name = lastSegment(token);
    return `[${name}](#${name.toLowerCase()})`;
  }
  if (spec.type === "array") return `list of ${typeText(spec.items)}`;
  if (spec.type === "object" && spec.additionalProperties)
    return `map of ${typeText(spec.additionalProperties)}`;
  return spec.type ?? "any";
}

/** The object types `specs` refer to, transitively, in the order they are first met. */
function referencedTypes(schema, specs) {
  const found = [];
  const visit = (spec) => {
    if (!spec) return;
    if (spec.$ref) {
      const token = typeToken(spec.$ref);
      if (!token || found.includes(token)) return;
      found.push(token);
      for (const property of Object.values(schema.types[token].properties ?? {})) visit(property);
    }
    visit(spec.items);
    visit(spec.additionalProperties);
  };
  specs.forEach(visit);
  return found;
}

function typeSections(schema, tokens, pages) {
  return tokens.map((token) => {
    const type = schema.types[token];
    const required = new Set(type.required ?? []);
    const rows = Object.entries(type.properties ?? {}).map(([name, spec]) => [
      `\`${name}\``,
      typeText(spec),
      yesNo(required.has(name)),
      cell(spec.description, pages),
    ]);
    return `### ${lastSegment(token)}\n\n${table(["Property", "Type", "Required", "Description"], rows)}`;
  });
}

// ---- values in each language ----

/** The spec of the property `name` of a value whose spec is `spec`: a schema type's property, or a map's values. */
function propertySpec(schema, spec, name) {
  const token = spec?.$ref && typeToken(spec.$ref);
  const properties = token ? schema.types[token].properties : spec?.properties;
  return properties?.[name] ?? spec?.additionalProperties;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A value as a TypeScript (and JavaScript) literal, on one line; prettier breaks it. */
function tsValue(value) {
  if (Array.isArray(value)) return `[${value.map(tsValue).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(
      ([key, item]) => `${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${tsValue(item)}`,
    );
    return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** A value as Python: an object of a schema type is its SDK's `...Args` class, keyword arguments in snake case. */
function pyValue(schema, value, spec, module, indent) {
  const breakList = (open, items, close) => {
    const inline = `${open}${items.join(", ")}${close}`;
    if (indent + inline.length <= WIDTH || items.length === 0) return inline;
    const pad = " ".repeat(indent + 4);
    return `${open}\n${items.map((item) => `${pad}${item},`).join("\n")}\n${" ".repeat(indent)}${close}`;
  };
  if (Array.isArray(value))
    return breakList(
      "[",
      value.map((item) => pyValue(schema, item, spec?.items, module, indent + 4)),
      "]",
    );
  if (value !== null && typeof value === "object") {
    const token = spec?.$ref && typeToken(spec.$ref);
    const entries = Object.entries(value);
    if (token) {
      const args = entries.map(
        ([key, item]) =>
          `${snake(key)}=${pyValue(schema, item, propertySpec(schema, spec, key), module, indent + 4)}`,
      );
      return breakList(`${module}.${lastSegment(token)}Args(`, args, ")");
    }
    const items = entries.map(
      ([key, item]) =>
        `${pyString(key)}: ${pyValue(schema, item, propertySpec(schema, spec, key), module, indent + 4)}`,
    );
    return breakList("{", items, "}");
  }
  if (value === true) return "True";
  if (value === false) return "False";
  if (value === null) return "None";
  if (typeof value === "string") return pyString(value);
  return JSON.stringify(value);
}

/** A Python string literal: in single quotes when the text has double quotes and no single ones. */
const pyString = (text) =>
  text.includes('"') && !text.includes("'") && !text.includes("\\")
    ? `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"')}'`
    : JSON.stringify(text);

/** Python keyword arguments, one a line when they do not fit on the call's line. */
function pyCall(callee, positional, keywords, indent = 0) {
  const parts = [...positional, ...keywords];
  const inline = `${callee}(${parts.join(", ")})`;
  if (indent + inline.length <= WIDTH) return inline;
  const pad = " ".repeat(indent + 4);
  return `${callee}(\n${parts.map((part) => `${pad}${part},`).join("\n")}\n${" ".repeat(indent)})`;
}

const fence = (language, code) => `\`\`\`${language}\n${code.trimEnd()}\n\`\`\``;

async function typescript(code) {
  return prettier.format(code, { parser: "typescript", printWidth: WIDTH, trailingComma: "all" });
}

/** The example of a resource in TypeScript (on the Node.js SDK), Python (on the Python SDK) and YAML. */
async function resourceExamples(schema, token, resource, example) {
  const kind = lastSegment(token);
  const variable = camel(example.resourceName);
  const { nodejs, python } = sdkNames(schema);
  const ts = await typescript(
    `import * as vendor from "${nodejs}";\n\n` +
      `const ${variable} = new vendor.${kind}(${JSON.stringify(example.resourceName)}, ${tsValue(example.args)});\n` +
      `export const ${example.output} = ${variable}.${example.output};\n`,
  );
  const keywords = Object.entries(example.args).map(
    ([name, value]) =>
      `${snake(name)}=${pyValue(schema, value, resource.inputProperties[name], python.alias, 4)}`,
  );
  const py = [
    "import pulumi",
    `import ${python.module} as ${python.alias}`,
    "",
    `${snake(variable)} = ${pyCall(`${python.alias}.${kind}`, [pyString(example.resourceName)], keywords)}`,
    `pulumi.export(${pyString(example.output)}, ${snake(variable)}.${snake(example.output)})`,
  ].join("\n");
  const yaml = YAML.stringify(
    {
      resources: { [example.resourceName]: { type: token, properties: example.args } },
      outputs: { [example.output]: `\${${example.resourceName}.${example.output}}` },
    },
    { lineWidth: 0 },
  );
  return examplesSection(ts, py, yaml);
}

/** The example invoke of a function in the three languages. */
async function functionExamples(schema, token, fn, example) {
  const name = lastSegment(token);
  const { nodejs, python } = sdkNames(schema);
  const ts = await typescript(
    `import * as vendor from "${nodejs}";\n\n` +
      `const ${example.variable} = vendor.${name}Output(${tsValue(example.args)});\n` +
      `export const ${example.output} = ${example.variable}.${example.output};\n`,
  );
  const keywords = Object.entries(example.args).map(
    ([arg, value]) => `${snake(arg)}=${pyValue(schema, value, fn.inputs.properties[arg], python.alias, 4)}`,
  );
  const py = [
    "import pulumi",
    `import ${python.module} as ${python.alias}`,
    "",
    `${example.variable} = ${pyCall(`${python.alias}.${snake(name)}_output`, [], keywords)}`,
    `pulumi.export(${pyString(example.output)}, ${example.variable}.${snake(example.output)})`,
  ].join("\n");
  const yaml = YAML.stringify(
    {
      variables: { [example.variable]: { "fn::invoke": { function: token, arguments: example.args } } },
      outputs: { [example.output]: `\${${example.variable}.${example.output}}` },
    },
    { lineWidth: 0 },
  );
  return examplesSection(ts, py, yaml);
}

const examplesSection = (ts, py, yaml) =>
  [
    "## Example",
    `### TypeScript\n\n${fence("ts", ts)}`,
    `### Python\n\n${fence("python", py)}`,
    `### YAML\n\n${fence("yaml", yaml)}`,
  ].join("\n\n");

/** The SDKs' package names, from the schema's language sections. */
function sdkNames(schema) {
  const module = schema.language.python.packageName;
  return {
    nodejs: schema.language.nodejs.packageName,
    python: { module, alias: schema.name.replace(/-/g, "_") },
  };
}

// ---- refusals at preview ----

/** The text of a failure as the plugin reports it (its settings under the plugin's names). */
function refusalText(failures, asPluginSetting, pages) {
  return failures
    .map(({ property, reason }) =>
      cell(`${property ? `\`${property}\`: ` : ""}${asPluginSetting(reason)}`, pages),
    )
    .join("; ");
}

const inline = (name, value) => `\`${name}: ${tsValue(value)}\``.replace(/\|/g, "\\|");

/** What a probe changes, as the table shows it. */
function probeText(probe, { limitsSetting, projectSetting }) {
  const parts = [];
  for (const [name, value] of Object.entries(probe.set ?? {})) {
    if (value === undefined) parts.push(`\`${name}\` not set`);
    else if (probe.olds && name in probe.olds)
      parts.push(`${inline(name, probe.olds[name])} to ${inline(name, value)}`);
    else parts.push(inline(name, value));
  }
  if (probe.noDefaultProject) parts.push(`\`projectId\` not set, no \`${projectSetting}\` configured`);
  if (probe.limits) parts.push(`\`${limitsSetting}\` \`${JSON.stringify(probe.limits)}\``);
  return parts.join(", ");
}

/**
 * The refusals section of a kind: its checks run on the example, every required input left out in turn, the
 * project neither set nor configured, then the example's own probes. Throws when the example is refused or a
 * probe is accepted, so that a page never shows a refusal the code no longer makes.
 */
function refusalsSection(kind, resource, example, runtime, pages) {
  const { checkedArgumentsOf, parseDeclaredLimits, asPluginSetting, limitsSetting } = runtime;
  const run = (probe) => {
    const news = { ...example.args, ...probe.set };
    for (const [name, value] of Object.entries(news)) if (value === undefined) delete news[name];
    const olds = probe.olds ? { ...example.args, ...probe.olds } : {};
    const context = {
      ...CHECK_CONTEXT,
      ...(probe.noDefaultProject ? { defaultProjectId: undefined } : {}),
      ...(probe.limits ? { limits: parseDeclaredLimits(JSON.stringify(probe.limits), limitsSetting) } : {}),
    };
    return checkedArgumentsOf(kind, olds, news, context).failures;
  };
  const accepted = run({});
  if (accepted.length > 0)
    throw new Error(`resource-docs: check refuses the example of ${kind}: ${JSON.stringify(accepted)}`);
  const probes = [
    ...resource.requiredInputs.map((name) => ({ set: { [name]: undefined } })),
    ...("projectId" in resource.inputProperties ? [{ noDefaultProject: true }] : []),
    ...(example.refusals ?? []),
  ];
  const rows = probes.map((probe) => {
    const failures = run(probe);
    if (failures.length === 0)
      throw new Error(`resource-docs: check accepts the refusal of ${kind} ${JSON.stringify(probe)}`);
    return [probeText(probe, runtime), refusalText(failures, asPluginSetting, pages)];
  });
  return [
    "## Refused at preview",
    "`check` refuses these before any request reaches the service, naming the property, every problem at once " +
      "(a value not known yet at preview is not judged). Each row is the example above with the inputs shown " +
      "changed, and what `check` answers.",
    table(["Inputs", "Refused"], rows),
    ...declaredLimitsSection(kind, runtime, pages),
  ].join("\n\n");
}

/** The TSDoc of each property of the exported object `name` in `file`, by property name. */
function propertyDocs(file, name) {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(path.join(ROOT, file), "utf8"),
    ts.ScriptTarget.ES2022,
    true,
  );
  const docs = {};
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === name) {
      let value = node.initializer;
      while (value && (ts.isSatisfiesExpression(value) || ts.isAsExpression(value))) value = value.expression;
      for (const property of value.properties) {
        const comment = ts.getJSDocCommentsAndTags(property).find(ts.isJSDoc)?.comment;
        docs[property.name.getText(source)] = comment === undefined ? "" : ts.getTextOfJSDocComment(comment);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return docs;
}

function declaredLimitsSection(kind, runtime, pages) {
  const declared = DECLARED_LIMITS[kind];
  if (!declared) return [];
  const rules = dist(`${declared.module}.js`)[declared.name];
  const docs = propertyDocs(`${declared.module}.ts`, declared.name);
  const key = (k) => (k ? `\`${k}\`` : "");
  const rows = Object.entries(rules).map(([name, rule]) => [
    cell(docs[name], pages),
    key(rule.min),
    key(rule.max),
  ]);
  return [
    `### Declared limits\n\nWith \`${runtime.limitsSetting}\` set to a JSON object of the account's limits ` +
      "by name, `check` also holds the resource to the ones it declares:",
    table(["Bounded", "Minimum", "Maximum"], rows),
  ];
}

// ---- import ids ----

function importIdForm(kind, runtime) {
  const project = "[<projectId>/]";
  if (kind === "VolumeAttachment") return project + runtime.attachmentId("<kaasId>", "<volumeUri>");
  const descriptor = DESCRIPTORS[kind];
  if (!descriptor) throw new Error(`resource-docs: no import id form for ${kind}`);
  const { parents } = dist(`${descriptor.module}.js`)[descriptor.name];
  return project + [...parents, runtime.TAGGED_KINDS[kind].id].map((part) => `<${part}>`).join("/");
}

// ---- pages ----

function propertyRows(properties, required, pages, { replaces }) {
  return Object.entries(properties).map(([name, spec]) => [
    `\`${name}\``,
    typeText(spec),
    yesNo(required.has(name)),
    yesNo(spec.secret === true),
    ...(replaces ? [yesNo(spec.replaceOnChanges === true)] : []),
    cell(spec.description, pages),
  ]);
}

async function resourcePage(schema, token, resource, runtime, pages) {
  const kind = lastSegment(token);
  const example = RESOURCE_EXAMPLES[kind];
  if (!example)
    throw new Error(`resource-docs: scripts/resource-docs/examples.mjs has no example of ${kind}`);
  const dynamic =
    typeof runtime.sdk[kind] === "function"
      ? ` TypeScript programs can also use the dynamic resource \`${kind}\` of \`${runtime.packageName}\`, ` +
        `with the same arguments (\`import { ${kind} } from "${runtime.packageName}"\`).`
      : "";
  const computed = Object.fromEntries(
    Object.entries(resource.properties).filter(([name]) => !(name in resource.inputProperties)),
  );
  const importId = importIdForm(kind, runtime);
  const types = referencedTypes(
    schema,
    Object.values(resource.properties).concat(Object.values(resource.inputProperties)),
  );
  return [
    `# ${kind}`,
    `Token \`${token}\`.${dynamic}`,
    markdown(resource.description ?? "", pages),
    await resourceExamples(schema, token, resource, example),
    "## Inputs",
    table(
      ["Input", "Type", "Required", "Secret", "Replaces on change", "Description"],
      propertyRows(resource.inputProperties, new Set(resource.requiredInputs), pages, { replaces: true }),
    ),
    "## Outputs",
    "Every input is an output too, under the same name; besides them:",
    table(
      ["Output", "Type", "Always set", "Secret", "Description"],
      propertyRows(computed, new Set(resource.required), pages, { replaces: false }),
    ),
    ...(types.length > 0 ? ["## Types", ...typeSections(schema, types, pages)] : []),
    refusalsSection(kind, resource, example, runtime, pages),
    "## Import",
    `The import id is \`${importId}\`; the project may be left out when \`${runtime.projectSetting}\` is set ` +
      `(see [Importing existing objects](../languages.md#importing-existing-objects)):`,
    fence("sh", `pulumi import ${token} <name> ${importId}`),
  ].join("\n\n");
}

async function functionPage(schema, token, fn, pages) {
  const name = lastSegment(token);
  const example = FUNCTION_EXAMPLES[name];
  if (!example)
    throw new Error(`resource-docs: scripts/resource-docs/examples.mjs has no example of ${name}`);
  const inputs = fn.inputs.properties ?? {};
  const outputs = fn.outputs.properties ?? {};
  const types = referencedTypes(schema, [...Object.values(inputs), ...Object.values(outputs)]);
  const rows = (properties, required, withSecret) =>
    Object.entries(properties).map(([property, spec]) => [
      `\`${property}\``,
      typeText(spec),
      yesNo(required.has(property)),
      ...(withSecret ? [yesNo(spec.secret === true)] : []),
      cell(spec.description, pages),
    ]);
  return [
    `# ${name}`,
    `Token \`${token}\`. ${markdown(fn.description ?? "", pages)}`,
    await functionExamples(schema, token, fn, example),
    "## Arguments",
    table(
      ["Argument", "Type", "Required", "Description"],
      rows(inputs, new Set(fn.inputs.required ?? []), false),
    ),
    "## Result",
    table(
      ["Property", "Type", "Always set", "Secret", "Description"],
      rows(outputs, new Set(fn.outputs.required ?? []), true),
    ),
    ...(types.length > 0 ? ["## Types", ...typeSections(schema, types, pages)] : []),
  ].join("\n\n");
}

function indexPage(schema, runtime, pages) {
  const resources = Object.entries(schema.resources).map(([token, resource]) => {
    const kind = lastSegment(token);
    return [`[${kind}](${kind}.md)`, `\`${token}\``, firstSentence(resource.description, pages)];
  });
  const functions = Object.entries(schema.functions).map(([token, fn]) => {
    const name = lastSegment(token);
    return [`[${name}](${name}.md)`, `\`${token}\``, firstSentence(fn.description, pages)];
  });
  return [
    "# Resource reference",
    `A page per resource and function of the provider plugin \`${schema.name}\`, from its package schema ` +
      "(`dist/plugin/schema.json`): inputs and outputs, what `check` refuses at preview, the import id, and an " +
      "example in TypeScript, Python and YAML, on the SDKs generated from the schema (" +
      "[Every language: the provider plugin](../languages.md#every-language-the-provider-plugin)). The " +
      "configuration is in " +
      "[Configuration](../configuration.md#configuration) (on the plugin, `vendor-container:<setting>`).",
    "The pages are generated, not written: `npm run docs:resources` (scripts/resource-docs.mjs) writes them " +
      "from the built schema, the kinds' checks and the examples of scripts/resource-docs/examples.mjs, and " +
      "tests/docs/resource-docs.test.ts fails when a committed page differs; " +
      "tests/e2e/resource-docs-sdks.e2e.test.ts holds the TypeScript and Python examples to the SDKs' names.",
    "## Resources",
    table(["Resource", "Token", "Description"], resources),
    "## Functions",
    table(["Function", "Token", "Description"], functions),
  ].join("\n\n");
}

/** Every page, by file name within docs/resources: the text the committed page must have. */
export async function resourceDocs() {
  const schemaFile = path.join(ROOT, "dist/plugin/schema.json");
  if (!fs.existsSync(schemaFile))
    throw new Error("resource-docs: no dist/plugin/schema.json: run `npm run build`");
  const schema = JSON.parse(fs.readFileSync(schemaFile, "utf8"));
  const { asPluginSetting } = dist("plugin/config.js");
  const { CHECK_SETTING_SOURCES, SETTING_SOURCES } = dist("rest/settings.js");
  const limitsSetting = asPluginSetting(CHECK_SETTING_SOURCES.limits[0]);
  const runtime = {
    checkedArgumentsOf: dist("provider/index.js").checkedArgumentsOf,
    parseDeclaredLimits: dist("provider/common/limits.js").parseDeclaredLimits,
    attachmentId: dist("provider/volumeAttachment/types.js").attachmentId,
    TAGGED_KINDS: dist("schemas/kinds.js").TAGGED_KINDS,
    sdk: dist("sdk/index.js"),
    packageName: JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).name,
    asPluginSetting,
    limitsSetting,
    projectSetting: asPluginSetting(SETTING_SOURCES.projectId[0]),
  };
  const pages = new Set(
    [...Object.keys(schema.resources), ...Object.keys(schema.functions)].map(lastSegment),
  );
  const files = { "README.md": indexPage(schema, runtime, pages) };
  for (const [token, resource] of Object.entries(schema.resources))
    files[`${lastSegment(token)}.md`] = await resourcePage(schema, token, resource, runtime, pages);
  for (const [token, fn] of Object.entries(schema.functions))
    files[`${lastSegment(token)}.md`] = await functionPage(schema, token, fn, pages);
  return Object.fromEntries(Object.entries(files).map(([file, text]) => [file, `${text.trimEnd()}\n`]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await resourceDocs();
  if (process.argv.includes("--json")) {
    process.stdout.write(JSON.stringify(files));
  } else {
    const dir = path.join(ROOT, PAGES_DIR);
    fs.mkdirSync(dir, { recursive: true });
    // A page of a resource or function the schema no longer has goes too.
    for (const file of fs.readdirSync(dir))
      if (file.endsWith(".md") && !(file in files)) fs.rmSync(path.join(dir, file));
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
    process.stderr.write(`resource docs: ${Object.keys(files).length} pages written to ${PAGES_DIR}/\n`);
  }
}
