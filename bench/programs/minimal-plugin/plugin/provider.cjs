// The minimal provider plugin, the plugin path's baseline: `@pulumi/pulumi/provider`'s gRPC server with one
// resource type and no I/O. check returns the inputs, diff reports no change, create returns an id and the
// inputs, read returns the state, as the dynamic path's baseline (programs/baseline) does.
"use strict";
/* global require, process -- Node's CommonJS globals (the lint configuration declares none) */
/* eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS, as the programs: no build step. */
const { main } = require("@pulumi/pulumi/provider");

/** @type {import("@pulumi/pulumi/provider").Provider} */
const provider = {
  version: "1.0.0",
  async check(_urn, _olds, news) {
    return { inputs: news };
  },
  async diff() {
    return { changes: false };
  },
  async create(_urn, inputs) {
    return { id: inputs.name, outs: inputs };
  },
  async read(id, _urn, props) {
    return { id, props };
  },
  async update(_id, _urn, _olds, news) {
    return { outs: news };
  },
  async delete() {},
};

// The engine passes its address; `main` serves the protocol and prints the port, as the engine expects.
main(provider, process.argv.slice(2));
