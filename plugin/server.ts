/**
 * The provider plugin's gRPC server: the engine's resource-provider protocol served from this package's one
 * implementation. Every kind's `check`, `diff`, `create`, `read`, `update` and `delete` are the dynamic path's
 * providers (provider/index.ts `provider`); what the plugin path adds is what the protocol gives and the
 * Node.js dynamic-provider host does not: the URN of every call (the stack and project a resource belongs to,
 * plugin/urn.ts), provider configuration (`vendor-container:*`, one plugin process per provider resource, so
 * one program can use several accounts), the package schema, invokes, and secrets marked by the provider.
 *
 * Written on the protocol's generated messages rather than `@pulumi/pulumi/provider`'s `main`, whose server
 * answers `Configure` without reading the configuration and does not let a provider mark outputs secret.
 */
import type * as grpcModule from "@grpc/grpc-js";
import type * as structModule from "google-protobuf/google/protobuf/struct_pb";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import type { KindName } from "../schemas/kinds";
import { messageOf } from "../schemas/typed";
import { setOutputSink } from "../rest/output";
import { changedArguments, configure, provider } from "../provider";
import { propertyDiffsOf } from "../provider/common/propertyDiff";
import { log, noteProgramScope } from "../provider/common/context";
import type { RunContext } from "../provider/common/kindProvider";
import { isPlainObject } from "../provider/common/typed";
import { configSource, pluginMessage } from "./config";
import { kindOfToken, PACKAGE, PLUGIN_KINDS } from "./kinds";
import { markSecrets, unwrapSecrets } from "./secrets";
import { parseUrn, scopeOfUrn } from "./urn";
import { holderIn, readState, stackOfRootUrn, trackedForCreate, type StateResource } from "./run";
import { invoke } from "./functions";
import { protocolModules } from "./protocol";

type Protocol = ReturnType<typeof protocolModules>;
type Bag = Record<string, unknown>;

/** What the server is told when it starts. */
export interface PluginOptions {
  /** The plugin's version, as `GetPluginInfo` reports it (the package's). */
  version: string;
  /** The package schema, as `GetSchema` returns it. */
  schema: () => string;
  /** The engine's address, which the engine passes as the plugin's first argument. */
  engineAddress?: string;
}

/**
 * `value` as a protobuf Struct holds it: no property set to `undefined` (left out), an array's `undefined` and
 * anything that is no JSON value as null.
 */
function structValue(value: unknown): structModule.JavaScriptValue {
  if (Array.isArray(value)) return value.map(structValue);
  if (isPlainObject(value)) return structFields(value);
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  return null;
}

/** The fields of a Struct: `bag` without its properties set to `undefined`, at any depth. */
function structFields(bag: Readonly<Record<string, unknown>>): Record<string, structModule.JavaScriptValue> {
  return Object.fromEntries(
    Object.entries(bag)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, structValue(v)]),
  );
}

/** A property of a thrown value, whatever was thrown. */
const thrownProperty = (error: unknown, key: string): unknown =>
  typeof error === "object" && error !== null ? Reflect.get(error, key) : undefined;

/**
 * The kind and creation scope of the resource `urn` names; throws for a type the plugin does not serve. The
 * URNs of `check`, `diff`, `create` and `update` are the ones the program registered, so they name the stack
 * the run is for, which they note (`noteProgramScope`); those of `read` and `delete` come from the state,
 * which may be a copy of another stack's (see plugin/run.ts).
 */
function resourceOf(urn: string, registered: boolean): { kind: KindName; scope: string } {
  const parts = parseUrn(urn);
  const kind = parts && kindOfToken(parts.type);
  if (!parts || !kind) throw new Error(`${PACKAGE}: unknown resource type in ${urn}; upgrade the plugin`);
  const scope = scopeOfUrn(urn) ?? "";
  if (registered) noteProgramScope(scope);
  return { kind, scope };
}

