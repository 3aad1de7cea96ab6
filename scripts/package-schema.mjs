#!/usr/bin/env node
// Part of `npm run build`, after tsc: writes the provider plugin's package schema, `dist/plugin/schema.json`, which
// `pulumi package get-schema` and the SDK generators read. Nothing of it is written by hand: every resource's
// properties come from its kind's argument schema and computed outputs (plugin/kinds.ts `PLUGIN_KINDS` and
// `PluginOutputs`), every function's from `PLUGIN_FUNCTIONS` (plugin/functions.ts), the configuration from the
// settings (rest/settings.ts `SETTING_SOURCES`). Types and descriptions are read from the TypeScript sources
// (the TSDoc of each argument, output and setting), what the build's JavaScript holds at run time (required,
// create-only, secret) from dist/: both are the one description the dynamic resources use.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { GO_MODULE, pluginDownloadUrl } from "./release/config.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const ANY = { $ref: "pulumi.json#/Any" };

/** The package schema of the sources in ROOT, with the build's dist/ (run-time facts). */
export function packageSchema() {
  const { PLUGIN_KINDS, PACKAGE, tokenOf } = require(path.join(ROOT, "dist/plugin/kinds.js"));
  const { pluginToken } = require(path.join(ROOT, "dist/provider/kinds.js"));
  const { PLUGIN_FUNCTIONS, functionToken } = require(path.join(ROOT, "dist/plugin/functions.js"));
  const { SETTING_SOURCES, CHECK_SETTING_SOURCES } = require(path.join(ROOT, "dist/rest/settings.js"));
  const { SECRET_SETTINGS, asPluginSetting } = require(path.join(ROOT, "dist/plugin/config.js"));
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));

  const files = ["plugin/kinds.ts", "plugin/functions.ts", "rest/settings.ts", "sdk/index.ts"].map((f) =>
    path.join(ROOT, f),
  );
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    strict: true,
    skipLibCheck: true,
    esModuleInterop: true,
    types: ["node"],
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const exported = (file, name) => {
    const source = program.getSourceFile(path.join(ROOT, file));
    const symbol = checker
      .getExportsOfModule(checker.getSymbolAtLocation(source))
      .find((s) => s.name === name);
    if (!symbol) throw new Error(`package-schema: ${file} exports no ${name}`);
    return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  };
  const docOf = (symbol) => ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  const typeOf = (symbol) => checker.getTypeOfSymbol(symbol);
  const declaredType = (symbol) => checker.getDeclaredTypeOfSymbol(symbol);

  const types = {};
  const pascal = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  /** The schema type of a TypeScript type; `hint` names an anonymous object type. */
  function spec(type, hint) {
    if (type.isUnion()) {
      const parts = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
      if (parts.length === 0) return ANY;
      if (parts.every((t) => t.flags & ts.TypeFlags.StringLiteral)) return { type: "string" };
      if (parts.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) return { type: "boolean" };
      if (parts.length === 1) return spec(parts[0], hint);
      return ANY;
    }
    if (type.flags & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral)) return { type: "string" };
    if (type.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral)) return { type: "number" };
    if (type.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { type: "boolean" };
    if (type.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) return ANY;
    if (checker.isArrayType(type))
      return { type: "array", items: spec(checker.getTypeArguments(type)[0], hint) };
    const index = checker.getIndexTypeOfType(type, ts.IndexKind.String);
    if (index && checker.getPropertiesOfType(type).length === 0)
      return { type: "object", additionalProperties: spec(index, hint) };
    if (type.flags & ts.TypeFlags.Object || type.isIntersection()) {
      const declared = type.aliasSymbol?.name ?? type.getSymbol()?.name;
      const named = declared && !declared.startsWith("__") ? declared : hint;
      const name = named.replace(/(.)Args$/, "$1");
      const token = pluginToken(name);
      if (!(token in types)) {
        types[token] = { type: "object" }; // before the properties: a type may refer to itself
        Object.assign(types[token], objectSpec(type, name));
      }
      return { $ref: `#/types/${token}` };
    }
    throw new Error(`package-schema: no schema type for ${checker.typeToString(type)} (${hint})`);
  }

  /** The properties and required names of an object type; `prefix` names its anonymous members' types. */
  /**
   * The members of `type` in their declaration order. The checker lists those of a mapped type (`Omit<...>`) in
   * the order it first met their names, which moves with whatever else the program checks first; here the
   * members of each file keep their order in it, and the files come in the order the checker lists them.
   */
  function membersOf(type) {
    const files = [];
    const placed = checker.getPropertiesOfType(type).map((member, index) => {
      const declaration = member.declarations?.[0];
      const file = declaration?.getSourceFile().fileName ?? "";
      if (!files.includes(file)) files.push(file);
      return { member, index, file: files.indexOf(file), pos: declaration?.pos ?? 0 };
    });
    placed.sort((a, b) => a.file - b.file || a.pos - b.pos || a.index - b.index);
    return placed.map(({ member }) => member);
  }

  function objectSpec(type, prefix) {
    const properties = {};
    const required = [];
    for (const member of membersOf(type)) {
      const memberType = typeOf(member);
      properties[member.name] = { ...spec(memberType, prefix + pascal(member.name)), ...described(member) };
      const optional = member.flags & ts.SymbolFlags.Optional;
      const nullable = memberType.isUnion() && memberType.types.some((t) => t.flags & ts.TypeFlags.Null);
      if (!optional && !nullable) required.push(member.name);
    }
    return { properties, ...(required.length > 0 ? { required } : {}) };
  }

  // On the plugin path the settings are the provider's configuration, `vendor-container:<name>`.
  const described = (symbol) => {
    const description = asPluginSetting(docOf(symbol));
    return description === "" ? {} : { description };
  };

  /** The TSDoc of a class (not of the interface merged with it, which documents its outputs). */
  const classDescription = (symbol) => {
    const declaration = symbol.declarations.find(ts.isClassDeclaration);
    const comment = declaration?.jsDoc?.at(-1)?.comment;
    const description = comment === undefined ? "" : ts.getTextOfJSDocComment(comment).trim();
    return description === "" ? {} : { description };
  };

  // ---- resources ----
  const kindsType = typeOf(exported("plugin/kinds.ts", "PLUGIN_KINDS"));
  const outputsType = declaredType(exported("plugin/kinds.ts", "PluginOutputs"));
  const resources = {};
  for (const kindSymbol of checker.getPropertiesOfType(kindsType)) {
    const kind = kindSymbol.name;
    const runtime = PLUGIN_KINDS[kind];
    const secrets = new Set(runtime.secrets);
    const argumentsType = typeOf(checker.getPropertyOfType(typeOf(kindSymbol), "arguments"));
    const inputProperties = {};
    // In the order of the kind's schema (a spread's members come first in the checker's list).
    for (const name of Object.keys(runtime.arguments)) {
      const argument = checker.getPropertyOfType(argumentsType, name);
      if (!argument) throw new Error(`package-schema: ${kind}'s argument ${name} has no type`);
      const valueSymbol = checker.getPropertyOfType(typeOf(argument), "value");
      const rule = runtime.arguments[name];
      inputProperties[name] = {
        ...spec(typeOf(valueSymbol), kind + pascal(name)),
        ...described(argument),
        ...(rule.change === "replace" ? { replaceOnChanges: true } : {}),
        ...(secrets.has(name) ? { secret: true } : {}),
      };
    }
    const requiredInputs = Object.keys(runtime.arguments).filter((name) => runtime.arguments[name].required);
    const computedType = typeOf(checker.getPropertyOfType(outputsType, kind));
    const computed = objectSpec(computedType, kind);
    for (const [name, property] of Object.entries(computed.properties))
      if (secrets.has(name)) property.secret = true;
    const missing = [...runtime.computed, ...runtime.stable].filter((name) => !(name in computed.properties));
    if (missing.length > 0) throw new Error(`package-schema: ${kind} outputs lack ${missing.join(", ")}`);
    const outputsOfInputs = Object.fromEntries(
      Object.entries(inputProperties).map(([name, { replaceOnChanges: _replace, ...property }]) => [
        name,
        property,
      ]),
    );
    resources[tokenOf(kind)] = {
      ...classDescription(exported("sdk/index.ts", kind)),
      inputProperties,
      requiredInputs,
      properties: { ...outputsOfInputs, ...computed.properties },
      required: [...requiredInputs, ...(computed.required ?? [])],
    };
  }

  // ---- functions ----
  const functionsType = typeOf(exported("plugin/functions.ts", "PLUGIN_FUNCTIONS"));
  const functions = {};
  for (const fnSymbol of checker.getPropertiesOfType(functionsType)) {
    const name = fnSymbol.name;
    const run = typeOf(checker.getPropertyOfType(typeOf(fnSymbol), "run"));
    const [signature] = run.getCallSignatures();
    const argsType = typeOf(signature.parameters[0]);
    const resultType = checker.getAwaitedType(signature.getReturnType());
    const inputs = objectSpec(argsType, pascal(name) + "Args");
    const outputs = objectSpec(resultType, pascal(name) + "Result");
    for (const secret of PLUGIN_FUNCTIONS[name].secrets) outputs.properties[secret].secret = true;
    functions[functionToken(name)] = {
      description: PLUGIN_FUNCTIONS[name].description,
      inputs: { type: "object", ...inputs },
      outputs: { type: "object", ...outputs },
    };
  }

  // ---- configuration: every setting, `vendor-container:<name>` ----
  const settingsType = declaredType(exported("rest/settings.ts", "VendorSettings"));
  const variables = {};
  const sources = { ...SETTING_SOURCES, ...CHECK_SETTING_SOURCES };
  for (const [setting, [configKey]] of Object.entries(sources)) {
    const key = configKey.slice("vendor:".length);
    const member = checker.getPropertyOfType(settingsType, setting);
    const description = member ? (described(member).description ?? "") : "";
    variables[key] = {
      // The engine passes configuration as text; the settings parse durations and JSON themselves.
      type: "string",
      ...(description ? { description } : { description: `The \`${PACKAGE}:${key}\` setting.` }),
      ...(SECRET_SETTINGS.includes(setting) ? { secret: true } : {}),
    };
  }

  return {
    name: PACKAGE,
    displayName: "Vendor.Container",
    version,
    description:
      "Managed Kubernetes clusters, backups, container registries and volume attachments of the Vendor.Container service.",
    keywords: ["pulumi", "kubernetes", "kaas", "container-registry", "category/cloud", "kind/native"],
    license: "Apache-2.0",
    // Where the engine downloads the plugin an SDK's resources ask for (scripts/release/config.mjs).
    pluginDownloadURL: pluginDownloadUrl(),
    config: { variables },
    provider: {
      description: "The provider of the Vendor.Container service: one account, project and endpoint.",
      inputProperties: variables,
    },
    types,
    resources,
    functions,
    // For the SDK generators (scripts/sdks.sh): `supportPack` makes each SDK a complete package of this version (the
    // Go SDK gets its go.mod); the Python SDK is a pyproject.toml package, which pip installs from its folder.
    meta: { supportPack: true },
    language: {
      nodejs: { packageName: "@pulumi-vendor-container/sdk", respectSchemaVersion: true },
      python: {
        packageName: "pulumi_vendor_container",
        respectSchemaVersion: true,
        pyproject: { enabled: true },
      },
      go: {
        importBasePath: `${GO_MODULE}/vendorcontainer`,
        respectSchemaVersion: true,
      },
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const schema = packageSchema();
  // Another file for the release (scripts/release/sdks.mjs), which must not rewrite the build's under the tests.
  const target = path.resolve(process.argv[2] ?? path.join(ROOT, "dist/plugin/schema.json"));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
  process.stderr.write(
    `package schema: ${Object.keys(schema.resources).length} resources, ${Object.keys(schema.functions).length} ` +
      `functions, ${Object.keys(schema.types).length} types written to ${path.relative(ROOT, target)}\n`,
  );
}
