/**
 * A tiny real HTTP server on 127.0.0.1, port 0, for unit tests of the REST layer. Each arriving request is
 * recorded and answered by the next step of a script: a status with headers and a body, a dropped
 * connection, or no answer at all. When the script runs out, the last step repeats.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** What arrived: method, URL (path and query), lower-case headers and the raw body. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One scripted answer. */
export type Step =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | "drop" // destroy the socket after reading the request: the client sees a reset connection
  | "hang"; // read the request and never answer: the client's timeout fires

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** JSON answer; an object body is serialised with `application/json`. */
export const json = (status: number, body?: unknown, headers: Record<string, string> = {}): Step => ({
  status,
  headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
  body,
});

/** Plain-text answer, as some gateways give for 5xx (`Bad Gateway`). */
export const text = (status: number, body: string): Step => ({
  status,
  headers: { "content-type": "text/plain" },
  body,
});

export async function startScriptedServer(
  script: Step[] | ((request: RecordedRequest, index: number) => Step),
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      const index = requests.length;
      requests.push(recorded);
      const step =
        typeof script === "function"
          ? script(recorded, index)
          : (script[Math.min(index, script.length - 1)] ?? { status: 500, body: "no scripted step" });
      if (step === "drop") {
        req.socket.destroy();
        return;
      }
      if (step === "hang") return;
      const payload =
        step.body === undefined ? "" : typeof step.body === "string" ? step.body : JSON.stringify(step.body);
      res.writeHead(step.status, step.headers ?? {});
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
