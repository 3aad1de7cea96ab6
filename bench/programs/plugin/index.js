// `bench:count` clusters of this package's provider plugin, each with the same arguments as programs/ours's,
// declared as a program in any language declares them: the type token and the arguments. The program reads no
// output, so it declares none (the engine records every output the plugin returns all the same).
"use strict";
const pulumi = require("@pulumi/pulumi");
const { clusterArgs, names } = require("../inputs");

const config = new pulumi.Config("bench");
for (const name of names(config.requireNumber("count")))
  new pulumi.CustomResource("vendor-container:index:Kaas", name, clusterArgs(name));
