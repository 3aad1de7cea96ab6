// @ts-check
/* global require, module -- CommonJS globals (the lint configuration declares none) */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: this file stands for a
   provider compiled to CommonJS, which is what Pulumi's closure serializer walks. */
/**
 * Baselines of row 1: dynamic providers written "the obvious way", as a Pulumi user would write one in
 * the program: the provider object's methods close over a compiled validator and a REST client built at
 * module load. Only ever serialized (`bench/children/serialize.cjs`), never run.
 *
 * - `obvious`: methods close over `validateSchema` (schemas/validate.ts, which owns the package's compiled
 *   ajv validators) and one module-level `VendorContainerClient`.
 * - `clientOnly`: the same without any validator: methods close over the module-level client only.
 * - `compiledValidator`: the closest variant that Pulumi can serialize at all: no client, and one
 *   validator compiled with a module-level `new Ajv()`; the methods call it directly.
 *
 * Settings are read from the environment at module load (VENDOR_BASE_URL, VENDOR_TOKEN), as a program that
 * builds its client up front does; the serialize child checks whether the token lands in the text.
 */
const Ajv = require("ajv").default;
const {
  validateSchema,
  KaasInsert,
  BackupInsert,
  RegistryInsert,
  VolumeAction,
} = require("../../dist/schemas");
const { VendorContainerClient } = require("../../dist/rest/client");
const { resolveSettings } = require("../../dist/rest/settings");
const { insertBody } = require("../../dist/provider/kaas/mapping");
const { backupInsertBody } = require("../../dist/provider/kaasBackup/mapping");
const { registryInsertBody } = require("../../dist/provider/registry/mapping");

const client = new VendorContainerClient(resolveSettings(() => undefined));
const ajv = new Ajv({ allErrors: true, strict: false });

/** @param {Record<string, any>} inputs */
const volumeBody = (inputs) => ({ volume: { uri: inputs.volumeUri } });

/** @param {{ path: string; message: string }[]} problems */
const failuresOf = (problems) => problems.map((p) => ({ property: p.path, reason: p.message }));

/**
 * One kind's wire mapping, schema and client calls.
 * @type {Record<string, { schema: any; body: (inputs: any) => any; create: (inputs: any) => Promise<any>;
 *   find: (id: string, props: any) => Promise<any>; remove: (id: string, props: any) => Promise<void> }>}
 */
const KINDS = {
  Kaas: {
    schema: KaasInsert,
    body: insertBody,
    create: (inputs) => client.call("createKaas", { projectId: inputs.projectId }, insertBody(inputs)),
    find: (id, props) => client.find("getKaas", { projectId: props.projectId, id }),
    remove: (id, props) => client.call("deleteKaas", { projectId: props.projectId, id }),
  },
  KaasBackup: {
    schema: BackupInsert,
    body: backupInsertBody,
    create: (inputs) =>
      client.call(
        "createBackup",
        { projectId: inputs.projectId, kaasId: inputs.kaasId },
        backupInsertBody(inputs),
      ),
    find: (id, props) => client.find("getBackup", { projectId: props.projectId, kaasId: props.kaasId, id }),
    remove: (id, props) =>
      client.call("deleteBackup", { projectId: props.projectId, kaasId: props.kaasId, id }),
  },
  Registry: {
    schema: RegistryInsert,
    body: registryInsertBody,
    create: (inputs) =>
      client.call("createRegistry", { projectId: inputs.projectId }, registryInsertBody(inputs)),
    find: (id, props) => client.find("getRegistry", { projectId: props.projectId, id }),
    remove: (id, props) => client.call("deleteRegistry", { projectId: props.projectId, id }),
  },
  VolumeAttachment: {
    schema: VolumeAction,
    body: volumeBody,
    create: async (inputs) => {
      await client.call(
        "attachVolume",
        { projectId: inputs.projectId, id: inputs.kaasId, pool: inputs.nodePoolName, node: inputs.nodeId },
        volumeBody(inputs),
      );
      return { metadata: { id: `${inputs.kaasId}:${inputs.volumeUri}` } };
    },
    find: (_id, props) => client.find("getKaas", { projectId: props.projectId, id: props.kaasId }),
    remove: (_id, props) =>
      client.call(
        "detachVolumeFromNode",
        { projectId: props.projectId, id: props.kaasId, pool: props.nodePoolName, node: props.nodeId },
        volumeBody(props),
      ),
  },
};

/** @param {string} kind */
function obvious(kind) {
  const k = KINDS[kind];
  // Compile now, as a provider that validates up front does.
  validateSchema(k.schema, {});
  return {
    async check(/** @type {any} */ _olds, /** @type {any} */ news) {
      return { inputs: news, failures: failuresOf(validateSchema(k.schema, k.body(news))) };
    },
    async diff(/** @type {string} */ _id, /** @type {any} */ olds, /** @type {any} */ news) {
      return { changes: JSON.stringify(k.body(olds)) !== JSON.stringify(k.body(news)) };
    },
    async create(/** @type {any} */ inputs) {
      const created = await k.create(inputs);
      const live = await client.waitUntilSettled(() => k.find(created.metadata.id, inputs), {
        what: kind,
        path: "",
        deadline: Date.now() + 40 * 60_000,
        afterMutation: true,
      });
      return { id: created.metadata.id, outs: { ...inputs, live } };
    },
    async read(/** @type {string} */ id, /** @type {any} */ props) {
      return { id, props: { ...props, live: await k.find(id, props) } };
    },
    async delete(/** @type {string} */ id, /** @type {any} */ props) {
      await k.remove(id, props);
    },
  };
}

/** @param {string} kind */
function clientOnly(kind) {
  const k = KINDS[kind];
  return {
    async create(/** @type {any} */ inputs) {
      const created = await k.create(inputs);
      return { id: created.metadata.id, outs: { ...inputs } };
    },
    async read(/** @type {string} */ id, /** @type {any} */ props) {
      return { id, props: { ...props, live: await k.find(id, props) } };
    },
    async delete(/** @type {string} */ id, /** @type {any} */ props) {
      await k.remove(id, props);
    },
  };
}

/** @param {string} kind */
function compiledValidator(kind) {
  const k = KINDS[kind];
  const validate = ajv.compile(k.schema);
  const body = k.body;
  return {
    async check(/** @type {any} */ _olds, /** @type {any} */ news) {
      const ok = validate(body(news));
      const failures = ok
        ? []
        : (validate.errors ?? []).map((e) => ({ property: e.instancePath, reason: e.message ?? "invalid" }));
      return { inputs: news, failures };
    },
    async diff(/** @type {string} */ _id, /** @type {any} */ olds, /** @type {any} */ news) {
      return { changes: JSON.stringify(body(olds)) !== JSON.stringify(body(news)) };
    },
  };
}

const KIND_NAMES = Object.keys(KINDS);

/** Every baseline provider object: variant -> kind -> provider. */
module.exports = {
  obvious: Object.fromEntries(KIND_NAMES.map((kind) => [kind, obvious(kind)])),
  clientOnly: Object.fromEntries(KIND_NAMES.map((kind) => [kind, clientOnly(kind)])),
  compiledValidator: Object.fromEntries(KIND_NAMES.map((kind) => [kind, compiledValidator(kind)])),
};
