/**
 * The serialized provider. Pulumi serializes the provider object of a dynamic resource into every
 * resource's state (dynamic-provider notes "Closure serialization"), and old state keeps calling whatever
 * was serialized. Two choices keep that small, secret-free and upgradeable:
 *
 * - Each kind's shell object is the whole `module.exports` of its own file (`sdk/shells/<kind>.ts`). The
 *   serializer writes a module export found under `node_modules` as `require("<package subpath>")`, so
 *   the state holds `require("pulumi-vendor-container/shells/Kaas")` instead of code, and a package
 *   upgrade changes what old state runs without a diff.
 * - Should the package be loaded from outside `node_modules` (a link), the object is serialized by value:
 *   it then references nothing but `require` and its own `kind`, so no validator, client, SDK object or
 *   credential is captured either way. Its methods load the implementation lazily from the stable subpath
 *   `pulumi-vendor-container/provider` in the provider process.
 *
 * Both subpaths are part of the package's public contract and must never move.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { KindName } from "../provider";

/** The thin dynamic provider of one kind. */
export interface ProviderShell extends pulumi.dynamic.ResourceProvider {
  readonly kind: KindName;
}

/** Builds the shell of `kind`. Called once per kind, by `sdk/shells/<kind>.ts`. */
export function createShell(kind: KindName): ProviderShell {
  return {
    kind,
    configure(req) {
      require("pulumi-vendor-container/provider").configure(req.config);
      return Promise.resolve();
    },
    check(olds, news) {
      return require("pulumi-vendor-container/provider").provider(this.kind).check(olds, news);
    },
    diff(id, olds, news) {
      return require("pulumi-vendor-container/provider").provider(this.kind).diff(id, olds, news);
    },
    create(inputs) {
      return require("pulumi-vendor-container/provider").provider(this.kind).create(inputs);
    },
    read(id, props) {
      return require("pulumi-vendor-container/provider").provider(this.kind).read(id, props);
    },
    update(id, olds, news) {
      return require("pulumi-vendor-container/provider").provider(this.kind).update(id, olds, news);
    },
    delete(id, props) {
      return require("pulumi-vendor-container/provider").provider(this.kind).delete(id, props);
    },
  } satisfies ProviderShell & ThisType<ProviderShell>;
}
