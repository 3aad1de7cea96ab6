/**
 * The wire under the choke point (`rest/http.ts`): one request, one answer, over Node's own `http`/`https`
 * with keep-alive agents. It does nothing else on purpose - no retries, redirects, proxies, decompression or
 * body parsing - because the choke point decides all of that; a general HTTP library would carry those
 * features (and their memory) into every provider process for nothing.
 *
 * A failure rejects with a `TransportError` whose `code` is Node's socket error code (`ECONNREFUSED`,
 * `ECONNRESET`, ...) or `ETIMEDOUT` when the attempt's timeout ran out; the choke point reads the code to tell
 * a request that never left (safe to send again, even a create) from one whose fate is unknown.
 */
import http from "node:http";
import https from "node:https";

/** One request as it goes on the wire. */
export interface WireRequest {
  method: string;
  /** Absolute URL including the query. */
  url: string;
  headers: Readonly<Record<string, string>>;
  /** The body, already serialized. */
  body?: string;
  /** Time the whole attempt may take, from sending to the last byte of the answer. */
  timeoutMs: number;
}

/** The answer of one request, its body as text. */
export interface WireResponse {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** Sends one request; replaced in tests that record requests instead of sending them. */
export type Transport = (request: WireRequest) => Promise<WireResponse>;

/** A request that failed on the wire, with the code that says how far it got. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "TransportError";
  }
}

/**
 * A transport with its own keep-alive agents: one client serves every resource of a stack, and fresh TLS
 * handshakes for each poll would dominate its time.
 */
export function keepAliveTransport(): Transport {
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
  };
  return (request) =>
    new Promise<WireResponse>((resolve, reject) => {
      const url = new URL(request.url);
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        reject(new TransportError(`unsupported protocol ${url.protocol}`, "ERR_INVALID_PROTOCOL"));
        return;
      }
      let settled = false;
      const settle = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      const fail = (cause: Error & { code?: string }): void =>
        settle(() => reject(new TransportError(cause.message, cause.code ?? "ECONNRESET")));
      const headers: Record<string, string> = { ...request.headers };
      if (request.body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(request.body));
      const send = url.protocol === "https:" ? https.request : http.request;
      const req = send(url, { method: request.method, headers, agent: agents[url.protocol] }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", fail);
        // A connection dropped in the middle of the answer ends it without "end".
        res.on("close", () => {
          if (!res.complete)
            fail(new TransportError("the connection closed before the answer was complete", "ECONNRESET"));
        });
        res.on("end", () =>
          settle(() =>
            resolve({
              status: res.statusCode ?? 0,
              statusText: res.statusMessage ?? "",
              headers: res.headers,
              text: Buffer.concat(chunks).toString("utf8"),
            }),
          ),
        );
      });
      const timer = setTimeout(() => {
        fail(new TransportError(`timeout of ${request.timeoutMs}ms exceeded`, "ETIMEDOUT"));
        req.destroy();
      }, request.timeoutMs);
      req.on("error", fail);
      req.end(request.body);
    });
}
