/**
 * The wire under the choke point (`rest/transport.ts`) against a real server on loopback: what it sends, what
 * it answers, how each way of failing is coded (the choke point tells a request that never left from one whose
 * fate is unknown by that code), and that one transport keeps its connections open between requests.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { keepAliveTransport, TransportError, type WireRequest } from "../../rest/transport";

/** A server whose handler is the test's, counting the connections it accepted. */
async function serve(
  handler: http.RequestListener,
): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  const sockets = new Set<Socket>();
  let connections = 0;
  server.on("connection", (socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const request = (url: string, extra: Partial<WireRequest> = {}): WireRequest => ({
  method: "GET",
  url,
  headers: { Accept: "application/json" },
  timeoutMs: 2_000,
  ...extra,
});

/** The rejection of `promise`, which must reject. */
async function rejection(promise: Promise<unknown>): Promise<TransportError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TransportError);
    return error as TransportError;
  }
  throw new Error("the request succeeded");
}

it("sends the method, the URL with its query, the headers and the body with its length; answers status, headers and text", async () => {
  let seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string } | undefined;
  const server = await serve((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      seen = {
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      res.writeHead(201, "Created", { "content-type": "application/json", "retry-after": "3" });
      res.end('{"metadata":{"id":"k-1"},"name":"é"}');
    });
  });
  try {
    const body = JSON.stringify({ name: "prod-é" });
    const answer = await keepAliveTransport()(
      request(`${server.url}/projects/p/kaas?api-version=1&filter=a+eq+%27b%27`, {
        method: "POST",
        body,
        headers: { "Content-Type": "application/json", Authorization: "Bearer t" },
      }),
    );
    expect(seen).toEqual({
      method: "POST",
      url: "/projects/p/kaas?api-version=1&filter=a+eq+%27b%27",
      headers: expect.objectContaining({
        "content-type": "application/json",
        authorization: "Bearer t",
        "content-length": String(Buffer.byteLength(body)),
      }),
      body,
    });
    expect(answer).toEqual({
      status: 201,
      statusText: "Created",
      headers: expect.objectContaining({ "retry-after": "3" }),
      text: '{"metadata":{"id":"k-1"},"name":"é"}',
    });
  } finally {
    await server.close();
  }
});

it("keeps one connection open for the requests that follow each other", async () => {
  const server = await serve((_req, res) => res.end("{}"));
  try {
    const transport = keepAliveTransport();
    for (let i = 0; i < 5; i++) expect((await transport(request(server.url))).text).toBe("{}");
    expect(server.connections()).toBe(1);
  } finally {
    await server.close();
  }
});

it("codes a connection refused ECONNREFUSED: the request never left", async () => {
  const server = await serve((_req, res) => res.end());
  const url = server.url;
  await server.close();
  const error = await rejection(keepAliveTransport()(request(url)));
  expect(error.code).toBe("ECONNREFUSED");
});

it.each<[string, http.RequestListener]>([
  ["before the answer", (req) => req.socket.destroy()],
  [
    "in the middle of the answer (never a short answer)",
    (req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"metadata":');
      setTimeout(() => req.socket.destroy(), 20);
    },
  ],
])("codes a connection dropped %s ECONNRESET", async (_when, handler) => {
  const server = await serve(handler);
  try {
    const error = await rejection(keepAliveTransport()(request(server.url)));
    expect(error.code).toBe("ECONNRESET");
  } finally {
    await server.close();
  }
});

it("codes an attempt that outlives its timeout ETIMEDOUT, also when the answer has begun", async () => {
  const server = await serve((req, res) => {
    if (req.url === "/slow-body") {
      res.writeHead(200, { "content-length": "10" });
      res.write("{");
    }
  });
  try {
    const transport = keepAliveTransport();
    for (const path of ["/silent", "/slow-body"]) {
      const started = Date.now();
      const error = await rejection(transport(request(server.url + path, { timeoutMs: 150 })));
      expect([error.code, error.message]).toEqual(["ETIMEDOUT", "timeout of 150ms exceeded"]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    }
  } finally {
    await server.close();
  }
});

it("refuses a URL that is neither http nor https before sending anything", async () => {
  const error = await rejection(keepAliveTransport()(request("ftp://127.0.0.1/x")));
  expect([error.code, error.message]).toEqual(["ERR_INVALID_PROTOCOL", "unsupported protocol ftp:"]);
});
