// A Pulumi program for the resource options suite (tests/e2e/options.e2e.test.ts): declares this package's
// resources from stack config, with resource options. `e2e:resources` is a list of
//   { kind, name, args?, opts?, get? }
// where `kind` is an exported class, `opts` its resource options as JSON (`customTimeouts`,
// `replaceOnChanges`, `import`...), and `get` ({ id, lookup? }) reads an existing object with the class's
// static `get` instead of declaring one. Every output of a resource is a stack output `<resource>.<output>`.
"use strict";
const pulumi = require("@pulumi/pulumi");
const vendor = require("pulumi-vendor-container");

const config = new pulumi.Config("e2e");

for (const { kind, name, args, opts, get } of config.requireObject("resources")) {
  const Resource = vendor[kind];
  if (typeof Resource !== "function") throw new Error(`unknown kind ${kind}`);
  const resource = get
    ? get.lookup
      ? Resource.get(name, get.id, get.lookup, opts)
      : Resource.get(name, get.id, opts)
    : new Resource(name, args, opts);
  for (const [key, value] of Object.entries(resource)) {
    if (pulumi.Output.isInstance(value) && key !== "urn" && key !== "__provider")
      exports[`${name}.${key}`] = value;
  }
}
