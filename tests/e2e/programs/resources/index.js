// A Pulumi program for the end-to-end suite: declares this package's resources from stack config, so that a
// test changes the program by changing config. `e2e:resources` is a list of
//   { kind, name, args, protect?, provider?, importId? }
// where `kind` is an exported class (`Kaas`, `KaasBackup`, `Registry`, `VolumeAttachment`) and any value of
// `args` may be `{ "$ref": "<resource>.<output>" }` (an output of a resource declared earlier) or
// `{ "$secret": <value> }` (a secret input). Every output of a resource is a stack output named
// `<resource>.<output>`, so that each keeps its own secret mark. `e2e:functions` (optional) is a list of
//   { output, call, args }
// where `call` is an exported function (`listKaas`...): the stack output `output` is its result for `args`.
//
// With `e2e:plugin` true, the same declarations are the provider plugin's, through its generated Node.js SDK
// (`@pulumi-vendor-container/sdk`, scripts/sdks.sh): each resource the SDK's class of `kind` (type
// `vendor-container:index:<kind>`), `provider` naming a resource of kind `Provider` declared before (the SDK's
// `Provider`, configured by its `args`), `importId` the `import` resource option, and each function the SDK's
// function of that name (the invoke `vendor-container:index:<call>`). With `e2e:fromDynamic` true as well, each resource takes the alias of its former dynamic type (docs/languages.md "Moving a
// stack to the plugin").
"use strict";
const pulumi = require("@pulumi/pulumi");
const vendor = require("pulumi-vendor-container");

const config = new pulumi.Config("e2e");
const declared = config.requireObject("resources");
const onPlugin = config.getBoolean("plugin") === true;
const fromDynamic = config.getBoolean("fromDynamic") === true;
const made = {};

function resolve(value) {
  if (Array.isArray(value)) return value.map(resolve);
  if (value === null || typeof value !== "object") return value;
  if (typeof value.$ref === "string") {
    const [resource, ...path] = value.$ref.split(".");
    if (!made[resource]) throw new Error(`$ref ${value.$ref}: no resource ${resource} declared before`);
    return path.reduce((output, key) => output[key], made[resource]);
  }
  if ("$secret" in value) return pulumi.secret(resolve(value.$secret));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
}

/** A resource of the dynamic path: the package's class of `kind`. */
function dynamicResource({ kind, name, args, protect }) {
  const Resource = vendor[kind];
  if (typeof Resource !== "function") throw new Error(`unknown kind ${kind}`);
  return new Resource(name, resolve(args), protect ? { protect: true } : undefined);
}

/** A resource of the plugin: the generated SDK's class of `kind`. */
function pluginResource({ kind, name, args, protect, provider, importId }) {
  const Resource = require("@pulumi-vendor-container/sdk")[kind];
  if (typeof Resource !== "function") throw new Error(`unknown kind ${kind}`);
  if (kind === "Provider") return new Resource(name, resolve(args));
  return new Resource(name, resolve(args), {
    protect: protect === true,
    provider: provider === undefined ? undefined : made[provider],
    aliases: fromDynamic ? [{ type: `pulumi-nodejs:dynamic/vendor-container:${kind}` }] : undefined,
    import: importId,
  });
}

for (const resourceDeclared of declared) {
  const { kind, name } = resourceDeclared;
  const resource = onPlugin ? pluginResource(resourceDeclared) : dynamicResource(resourceDeclared);
  made[name] = resource;
  if (kind === "Provider") continue;
  for (const [key, value] of Object.entries(resource)) {
    if (pulumi.Output.isInstance(value) && key !== "urn" && key !== "__provider")
      exports[`${name}.${key}`] = value;
  }
}

for (const { output, call, args } of config.getObject("functions") ?? []) {
  // The SDK's functions: `getKaasOutput` takes and gives outputs, as the package's own `getKaas` does.
  const fn = onPlugin ? require("@pulumi-vendor-container/sdk")[`${call}Output`] : vendor[call];
  if (typeof fn !== "function") throw new Error(`unknown function ${call}`);
  exports[output] = fn(resolve(args));
}
