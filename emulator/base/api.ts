/** The request and the answer of the API as handlers see them, whatever the kind. */

/** An HTTP answer of a handler: status, optional JSON body (of type `B`) and headers. */
export interface Reply<B = unknown> {
  status: number;
  body?: B;
  headers?: Record<string, string>;
}

/** A routed API request as the resource handlers see it, its body of type `B` and its query options of type `Q`. */
export interface ApiRequest<B = unknown, Q = unknown> {
  projectId: string;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  /**
   * The query parameters the endpoint's query schema declares, read as it types them (`query.ts`); the others,
   * and `api-version`, are not the handler's.
   */
  options: Q;
  /** Parsed JSON body, valid against the endpoint's body schema; undefined for an endpoint that takes none. */
  body: B;
  /** Absolute URL of the same list with another page (list envelope links). */
  pageUrl: (offset: number, limit: number) => string;
}

/** An API request as the dispatch routes it: its query still text, its body not yet checked (`routes.ts`). */
export interface RoutedRequest extends Omit<ApiRequest, "options"> {
  query: URLSearchParams;
}
