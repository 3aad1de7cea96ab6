/**
 * Request bodies that a wire reading widens beyond the endpoint table's (config.ts `WireReadings`): the routes
 * check such a body against the wider schema when the reading says so (`transport/routes.ts`
 * `BODY_SCHEMA_READINGS`), and the endpoint's handler receives the wider type (`generic/endpoint.ts`).
 */
import { Type, type Static } from "@sinclair/typebox";
import { Strict, UriRef } from "../../schemas/common";
import { RegistryInsert } from "../../schemas/registry";

/**
 * The insert body under the reading `registryVpc=accepted`: the published body plus the `vpc{uri}` real
 * clients send (api-notes "Registry"). Under `rejected` the published body alone applies, so a `vpc` is
 * refused like any unknown property (spec §2). The routes check a create's body against one or the other.
 */
export const RegistryInsertWithVpc = Strict({
  metadata: RegistryInsert.properties.metadata,
  properties: Strict({ ...RegistryInsert.properties.properties.properties, vpc: Type.Optional(UriRef) }),
});
/** A registry insert body under the reading `registryVpc=accepted`. */
export type RegistryInsertWithVpc = Static<typeof RegistryInsertWithVpc>;

/** The bodies a wire reading widens, by endpoint name. */
export interface WidenedBodies {
  createRegistry: RegistryInsertWithVpc;
}
