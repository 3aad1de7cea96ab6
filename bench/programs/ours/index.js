// `bench:count` clusters of this package, each with the same arguments as the baseline's resources.
"use strict";
const pulumi = require("@pulumi/pulumi");
const { Kaas } = require("pulumi-vendor-container");
const { clusterArgs, names } = require("../inputs");

const config = new pulumi.Config("bench");
for (const name of names(config.requireNumber("count"))) new Kaas(name, clusterArgs(name));
