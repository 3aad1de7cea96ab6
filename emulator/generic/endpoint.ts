/**
 * What the handler of an endpoint of the table (`schemas/endpoints.ts`) receives and answers: its body passed the
 * endpoint's body schema (or the wider one of a wire reading, `base/wideBodies.ts`), its query options are those
 * of the endpoint's query schema, and it answers the type of the endpoint's response schema. The routes
 * (`transport/routes.ts`) check a request this way before its handler runs.
 */
import type { ListPage } from "../../schemas/common";
import type {
  BodyOf,
  ENDPOINTS,
  EndpointName,
  QueryOf,
  ResponseOf,
  SchemaType,
} from "../../schemas/endpoints";
import type { KubeconfigDownload } from "../../schemas/kaas";
import type { WireSchemaName } from "../../schemas";
import type { ApiRequest, Reply } from "../base/api";
import type { BaseDurations } from "../base/durations";
import type { WidenedBodies } from "../base/wideBodies";
import type { KindService } from "./service";
import type { RecordMap } from "./store";

type Endpoints = typeof ENDPOINTS;

/** The body the handler of endpoint N receives: the table's (`BodyOf`), or the wider one of a wire reading. */
export type RequestBodyOf<N extends EndpointName> = N extends keyof WidenedBodies
  ? WidenedBodies[N]
  : BodyOf<Endpoints[N]>;

/**
 * The body the handler of endpoint N answers: the type of its response schema (`ResponseOf`), or none. A list
 * answers a page whose items `projection` may cut to some top-level keys (`filter.ts`); the kubeconfig
 * download, which the table leaves as text the client reads raw, answers the service's `{name, content}`
 * (api-notes "KaaS").
 */
export type AnswerOf<N extends EndpointName> = Endpoints[N] extends {
  list: infer Item extends WireSchemaName;
}
  ? ListPage<Partial<SchemaType<Item>>>
  : Endpoints[N] extends { responseType: "text" }
    ? KubeconfigDownload
    : ResponseOf<Endpoints[N]>;

/**
 * The request the handler of endpoint N receives: its body passed the endpoint's body schema, and its query
 * options are those of the endpoint's query schema (`QueryOf`).
 */
export type EndpointRequest<N extends EndpointName> = ApiRequest<RequestBodyOf<N>, QueryOf<Endpoints[N]>>;

/** The reply of the handler of endpoint N. */
export type EndpointReply<N extends EndpointName> = Reply<AnswerOf<N>>;

/** The handler of endpoint N, over the records `M` and the durations `D` it reads (`Service`). */
export type ApiHandler<
  N extends EndpointName,
  M extends RecordMap,
  D extends BaseDurations = BaseDurations,
> = (svc: KindService<M, D>, req: EndpointRequest<N>) => EndpointReply<N>;
