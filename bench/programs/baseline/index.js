// The baseline: `bench:count` minimal dynamic resources with the same arguments as ours. Its provider does no
// I/O: check returns its inputs, create returns them after sleeping `bench:createSleepMs` (0 by default), read
// returns the state.
"use strict";
/* global setTimeout */
const pulumi = require("@pulumi/pulumi");
const { clusterArgs, names } = require("../inputs");

const config = new pulumi.Config("bench");
const createSleepMs = config.getNumber("createSleepMs") ?? 0;

const provider = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async create(inputs) {
    if (createSleepMs > 0) await new Promise((resolve) => setTimeout(resolve, createSleepMs));
    return { id: inputs.name, outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
  async delete() {},
};

class Minimal extends pulumi.dynamic.Resource {
  constructor(name, args) {
    super(provider, name, args, undefined, "bench", "Minimal");
  }
}

for (const name of names(config.requireNumber("count"))) new Minimal(name, clusterArgs(name));
