/**
 * The gRPC and protobuf modules the engine's protocol is written with, loaded from `@pulumi/pulumi`'s own
 * dependencies (the program's copy), so that the messages are the ones its generated code builds.
 *
 * The release's single-file plugin (scripts/release/plugin.mjs) has no `node_modules` to resolve from at run
 * time: its bundler replaces this module with one that requires the same ids statically, resolved from
 * `@pulumi/pulumi`'s folder as `createRequire` resolves them here.
 */
import { createRequire } from "node:module";
import type * as grpcModule from "@grpc/grpc-js";
import type * as structModule from "google-protobuf/google/protobuf/struct_pb";
import type * as emptyModule from "google-protobuf/google/protobuf/empty_pb";
import type * as anyModule from "google-protobuf/google/protobuf/any_pb";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import type * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as pluginPb from "@pulumi/pulumi/proto/plugin_pb";
import type * as statusPb from "@pulumi/pulumi/proto/status_pb";
import type * as enginePb from "@pulumi/pulumi/proto/engine_pb";
import type * as engineGrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import { requiredAs } from "../schemas/typed";

/** The protocol's modules, by role; scripts/release/plugin.mjs lists the same ids under the same keys. */
export function protocolModules() {
  const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
  // Each module is the one its `import type` above describes.
  const load = <T>(id: string): T => requiredAs<T>(() => pulumiRequire(id));
  return {
    grpc: load<typeof grpcModule>("@grpc/grpc-js"),
    struct: load<typeof structModule>("google-protobuf/google/protobuf/struct_pb"),
    empty: load<typeof emptyModule>("google-protobuf/google/protobuf/empty_pb"),
    any: load<typeof anyModule>("google-protobuf/google/protobuf/any_pb"),
    provider: load<typeof providerPb>("@pulumi/pulumi/proto/provider_pb"),
    service: load<typeof providerGrpc>("@pulumi/pulumi/proto/provider_grpc_pb"),
    plugin: load<typeof pluginPb>("@pulumi/pulumi/proto/plugin_pb"),
    status: load<typeof statusPb>("@pulumi/pulumi/proto/status_pb"),
    engine: load<typeof enginePb>("@pulumi/pulumi/proto/engine_pb"),
    engineService: load<typeof engineGrpc>("@pulumi/pulumi/proto/engine_grpc_pb"),
  };
}