/** What the plugin learns of its run from the engine and the state (plugin/run.ts), each read once. */
function runOf(p: Protocol, engineAddress: string | undefined) {
  let root: Promise<string | undefined> | undefined;
  const states = new Map<string, Promise<StateResource[] | undefined>>();
  const engine =
    engineAddress === undefined
      ? undefined
      : new p.engineService.EngineClient(engineAddress, p.grpc.credentials.createInsecure());

  // The engine hides a plugin's console output: the package's lines go to the engine's log, as diagnostics.
  if (engine) {
    const severities = { info: p.engine.LogSeverity.INFO, warning: p.engine.LogSeverity.WARNING };
    setOutputSink((severity, line) => {
      const request = new p.engine.LogRequest()
        .setSeverity(severities[severity])
        .setMessage(pluginMessage(line));
      engine.log(request, () => undefined);
    });
  }

  /** `<project>/<stack>` of the stack resource the program registered, or undefined (no program, no engine). */
  const rootStack = (): Promise<string | undefined> => {
    if (engine === undefined) return Promise.resolve(undefined);
    root ??= new Promise((resolve) => {
      engine.getRootResource(
        new p.engine.GetRootResourceRequest(),
        new p.grpc.Metadata(),
        { deadline: Date.now() + 10_000 },
        (error, response) => {
          resolve(error ? undefined : stackOfRootUrn(response?.getUrn() ?? ""));
        },
      );
    });
    return root.then((stack) => {
      // Unset until the program registered its stack; asked again next time.
      if (stack === undefined) root = undefined;
      return stack;
    });
  };

  /** The state of `stack` (`<project>/<stack>`), read once. */
  const stateOf = (stack: string, subject: string): Promise<StateResource[] | undefined> => {
    let state = states.get(stack);
    if (!state) {
      state = readState(stack, (reason) =>
        log(subject, `the state of ${stack} could not be read: ${reason}`),
      );
      states.set(stack, state);
    }
    return state;
  };

  return {
    /** Notes the stack of the run before a call whose URN comes from the state (a delete). */
    async noteRunStack(): Promise<void> {
      const stack = await rootStack();
      if (stack !== undefined) noteProgramScope(`${stack}/`);
    },
    /** What a create, a delete or an import of the resource `urn` is told of the run. */
    contextOf(urn: string, subject: string): RunContext {
      const parts = parseUrn(urn);
      const stack = parts && `${parts.project}/${parts.stack}`;
      const state = () => (stack === undefined ? Promise.resolve(undefined) : stateOf(stack, subject));
      return {
        tracked: async () => trackedForCreate(await state(), urn, subject, stack),
        stateScope: scopeOfUrn(urn),
        trackerOf: async (id) => {
          const resources = await state();
          if (resources === undefined || parts === undefined) return undefined;
          const urn = holderIn(resources, parts.type, id);
          return urn === null ? null : { urn, scope: scopeOfUrn(urn) ?? urn };
        },
      };
    },
  };
}

/** The secrets a kind always keeps, plus those that came in secret. */
const secretsOf = (kind: KindName, received: readonly string[]): Set<string> =>
  new Set([...PLUGIN_KINDS[kind].secrets, ...received]);

/** What a create or an update is about: the kind, the plain old and new properties, what to keep secret. */
function changeOf(urn: string, olds: Bag, news: Bag) {
  const { kind } = resourceOf(urn, true);
  const before = unwrapSecrets(olds);
  const after = unwrapSecrets(news);
  return {
    kind,
    olds: before.plain,
    news: after.plain,
    secrets: secretsOf(kind, [...before.secrets, ...after.secrets]),
  };
}

/**
 * The outputs an update's preview shows: the new inputs, and of the computed outputs those no update changes
 * (`PLUGIN_KINDS[kind].stable`: the object's id and URI, its creation date) as the state has them. The others
 * are left out, so the engine shows them unknown: what the update makes of them is known only once it ran. A
 * resource that takes a cluster's `kaasId` then sees no change in the preview of the cluster's update.
 */
function previewOutputs(kind: KindName, olds: Bag, news: Bag): Bag {
  const kept = PLUGIN_KINDS[kind].stable.filter((name) => olds[name] !== undefined);
  return { ...news, ...Object.fromEntries(kept.map((name) => [name, olds[name]])) };
}

/** What every RPC of the server works with. */
interface RpcContext {
  p: Protocol;
  options: PluginOptions;
  run: ReturnType<typeof runOf>;
  toStruct: (bag: Readonly<Record<string, unknown>>) => structModule.Struct;
  fromStruct: (struct: structModule.Struct | undefined) => Bag;
}

/**
 * One RPC of the protocol: `serve` builds the response of a request; a thrown error becomes the call's error,
 * with the secrets `secretsOfFailure` says the request's partial outputs keep.
 */
interface Rpc<Req, Res> {
  // Methods, so that the table of every RPC (`RPCS`) holds each as an `Rpc<unknown, unknown>`.
  serve(request: Req, c: RpcContext): Promise<Res>;
  secretsOfFailure?(request: Req, c: RpcContext): Set<string>;
}

const rpc = <Req, Res>(
  serve: Rpc<Req, Res>["serve"],
  secretsOfFailure?: Rpc<Req, Res>["secretsOfFailure"],
): Rpc<Req, Res> => ({ serve, secretsOfFailure });

