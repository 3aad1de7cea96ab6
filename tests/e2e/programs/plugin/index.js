// A Pulumi program on the provider plugin (`vendor-container:index:*` resources), declared from stack config as
// ../resources/index.js is: `e2e:resources` is a list of { kind, name, args, protect?, provider? }, where any value
// of `args` may be `{ "$ref": "<resource>.<output>" }` or `{ "$secret": <value> }`, and `provider` names a resource
// of kind `Provider` declared before (an explicit provider, configured by its `args`); every output is a stack
// output named `<resource>.<output>`. The resources are plain `pulumi.CustomResource`s whose output properties are the
// package schema's (dist/plugin/schema.json), as a generated SDK's classes are. `e2e:functions` (optional) is a
// list of { output, call, args }: the stack output `output` is the result of the invoke
// `vendor-container:index:<call>`.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const pulumi = require("@pulumi/pulumi");

const root = path.dirname(require.resolve("pulumi-vendor-container/package.json"));
const schema = JSON.parse(fs.readFileSync(path.join(root, "dist/plugin/schema.json"), "utf8"));

const config = new pulumi.Config("e2e");
const declared = config.requireObject("resources");
const made = {};

function resolve(value) {
  if (Array.isArray(value)) return value.map(resolve);
  if (value === null || typeof value !== "object") return value;
  if (typeof value.$ref === "string") {
    const [resource, ...keys] = value.$ref.split(".");
    if (!made[resource]) throw new Error(`$ref ${value.$ref}: no resource ${resource} declared before`);
    return keys.reduce((output, key) => output[key], made[resource]);
  }
  if ("$secret" in value) return pulumi.secret(resolve(value.$secret));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
}

// `e2e:fromDynamic` (optional, true): each resource was a dynamic resource of this package (../resources) and
// moves to the plugin under the alias of its former type, as README "Moving a stack to the plugin" says.
const fromDynamic = config.getBoolean("fromDynamic") === true;

for (const { kind, name, args, protect, provider } of declared) {
  if (kind === "Provider") {
    // An explicit provider: its own plugin process, configured by its arguments.
    made[name] = new pulumi.ProviderResource("vendor-container", name, resolve(args));
    continue;
  }
  const token = `vendor-container:index:${kind}`;
  const spec = schema.resources[token];
  if (!spec) throw new Error(`unknown kind ${kind}`);
  // Every output of the schema, unset, then the arguments: the engine fills in the outputs.
  const props = Object.fromEntries(Object.keys(spec.properties).map((key) => [key, undefined]));
  const secrets = Object.keys(spec.properties).filter((key) => spec.properties[key].secret);
  const resource = new pulumi.CustomResource(
    token,
    name,
    { ...props, ...resolve(args) },
    {
      protect: protect === true,
      additionalSecretOutputs: secrets,
      provider: provider === undefined ? undefined : made[provider],
      aliases: fromDynamic ? [{ type: `pulumi-nodejs:dynamic/vendor-container:${kind}` }] : undefined,
    },
  );
  made[name] = resource;
  for (const key of Object.keys(spec.properties)) exports[`${name}.${key}`] = resource[key];
  exports[`${name}.id`] = resource.id;
}

for (const { output, call, args } of config.getObject("functions") ?? []) {
  exports[output] = pulumi.runtime.invokeOutput(`vendor-container:index:${call}`, resolve(args ?? {}));
}
