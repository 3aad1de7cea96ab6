// A Pulumi program for the end-to-end suite: declares this package's resources from stack config, so that a
// test changes the program by changing config. `e2e:resources` is a list of
//   { kind, name, args, protect? }
// where `kind` is an exported class (`Kaas`, `KaasBackup`, `Registry`, `VolumeAttachment`) and any value of
// `args` may be `{ "$ref": "<resource>.<output>" }` (an output of a resource declared earlier) or
// `{ "$secret": <value> }` (a secret input). Every output of a resource is a stack output named
// `<resource>.<output>`, so that each keeps its own secret mark. `e2e:functions` (optional) is a list of
//   { output, call, args }
// where `call` is an exported function (`listKaas`...): the stack output `output` is its result for `args`.
"use strict";
const pulumi = require("@pulumi/pulumi");
const vendor = require("pulumi-vendor-container");

const config = new pulumi.Config("e2e");
const declared = config.requireObject("resources");
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

for (const { kind, name, args, protect } of declared) {
  const Resource = vendor[kind];
  if (typeof Resource !== "function") throw new Error(`unknown kind ${kind}`);
  const resource = new Resource(name, resolve(args), protect ? { protect: true } : undefined);
  made[name] = resource;
  for (const [key, value] of Object.entries(resource)) {
    if (pulumi.Output.isInstance(value) && key !== "urn" && key !== "__provider")
      exports[`${name}.${key}`] = value;
  }
}

for (const { output, call, args } of config.getObject("functions") ?? []) {
  const fn = vendor[call];
  if (typeof fn !== "function") throw new Error(`unknown function ${call}`);
  exports[output] = fn(resolve(args));
}
