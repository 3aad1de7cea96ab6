// The baseline of the plugin path: `bench:count` resources of the minimal provider plugin in ./plugin, with the
// same arguments as programs/plugin's clusters.
"use strict";
const pulumi = require("@pulumi/pulumi");
const { clusterArgs, names } = require("../inputs");

const config = new pulumi.Config("bench");
for (const name of names(config.requireNumber("count")))
  new pulumi.CustomResource("minimal:index:Minimal", name, clusterArgs(name));