/** A gRPC error for `error`: an object the service accepted carries its id and outputs (partial failure). */
function failure(c: RpcContext, error: unknown, secrets?: Set<string>): Partial<grpcModule.StatusObject> {
  const { p } = c;
  const message = pluginMessage(messageOf(error));
  const metadata = new p.grpc.Metadata();
  const id = thrownProperty(error, "id");
  if (typeof id === "string" && id !== "") {
    const detail = new p.provider.ErrorResourceInitFailed();
    detail.setId(id);
    const thrown = thrownProperty(error, "properties");
    const properties = isPlainObject(thrown) ? thrown : {};
    const reasons = thrownProperty(error, "reasons");
    const { __provider: _shell, ...outputs } = properties;
    detail.setProperties(c.toStruct(markSecrets(outputs, secrets ?? [])));
    detail.setReasonsList(Array.isArray(reasons) ? reasons.map((r) => pluginMessage(String(r))) : [message]);
    const any = new p.any.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new p.status.Status();
    status.setCode(p.grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: p.grpc.status.UNKNOWN, details: message, metadata };
}

const createOf = (request: providerPb.CreateRequest, c: RpcContext) =>
  changeOf(request.getUrn(), {}, c.fromStruct(request.getProperties()));
const updateOf = (request: providerPb.UpdateRequest, c: RpcContext) =>
  changeOf(request.getUrn(), c.fromStruct(request.getOlds()), c.fromStruct(request.getNews()));

const getPluginInfo = rpc(async (_request: unknown, { p, options }) =>
  new p.plugin.PluginInfo().setVersion(options.version),
);

const getSchema = rpc(async (request: providerPb.GetSchemaRequest, { p, options }) => {
  if (request.getVersion() !== 0) throw new Error(`unsupported schema version ${request.getVersion()}`);
  return new p.provider.GetSchemaResponse().setSchema(options.schema());
});

const configureRpc = rpc(async (request: providerPb.ConfigureRequest, { p }) => {
  const variables = new Map(request.getVariablesMap().toArray());
  configure(configSource(variables));
  return (
    new p.provider.ConfigureResponse()
      .setAcceptsecrets(true)
      // Previews of creates and updates come here too, so that an update's preview keeps the outputs it
      // cannot change (`previewOutputs`) instead of showing every output unknown.
      .setSupportspreview(true)
      .setAcceptresources(false)
      .setAcceptoutputs(false)
  );
});

const check = rpc(async (request: providerPb.CheckRequest, { p, toStruct, fromStruct }) => {
  const { kind, scope } = resourceOf(request.getUrn(), true);
  const olds = unwrapSecrets(fromStruct(request.getOlds()));
  const news = unwrapSecrets(fromStruct(request.getNews()));
  // The dynamic path's classes send the scope as an input; here the URN says it.
  const result = await provider(kind).check(olds.plain, { ...news.plain, creationScope: scope });
  const response = new p.provider.CheckResponse().setInputs(
    toStruct(markSecrets(result.inputs, secretsOf(kind, news.secrets))),
  );
  response.setFailuresList(
    result.failures.map((f) =>
      new p.provider.CheckFailure().setProperty(f.property).setReason(pluginMessage(f.reason)),
    ),
  );
  return response;
});

const diff = rpc(async (request: providerPb.DiffRequest, { p, fromStruct }) => {
  const { kind, scope } = resourceOf(request.getUrn(), true);
  const olds = unwrapSecrets(fromStruct(request.getOlds())).plain;
  const news = { creationScope: scope, ...unwrapSecrets(fromStruct(request.getNews())).plain };
  const result = await provider(kind).diff(request.getId(), olds, news);
  const D = p.provider.DiffResponse.DiffChanges;
  const response = new p.provider.DiffResponse()
    .setChanges(result.changes ? D.DIFF_SOME : D.DIFF_NONE)
    .setReplacesList(result.replaces)
    .setDeletebeforereplace(result.deleteBeforeReplace === true)
    // The changed paths, always given: the engine matches `replaceOnChanges` against them (an option that
    // names no changed path replaces nothing), and `preview --diff` shows them instead of a raw comparison
    // of inputs that includes the bookkeeping ones (engine notes "diff on the provider plugin").
    .setHasdetaileddiff(true);
  if (!result.changes) return response;
  const paths = propertyDiffsOf(olds, news, changedArguments(kind, olds, news), PLUGIN_KINDS[kind].arguments);
  response.setDiffsList(paths.diffs);
  const detailed = response.getDetaileddiffMap();
  for (const [path, kind] of Object.entries(paths.detailedDiff))
    detailed.set(
      path,
      new p.provider.PropertyDiff().setKind(p.provider.PropertyDiff.Kind[kind]).setInputdiff(true),
    );
  return response;
});

const create = rpc(
  async (request: providerPb.CreateRequest, c: RpcContext) => {
    const { p, run, toStruct } = c;
    // A create's preview shows the inputs (the checked ones, secrets marked), as the engine itself does for
    // a plugin without previews: the request's own properties, not decoded and encoded again.
    if (request.getPreview())
      return new p.provider.CreateResponse().setId("").setProperties(request.getProperties());
    const { kind, news, secrets } = createOf(request, c);
    const urn = request.getUrn();
    const { id, outs } = await provider(kind).create(news, run.contextOf(urn, scopeOfUrn(urn) ?? urn));
    return new p.provider.CreateResponse().setId(id).setProperties(toStruct(markSecrets(outs, secrets)));
  },
  (request, c) => createOf(request, c).secrets,
);

const read = rpc(async (request: providerPb.ReadRequest, { p, run, toStruct, fromStruct }) => {
  const { kind, scope } = resourceOf(request.getUrn(), false);
  const props = unwrapSecrets(fromStruct(request.getProperties()));
  const inputs = unwrapSecrets(fromStruct(request.getInputs()));
  const secrets = secretsOf(kind, [...props.secrets, ...inputs.secrets]);
  // A read with no state is an import (`pulumi import`, the `import` option, a `get` without state): the id
  // is the import id, and the inputs are read from the object.
  const importing = Object.keys(props.plain).length === 0 && Object.keys(inputs.plain).length === 0;
  const result = importing
    ? await provider(kind).importObject(request.getId(), scope, run.contextOf(request.getUrn(), scope))
    : await provider(kind).read(request.getId(), props.plain);
  const response = new p.provider.ReadResponse()
    .setId(result.id)
    .setProperties(toStruct(markSecrets(result.props, secrets)));
  if (result.inputs !== undefined) response.setInputs(toStruct(markSecrets(result.inputs, secrets)));
  return response;
});

const update = rpc(
  async (request: providerPb.UpdateRequest, c: RpcContext) => {
    const { p, toStruct } = c;
    const { kind, olds, news, secrets } = updateOf(request, c);
    if (request.getPreview())
      return new p.provider.UpdateResponse().setProperties(
        toStruct(markSecrets(previewOutputs(kind, olds, news), secrets)),
      );
    const { outs } = await provider(kind).update(request.getId(), olds, news);
    return new p.provider.UpdateResponse().setProperties(toStruct(markSecrets(outs, secrets)));
  },
  (request, c) => updateOf(request, c).secrets,
);

const deleteRpc = rpc(async (request: providerPb.DeleteRequest, { p, run, fromStruct }) => {
  const urn = request.getUrn();
  const { kind, scope } = resourceOf(urn, false);
  await run.noteRunStack();
  const props = unwrapSecrets(fromStruct(request.getProperties())).plain;
  await provider(kind).delete(request.getId(), props, run.contextOf(urn, scope));
  return new p.empty.Empty();
});

const invokeRpc = rpc(async (request: providerPb.InvokeRequest, { p, toStruct, fromStruct }) => {
  const result = await invoke(request.getTok(), unwrapSecrets(fromStruct(request.getArgs())).plain);
  return new p.provider.InvokeResponse().setReturn(toStruct(result));
});

const nothing = rpc(async (_request: unknown, { p }) => new p.empty.Empty());

/** The protocol methods the server serves, by their name in the service definition. */
const RPCS = {
  getPluginInfo,
  getSchema,
  configure: configureRpc,
  check,
  diff,
  create,
  read,
  update,
  delete: deleteRpc,
  invoke: invokeRpc,
  cancel: nothing,
  attach: nothing,
} satisfies Record<string, Rpc<unknown, unknown>>;

/** The server's implementation of each protocol method of `RPCS`, as gRPC calls it. */
function handlers(p: Protocol, options: PluginOptions): grpcModule.UntypedServiceImplementation {
  const c: RpcContext = {
    p,
    options,
    run: runOf(p, options.engineAddress),
    toStruct: (bag) => p.struct.Struct.fromJavaScript(structFields(bag)),
    fromStruct: (struct) => (struct === undefined ? {} : struct.toJavaScript()),
  };
  const served =
    (method: Rpc<unknown, unknown>): grpcModule.handleUnaryCall<unknown, unknown> =>
    (call, callback) => {
      method.serve(call.request, c).then(
        (response) => callback(null, response),
        (error: unknown) => callback(failure(c, error, method.secretsOfFailure?.(call.request, c))),
      );
    };
  return Object.fromEntries(Object.entries(RPCS).map(([name, method]) => [name, served(method)]));
}

/**
 * Serves the protocol on a loopback port and prints the port, as the engine expects of a plugin (its first
 * line of output). The engine stops the process when it is done with it.
 */
export async function serve(options: PluginOptions): Promise<number> {
  const p = protocolModules();
  const server = new p.grpc.Server({
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
    "grpc.max_send_message_length": 400 * 1024 * 1024,
  });
  // Methods left out (construct, call, parameterize, the mappings...) answer UNIMPLEMENTED, which the engine
  // treats as "not supported" for every one of them.
  server.addService(p.service.ResourceProviderService, handlers(p, options));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", p.grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  process.stdout.write(`${port}\n`);
  return port;
}
