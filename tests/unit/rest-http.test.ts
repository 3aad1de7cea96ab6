/**
 * The HTTP choke point `HttpClient.request` against a real loopback server with scripted answers. Time is
 * fake (`sleep` records the delay and advances `now`), randomness is fixed at 0.5, so every retry schedule
 * is asserted exactly: with base 100 ms and ceiling 1000 ms, retry n waits 0.5 * min(1000, 100 * 2^n).
 */
import { KaasInsert, KaasResponse } from "../../schemas";
import { StaticTokenSource, type TokenSource } from "../../rest/auth";
import { isNotFound, isVendorApiError } from "../../rest/errors";
import { HttpClient, type HttpSettings, type RequestSpec } from "../../rest/http";
import { resolveSettings } from "../../rest/settings";
import { fakeTime, scriptedRandom } from "./support/fake-time";
import { json, startScriptedServer, text, type ScriptedServer, type Step } from "./support/scripted-server";
import { ALL_SECRETS, API_TOKEN, ErrorLog } from "./support/secrets";

const log = new ErrorLog();
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: Step[]): Promise<ScriptedServer> {
  const server = await startScriptedServer(script);
  servers.push(server);
  return server;
}

/** Retry lines of the current test; `allRetryLines` keeps those of the whole file for the secrets check. */
const retryLines: string[] = [];
const allRetryLines: string[] = [];

function clientFor(server: ScriptedServer, overrides: Partial<HttpSettings> = {}) {
  const time = fakeTime();
  const settings = resolveSettings(() => undefined, { VENDOR_BASE_URL: server.url, VENDOR_TOKEN: API_TOKEN });
  const client = new HttpClient({
    baseUrl: settings.baseUrl,
    apiVersion: settings.apiVersion,
    providerNamespace: settings.providerNamespace,
    tokenSource: new StaticTokenSource(`${API_TOKEN}\n`),
    requestTimeoutMs: 2_000,
    callDeadlineMs: 120_000,
    retry: {
      baseDelayMs: 100,
      maxDelayMs: 1_000,
      maxRetryAfterMs: 10_000,
      maxAttempts: 5,
      retryAfterJitterMs: 0,
    },
    random: () => 0.5,
    sleep: time.sleep,
    now: time.now,
    onRetry: (line) => {
      retryLines.push(line);
      allRetryLines.push(line);
    },
    ...overrides,
  });
  return { client, time };
}

const kaasBody = {
  metadata: { name: "prod", location: { value: "ITBG-Bergamo" } },
  properties: {
    nodeCidr: { address: "10.0.0.0/16", name: "nodes" },
    kubernetesVersion: { value: "1.32.3" },
    nodePools: [{ name: "pool-1", nodes: 3, instance: "K2A4", dataCenter: "ITBG-1" }],
  },
};
const kaas = { metadata: { id: "k-1", name: "prod" }, status: { state: "InCreation" }, properties: {} };

const getKaas: RequestSpec = { method: "GET", projectId: "p-1", path: "/kaas/k-1", idempotent: true };
const createKaas: RequestSpec = {
  method: "POST",
  projectId: "p-1",
  path: "/kaas",
  body: kaasBody,
  bodySchema: KaasInsert,
  idempotent: false,
};

beforeEach(() => {
  retryLines.length = 0;
});

describe("request body validation", () => {
  it("throws before any I/O, without even asking for a token, when the body has an unknown property", async () => {
    const server = await serve([json(201, kaas)]);
    const getToken = jest.fn(async () => API_TOKEN);
    const tokenSource: TokenSource = { getToken, invalidate: () => undefined, refreshable: false };
    const { client } = clientFor(server, { tokenSource });
    const body = { ...kaasBody, properties: { ...kaasBody.properties, x: 1 } };

    const error = await log.rejectionOf(client.request({ ...createKaas, body }));

    expect(error.message).toBe(
      "POST /kaas not sent: invalid request body: /properties/x: is not an allowed property",
    );
    expect(error.kind).toBe("validation");
    expect(error.status).toBeUndefined();
    expect(error.fieldErrors).toEqual([{ field: "/properties/x", message: "is not an allowed property" }]);
    expect(server.requests).toHaveLength(0);
    expect(getToken).not.toHaveBeenCalled();
    expect(client.attempts).toBe(0);
  });

  it("lists every problem of the body in one message", async () => {
    const server = await serve([json(201, kaas)]);
    const { client } = clientFor(server);
    const body = { metadata: { name: "" }, properties: { ...kaasBody.properties, nodePools: [] } };

    const error = await log.rejectionOf(client.request({ ...createKaas, body }));

    expect(error.message).toBe(
      "POST /kaas not sent: invalid request body: /metadata/name: must NOT have fewer than 1 characters; " +
        "/properties/nodePools: must NOT have fewer than 1 items",
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe("request shape", () => {
  it("sends a GET under the project and namespace with api-version from the settings and the bearer token", async () => {
    const server = await serve([json(200, kaas)]);
    const { client } = clientFor(server);

    const result = await client.request({
      ...getKaas,
      query: { ignoreDeletedStatus: true, filter: undefined, limit: null },
    });

    expect(result).toEqual({ status: 200, data: kaas });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.method).toBe("GET");
    expect(request.url).toBe(
      "/projects/p-1/providers/Vendor.Container/kaas/k-1?api-version=1&ignoreDeletedStatus=true",
    );
    // The token source trims the trailing newline a token file leaves behind.
    expect(request.headers.authorization).toBe(`Bearer ${API_TOKEN}`);
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["content-type"]).toBeUndefined();
    expect(request.body).toBe("");
  });

  it("sends a POST body as JSON with Content-Type application/json", async () => {
    const server = await serve([json(201, kaas)]);
    const { client } = clientFor(server);

    const result = await client.request(createKaas);

    expect(result).toEqual({ status: 201, data: kaas });
    const [request] = server.requests;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/projects/p-1/providers/Vendor.Container/kaas?api-version=1");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers.authorization).toBe(`Bearer ${API_TOKEN}`);
    expect(request.body).toBe(JSON.stringify(kaasBody));
  });

  it("uses the configured api-version and namespace, encodes the project id and tolerates a trailing slash", async () => {
    const server = await serve([json(202)]);
    const { client } = clientFor(server, {
      baseUrl: `${server.url}/`,
      apiVersion: "1.0",
      providerNamespace: "Other.Container",
    });

    const result = await client.request({
      method: "DELETE",
      projectId: "p 1/x",
      path: "/kaas/k-1",
      query: { deleteOnCascade: false },
      idempotent: true,
    });

    expect(result).toEqual({ status: 202, data: undefined });
    expect(server.requests[0].url).toBe(
      "/projects/p%201%2Fx/providers/Other.Container/kaas/k-1?api-version=1.0&deleteOnCascade=false",
    );
  });

  it("returns the raw body for responseType text and undefined for an empty JSON answer", async () => {
    const server = await serve([text(200, "apiVersion: v1\nkind: Config\n"), { status: 200 }]);
    const { client } = clientFor(server);

    const download = await client.request({ ...getKaas, path: "/kaas/k-1/download", responseType: "text" });
    const update = await client.request({ ...getKaas, method: "PUT" });

    expect(download).toEqual({ status: 200, data: "apiVersion: v1\nkind: Config\n" });
    expect(update).toEqual({ status: 200, data: undefined });
  });

  it("fails an empty answer where the endpoint returns a body, after one request, unless empty answers are allowed", async () => {
    const server = await serve([{ status: 200 }, { status: 200 }]);
    const { client } = clientFor(server);

    const error = await log.rejectionOf(client.request({ ...getKaas, responseSchema: KaasResponse }));
    const allowed = await client.request({ ...getKaas, responseSchema: KaasResponse, emptyAnswer: true });

    expect(error.message).toBe(
      "GET /kaas/k-1 answered (200): the service answered without the body this endpoint returns",
    );
    expect(error.ambiguous).toBe(false);
    expect(allowed).toEqual({ status: 200, data: undefined });
    expect(server.requests).toHaveLength(2);
  });
});

describe("retries of idempotent requests", () => {
  it("honours Retry-After on 429 exactly", async () => {
    const server = await serve([json(429, undefined, { "retry-after": "2" }), json(200, kaas)]);
    const { client, time } = clientFor(server);

    const result = await client.request(getKaas);

    expect(result.data).toEqual(kaas);
    expect(time.sleeps).toEqual([2_000]);
    expect(server.requests).toHaveLength(2);
    expect(retryLines).toEqual(["GET /kaas/k-1 failed (429 Too Many Requests); retrying in 2000 ms"]);
  });

  it("caps a Retry-After beyond maxRetryAfterMs", async () => {
    const server = await serve([json(429, undefined, { "retry-after": "3600" }), json(200, kaas)]);
    const { client, time } = clientFor(server);

    await client.request(getKaas);

    expect(time.sleeps).toEqual([10_000]);
  });

  it("retries 500, 502, 503 and 504 on the full-jitter schedule", async () => {
    const server = await serve([json(500), json(502), json(503), json(504), json(200, kaas)]);
    const { client, time } = clientFor(server);

    const result = await client.request(getKaas);

    expect(result).toEqual({ status: 200, data: kaas });
    expect(time.sleeps).toEqual([50, 100, 200, 400]);
    expect(server.requests).toHaveLength(5);
    expect(retryLines).toEqual([
      "GET /kaas/k-1 failed (500 Internal Server Error); retrying in 50 ms",
      "GET /kaas/k-1 failed (502 Bad Gateway); retrying in 100 ms",
      "GET /kaas/k-1 failed (503 Service Unavailable); retrying in 200 ms",
      "GET /kaas/k-1 failed (504 Gateway Timeout); retrying in 400 ms",
    ]);
  });

  it("retries a dropped connection", async () => {
    const server = await serve(["drop", json(200, kaas)]);
    const { client, time } = clientFor(server);

    const result = await client.request(getKaas);

    expect(result.data).toEqual(kaas);
    expect(time.sleeps).toEqual([50]);
    expect(server.requests).toHaveLength(2);
    expect(retryLines).toEqual([
      "GET /kaas/k-1 failed (network): ECONNRESET socket hang up; retrying in 50 ms",
    ]);
  });

  it("retries an attempt that times out", async () => {
    const server = await serve(["hang", json(200, kaas)]);
    const { client, time } = clientFor(server, { requestTimeoutMs: 100 });

    const result = await client.request(getKaas);

    expect(result.data).toEqual(kaas);
    expect(time.sleeps).toEqual([50]);
    expect(retryLines).toEqual([
      "GET /kaas/k-1 failed (timeout): ETIMEDOUT timeout of 100ms exceeded; retrying in 50 ms",
    ]);
  });

  // An earlier attempt may have been processed when no answer came back (a dropped connection, a timeout) or
  // a 5xx did: the refusal of the retry then says so, since that attempt may have caused it.
  const attach: RequestSpec = {
    method: "POST",
    projectId: "p-1",
    path: "/kaas/k-1/nodePools/system/nodes/n-1/attach",
    body: { volume: { uri: "/v/1" } },
    idempotent: true,
  };
  const alreadyAttached = json(400, { title: "Bad Request", detail: "already attached" });
  it.each<[string, Step[], number, boolean]>([
    ["a dropped connection", ["drop", alreadyAttached], 100, true],
    ["a timeout", ["hang", alreadyAttached], 100, true],
    ["a 502", [json(502), alreadyAttached], 2_000, true],
    ["a 429", [json(429), alreadyAttached], 2_000, false],
    ["nothing", [alreadyAttached], 2_000, false],
  ])(
    "marks the refusal of a retry after %s as following a lost answer or not",
    async (_what, script, timeout, lost) => {
      const server = await serve(script);
      const { client } = clientFor(server, { requestTimeoutMs: timeout });

      const error = await log.rejectionOf(client.request(attach));

      expect(error.status).toBe(400);
      expect(error.afterLostAnswer).toBe(lost);
      expect(server.requests).toHaveLength(script.length);
    },
  );

  it("gives up after maxAttempts without sleeping after the last attempt", async () => {
    const server = await serve([json(503)]);
    const { client, time } = clientFor(server, {
      retry: {
        baseDelayMs: 100,
        maxDelayMs: 1_000,
        maxRetryAfterMs: 10_000,
        maxAttempts: 3,
        retryAfterJitterMs: 0,
      },
    });

    const error = await log.rejectionOf(client.request(getKaas));

    expect(server.requests).toHaveLength(3);
    expect(time.sleeps).toEqual([50, 100]);
    expect(retryLines).toHaveLength(2);
    expect(error.kind).toBe("deadline");
    expect(error.status).toBe(503);
    expect(error.message).toBe(
      "GET /kaas/k-1 failed (deadline): gave up after retries within the deadline; " +
        "last error: GET /kaas/k-1 failed (503 Service Unavailable)",
    );
  });

  it("repeats a 429 past maxAttempts until the deadline, since the request was not processed", async () => {
    const limited = json(429, undefined, { "retry-after": "1" });
    const server = await serve([...Array.from({ length: 12 }, () => limited), json(200, kaas)]);
    const { client, time } = clientFor(server, {
      retry: {
        baseDelayMs: 100,
        maxDelayMs: 1_000,
        maxRetryAfterMs: 10_000,
        maxAttempts: 3,
        retryAfterJitterMs: 0,
      },
    });

    const result = await client.request(getKaas);

    expect(result.data).toEqual(kaas);
    expect(server.requests).toHaveLength(13);
    expect(time.sleeps).toEqual(Array.from({ length: 12 }, () => 1_000));
  });

  it("counts 5xx answers between 429s against maxAttempts, and the 429s not", async () => {
    const limited = json(429, undefined, { "retry-after": "1" });
    const server = await serve([
      limited,
      json(503),
      limited,
      limited,
      json(502),
      limited,
      json(500),
      json(200),
    ]);
    const { client, time } = clientFor(server, {
      retry: {
        baseDelayMs: 100,
        maxDelayMs: 1_000,
        maxRetryAfterMs: 10_000,
        maxAttempts: 3,
        retryAfterJitterMs: 0,
      },
    });

    const error = await log.rejectionOf(client.request(getKaas));

    // Three faults (503, 502, 500) use up the three counted attempts; the four 429s in between do not.
    expect(server.requests).toHaveLength(7);
    expect(time.sleeps).toEqual([1_000, 100, 1_000, 1_000, 500, 1_000]);
    expect(error.kind).toBe("deadline");
    expect(error.status).toBe(500);
  });

  it("gives up on a 429 that lasts past the deadline, naming the rate limit", async () => {
    const server = await serve([json(429, undefined, { "retry-after": "1" })]);
    const { client, time } = clientFor(server, {
      callDeadlineMs: 4_500,
      retry: {
        baseDelayMs: 100,
        maxDelayMs: 1_000,
        maxRetryAfterMs: 10_000,
        maxAttempts: 2,
        retryAfterJitterMs: 0,
      },
    });

    const error = await log.rejectionOf(client.request(getKaas));

    // Waits of 1 s at 0, 1, 2 and 3 s; the fifth would end at 5 s, past the 4.5 s deadline.
    expect(time.sleeps).toEqual([1_000, 1_000, 1_000, 1_000]);
    expect(server.requests).toHaveLength(5);
    expect(error.message).toBe(
      "GET /kaas/k-1 failed (deadline): gave up after retries within the deadline; " +
        "last error: GET /kaas/k-1 failed (429 Too Many Requests)",
    );
  });

  it("adds the policy's jitter on top of Retry-After", async () => {
    const limited = json(429, undefined, { "retry-after": "2" });
    const server = await serve([limited, limited, json(200, kaas)]);
    const { client, time } = clientFor(server, {
      retry: {
        baseDelayMs: 100,
        maxDelayMs: 1_000,
        maxRetryAfterMs: 10_000,
        maxAttempts: 5,
        retryAfterJitterMs: 800,
      },
      random: scriptedRandom(0.25, 0.5),
    });

    await client.request(getKaas);

    expect(time.sleeps).toEqual([2_200, 2_400]);
    expect(retryLines).toEqual([
      "GET /kaas/k-1 failed (429 Too Many Requests); retrying in 2200 ms",
      "GET /kaas/k-1 failed (429 Too Many Requests); retrying in 2400 ms",
    ]);
  });

  it("stops at the overall deadline and names the last error, problem details included", async () => {
    const server = await serve([json(503, { title: "Service Unavailable", detail: "maintenance" })]);
    const { client, time } = clientFor(server, {
      callDeadlineMs: 1_000,
      retry: {
        baseDelayMs: 100,
        maxDelayMs: 1_000,
        maxRetryAfterMs: 10_000,
        maxAttempts: 100,
        retryAfterJitterMs: 0,
      },
    });

    const error = await log.rejectionOf(client.request(getKaas));

    // 50 + 100 + 200 + 400 = 750 ms slept; the next wait of 500 ms would end past the 1000 ms deadline.
    expect(time.sleeps).toEqual([50, 100, 200, 400]);
    expect(server.requests).toHaveLength(5);
    expect(error.kind).toBe("deadline");
    expect(error.message).toBe(
      "GET /kaas/k-1 failed (deadline): gave up after retries within the deadline; " +
        "last error: GET /kaas/k-1 failed (503 Service Unavailable): Service Unavailable: maintenance",
    );
  });

  it("shortens the per-attempt timeout to the time left before the deadline", async () => {
    const server = await serve(["hang"]);
    const { client, time } = clientFor(server, { requestTimeoutMs: 10_000, callDeadlineMs: 150 });

    const error = await log.rejectionOf(client.request(getKaas));

    // First attempt: 150 ms left; after a 50 ms backoff, 100 ms left; the next backoff (100 ms) hits the deadline.
    expect(retryLines).toEqual([
      "GET /kaas/k-1 failed (timeout): ETIMEDOUT timeout of 150ms exceeded; retrying in 50 ms",
    ]);
    expect(time.sleeps).toEqual([50]);
    expect(server.requests).toHaveLength(2);
    expect(error.kind).toBe("deadline");
    expect(error.message).toBe(
      "GET /kaas/k-1 failed (deadline): gave up after retries within the deadline; " +
        "last error: GET /kaas/k-1 failed (timeout): ETIMEDOUT timeout of 100ms exceeded",
    );
  });

  it("honours an explicit absolute deadline, and makes no attempt once it has passed", async () => {
    const server = await serve([json(503)]);
    const { client, time } = clientFor(server);

    const late = await log.rejectionOf(client.request({ ...getKaas, deadline: time.now() }));
    expect(late.message).toBe(
      "GET /kaas/k-1 failed (deadline): gave up after retries within the deadline; last error: no attempt could be made",
    );
    expect(server.requests).toHaveLength(0);

    const soon = await log.rejectionOf(client.request({ ...getKaas, deadline: time.now() + 100 }));
    expect(soon.kind).toBe("deadline");
    expect(time.sleeps).toEqual([50]);
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a 404 and marks it as not found", async () => {
    const server = await serve([json(404, { title: "Not Found", status: 404 })]);
    const { client, time } = clientFor(server);

    const error = await log.rejectionOf(client.request(getKaas));

    expect(error.message).toBe("GET /kaas/k-1 failed (404 Not Found): Not Found");
    expect(isNotFound(error)).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });
});

describe("retries of a non-idempotent create", () => {
  it("does not re-send after a 503 with Retry-After: a gateway may answer it after the create was processed", async () => {
    // The published interface does not say that 503 means "not processed", so a second POST
    // could create a second object.
    const server = await serve([
      json(503, { title: "Service Unavailable", status: 503 }, { "retry-after": "1" }),
      json(201, kaas),
    ]);
    const { client, time } = clientFor(server);

    const error = await log.rejectionOf(client.request(createKaas));

    expect(error.message).toBe("POST /kaas failed (503 Service Unavailable): Service Unavailable");
    expect(error.kind).toBe("http");
    expect(error.status).toBe(503);
    expect(error.ambiguous).toBe(true);
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(1_000);
    expect(server.requests.map((r) => r.body)).toEqual([JSON.stringify(kaasBody)]);
    expect(time.sleeps).toEqual([]);
    expect(retryLines).toEqual([]);
  });

  it("re-sends after 429, honouring Retry-After: only a rate limit proves the create was not processed", async () => {
    const server = await serve([json(429, undefined, { "retry-after": "1" }), json(201, kaas)]);
    const { client, time } = clientFor(server);

    const result = await client.request(createKaas);

    expect(result).toEqual({ status: 201, data: kaas });
    expect(time.sleeps).toEqual([1_000]);
    expect(server.requests.map((r) => r.body)).toEqual([JSON.stringify(kaasBody), JSON.stringify(kaasBody)]);
    expect(retryLines).toEqual(["POST /kaas failed (429 Too Many Requests); retrying in 1000 ms"]);
  });

  it.each([
    [500, "Internal Server Error"],
    [502, "Bad Gateway"],
    [503, "Service Unavailable"],
    [504, "Gateway Timeout"],
  ])("does not re-send after %i and marks the error ambiguous", async (status, statusText) => {
    const server = await serve([json(status), json(201, kaas)]);
    const { client, time } = clientFor(server);

    const error = await log.rejectionOf(client.request(createKaas));

    expect(error.message).toBe(`POST /kaas failed (${status} ${statusText})`);
    expect(error.kind).toBe("http");
    expect(error.status).toBe(status);
    expect(error.ambiguous).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });

  it.each([
    ["without its body", { status: 201 }, "the service answered without the body this endpoint returns"],
    ["with a body that is not JSON", text(201, "created"), "the service answered a body that is not JSON"],
    [
      "with a body its schema refuses",
      json(201, { status: { state: "InCreation" } }),
      "unexpected response body: /metadata: is required; /properties: is required",
    ],
  ] as const)(
    "does not re-send a create answered 201 %s and marks the error ambiguous: it was processed",
    async (_case, answer, detail) => {
      const server = await serve([answer, json(201, kaas)]);
      const { client, time } = clientFor(server);

      const error = await log.rejectionOf(client.request({ ...createKaas, responseSchema: KaasResponse }));

      expect(error.message).toBe(`POST /kaas answered (201): ${detail}`);
      expect(error.ambiguous).toBe(true);
      expect(server.requests).toHaveLength(1);
      expect(time.sleeps).toEqual([]);
    },
  );

  it("does not re-send after a dropped connection and marks the error ambiguous", async () => {
    const server = await serve(["drop", json(201, kaas)]);
    const { client, time } = clientFor(server);

    const error = await log.rejectionOf(client.request(createKaas));

    expect(error.message).toBe("POST /kaas failed (network): ECONNRESET socket hang up");
    expect(error.kind).toBe("network");
    expect(error.ambiguous).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });

  it("does not re-send after a per-attempt timeout and reports kind timeout", async () => {
    const server = await serve(["hang", json(201, kaas)]);
    const { client, time } = clientFor(server, { requestTimeoutMs: 100 });

    const error = await log.rejectionOf(client.request(createKaas));

    expect(error.message).toBe("POST /kaas failed (timeout): ETIMEDOUT timeout of 100ms exceeded");
    expect(error.kind).toBe("timeout");
    expect(error.ambiguous).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });

  it("re-sends a create the connection refused: it never reached the service", async () => {
    const closed = await serve([json(201, kaas)]);
    const url = closed.url;
    await closed.close();
    servers.splice(servers.indexOf(closed), 1);
    const server = await serve([json(201, kaas)]);
    const { client, time } = clientFor(server, {
      baseUrl: url,
      retry: {
        baseDelayMs: 100,
        maxDelayMs: 1_000,
        maxRetryAfterMs: 10_000,
        maxAttempts: 2,
        retryAfterJitterMs: 0,
      },
    });

    const error = await log.rejectionOf(client.request(createKaas));

    expect(time.sleeps).toEqual([50]);
    expect(error.kind).toBe("deadline");
    expect(error.ambiguous).toBe(false);
    expect(error.message).toMatch(
      /^POST \/kaas failed \(deadline\): gave up after retries within the deadline; last error: POST \/kaas failed \(network\): ECONNREFUSED connect ECONNREFUSED 127\.0\.0\.1:\d+$/,
    );
  });
});

describe("HTTP errors", () => {
  it("turns a 400 with {field, message} errors into a typed error with normalised field errors", async () => {
    const problem = {
      type: "https://tools.ietf.org/html/rfc7231#section-6.5.1",
      title: "One or more validation errors occurred.",
      status: 400,
      errors: [{ field: "properties.ha", message: "cannot be disabled" }],
    };
    const server = await serve([json(400, problem)]);
    const { client } = clientFor(server);
    const transitionalProbe = jest.fn(async () => true);

    const error = await log.rejectionOf(
      client.request({ ...getKaas, method: "PUT", body: {}, transitionalProbe }),
    );

    expect(error.message).toBe("PUT /kaas/k-1 failed (400 Bad Request): properties.ha: cannot be disabled");
    expect(error.kind).toBe("http");
    expect(error.status).toBe(400);
    expect(error.problem).toEqual(problem);
    expect(error.fieldErrors).toEqual([{ field: "properties.ha", message: "cannot be disabled" }]);
    expect(error.retryable).toBe(false);
    expect(error.ambiguous).toBe(false);
    expect(error.method).toBe("PUT");
    expect(error.path).toBe("/kaas/k-1");
    // Field errors are permanent: the transitional probe is not even asked.
    expect(transitionalProbe).not.toHaveBeenCalled();
    expect(server.requests).toHaveLength(1);
  });

  it("normalises the wire spelling {fieldName, errorMessage} and joins several field errors", async () => {
    const server = await serve([
      json(400, {
        title: "Bad Request",
        errors: [
          {
            fieldName: "nodeCidr.address",
            errorMessage: "must lie within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16",
          },
          { fieldName: "properties.ha", errorMessage: "cannot be disabled" },
          { message: "location is invalid" },
          { field: "name" },
        ],
      }),
    ]);
    const { client } = clientFor(server);

    const error = await log.rejectionOf(client.request({ ...getKaas, method: "PUT", body: {} }));

    expect(error.message).toBe(
      "PUT /kaas/k-1 failed (400 Bad Request): nodeCidr.address: must lie within 10.0.0.0/8, 172.16.0.0/12 or " +
        "192.168.0.0/16; properties.ha: cannot be disabled; location is invalid; name: is invalid",
    );
    expect(error.fieldErrors).toEqual([
      { field: "nodeCidr.address", message: "must lie within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16" },
      { field: "properties.ha", message: "cannot be disabled" },
      { field: "", message: "location is invalid" },
      { field: "name", message: "is invalid" },
    ]);
  });

  it("retries a 400 without field errors while the transitional probe says the resource is busy", async () => {
    const busy = json(400, { title: "Bad Request", detail: "The cluster is being updated" });
    const server = await serve([busy, busy, json(202)]);
    const { client, time } = clientFor(server);
    const transitionalProbe = jest.fn(async () => true);

    const result = await client.request({ ...getKaas, method: "DELETE", transitionalProbe });

    expect(result).toEqual({ status: 202, data: undefined });
    expect(transitionalProbe).toHaveBeenCalledTimes(2);
    expect(time.sleeps).toEqual([50, 100]);
    expect(retryLines).toEqual([
      "DELETE /kaas/k-1 failed (400 Bad Request): Bad Request: The cluster is being updated; retrying in 50 ms",
      "DELETE /kaas/k-1 failed (400 Bad Request): Bad Request: The cluster is being updated; retrying in 100 ms",
    ]);
  });

  it.each([
    ["answers false", async () => false],
    ["throws", async () => Promise.reject(new Error("probe failed"))],
  ])("fails a 400 without field errors after one more try when the probe %s", async (_case, probe) => {
    // The resource may have settled between the answer and the probe: one more try, then the refusal is final.
    const busy = json(400, { title: "Bad Request", detail: "The cluster is being updated" });
    const server = await serve([busy, busy]);
    const { client, time } = clientFor(server);

    const error = await log.rejectionOf(
      client.request({ ...getKaas, method: "DELETE", transitionalProbe: probe }),
    );

    expect(error.message).toBe(
      "DELETE /kaas/k-1 failed (400 Bad Request): Bad Request: The cluster is being updated",
    );
    expect(server.requests).toHaveLength(2);
    expect(time.sleeps).toHaveLength(1);
  });

  it("fails a 400 without field errors at once when there is no probe (nothing says the resource is busy)", async () => {
    const server = await serve([json(400, { title: "Bad Request", detail: "The cluster is being updated" })]);
    const { client, time } = clientFor(server);

    const error = await log.rejectionOf(client.request({ ...getKaas, method: "DELETE" }));

    expect(error.message).toBe(
      "DELETE /kaas/k-1 failed (400 Bad Request): Bad Request: The cluster is being updated",
    );
    expect(server.requests).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });

  it("reads an ASP.NET map of field errors, fails after one request and never asks the probe", async () => {
    const server = await serve([
      json(400, {
        title: "One or more validation errors occurred.",
        status: 400,
        errors: { "properties.ha": ["cannot be disabled"], "metadata.name": ["is required", "is too long"] },
      }),
    ]);
    const { client, time } = clientFor(server);
    const transitionalProbe = jest.fn(async () => true);

    const error = await log.rejectionOf(
      client.request({ ...getKaas, method: "PUT", body: {}, transitionalProbe }),
    );

    expect(error.message).toBe(
      "PUT /kaas/k-1 failed (400 Bad Request): properties.ha: cannot be disabled; metadata.name: is required; " +
        "metadata.name: is too long",
    );
    expect(error.fieldErrors).toEqual([
      { field: "properties.ha", message: "cannot be disabled" },
      { field: "metadata.name", message: "is required" },
      { field: "metadata.name", message: "is too long" },
    ]);
    expect([error.busy, server.requests.length, time.sleeps, transitionalProbe.mock.calls.length]).toEqual([
      false,
      1,
      [],
      0,
    ]);
  });

  it("fails a 400 whose detail alone lists the field errors after one request, even on a busy resource", async () => {
    // No `errors` member (the published ProblemDetails has none): the detail's words show a validation failure.
    const server = await serve([
      json(400, {
        title: "One or more validation errors occurred.",
        detail: "properties.nodeCidr.address: must lie within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16",
      }),
    ]);
    const { client, time } = clientFor(server);
    const transitionalProbe = jest.fn(async () => true);

    const error = await log.rejectionOf(
      client.request({ ...getKaas, method: "PUT", body: {}, transitionalProbe }),
    );

    expect(error.message).toBe(
      "PUT /kaas/k-1 failed (400 Bad Request): One or more validation errors occurred: " +
        "properties.nodeCidr.address: must lie within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16",
    );
    expect(error.fieldErrors).toEqual([]);
    expect([server.requests.length, time.sleeps, transitionalProbe.mock.calls.length]).toEqual([1, [], 0]);
  });

  it("never probes nor retries a create refused with a 400 without field errors", async () => {
    const server = await serve([json(400, { title: "Bad Request", detail: "The cluster is being updated" })]);
    const { client, time } = clientFor(server);
    const transitionalProbe = jest.fn(async () => true);

    const error = await log.rejectionOf(client.request({ ...createKaas, transitionalProbe }));

    expect(error.message).toBe(
      "POST /kaas failed (400 Bad Request): Bad Request: The cluster is being updated",
    );
    expect([server.requests.length, time.sleeps, transitionalProbe.mock.calls.length]).toEqual([1, [], 0]);
  });

  it("fails a 400 after one request when the probe sees a settled resource and the refusal named no busy state", async () => {
    const server = await serve([json(400, { title: "Bad Request", detail: "Quota of clusters reached" })]);
    const { client, time } = clientFor(server);
    const transitionalProbe = jest.fn(async () => false);

    const error = await log.rejectionOf(
      client.request({ ...getKaas, method: "PUT", body: {}, transitionalProbe }),
    );

    expect(error.message).toBe(
      "PUT /kaas/k-1 failed (400 Bad Request): Bad Request: Quota of clusters reached",
    );
    expect(error.busy).toBe(false);
    expect([server.requests.length, time.sleeps, transitionalProbe.mock.calls.length]).toEqual([1, [], 1]);
  });

  it("marks the error busy when the retries of a busy refusal run out", async () => {
    const busy = json(400, { title: "Resource is busy: Updating" });
    const server = await serve([busy, busy, busy, busy, busy]);
    const { client } = clientFor(server);

    const error = await log.rejectionOf(
      client.request({ ...getKaas, method: "DELETE", transitionalProbe: async () => true }),
    );

    expect(error.message).toBe(
      "DELETE /kaas/k-1 failed (deadline): gave up after retries within the deadline; last error: " +
        "DELETE /kaas/k-1 failed (400 Bad Request): Resource is busy: Updating",
    );
    expect([error.kind, error.busy, server.requests.length]).toEqual(["deadline", true, 5]);
  });

  it.each<[string, unknown, string]>([
    ["a number", 42, "42"],
    ["a string", "Location Invalid", "Location Invalid"],
    ["null", null, "Bad Request: Location Invalid"],
    ["a list of nulls and numbers", [null, 7], "7"],
    ["a map of numbers", { "metadata.name": 5 }, "metadata.name: 5"],
  ])("reads an errors member that is %s without throwing", async (_shape, errors, reason) => {
    const server = await serve([json(400, { title: "Bad Request", detail: "Location Invalid", errors })]);
    const { client } = clientFor(server);

    const error = await log.rejectionOf(client.request({ ...getKaas, method: "PUT", body: {} }));

    expect(error.message).toBe(`PUT /kaas/k-1 failed (400 Bad Request): ${reason}`);
    expect(server.requests).toHaveLength(1);
  });

  it("puts a plain-text 5xx body in the message", async () => {
    const server = await serve([text(502, "Bad Gateway")]);
    const { client } = clientFor(server);

    const error = await log.rejectionOf(client.request(createKaas));

    expect(error.message).toBe("POST /kaas failed (502 Bad Gateway): Bad Gateway");
    expect(error.problem).toBeUndefined();
  });

  it("uses the reason phrase the server sent and cuts a long plain-text body at 200 characters", async () => {
    const server = await serve([
      { status: 500, headers: { "content-type": "text/html" }, body: `<html>${"x".repeat(300)}</html>` },
    ]);
    const { client } = clientFor(server);

    const error = await log.rejectionOf(client.request({ ...createKaas, path: "/kaas" }));

    expect(error.message).toBe(`POST /kaas failed (500 Internal Server Error): <html>${"x".repeat(194)}`);
  });

  it("rejects a 2xx body that breaks the response schema, without retrying", async () => {
    const server = await serve([json(200, { metadata: { name: "prod" }, properties: {} })]);
    const { client, time } = clientFor(server);

    const error = await log.rejectionOf(client.request({ ...getKaas, responseSchema: KaasResponse }));

    expect(error.message).toBe(
      "GET /kaas/k-1 answered (200): unexpected response body: /metadata/id: is required",
    );
    expect(error.kind).toBe("http");
    expect(error.status).toBe(200);
    expect(server.requests).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });

  it("rejects a 2xx body that is not JSON", async () => {
    const server = await serve([text(200, "<html>maintenance</html>")]);
    const { client } = clientFor(server);

    const error = await log.rejectionOf(client.request(getKaas));

    expect(error.message).toBe("GET /kaas/k-1 answered (200): the service answered a body that is not JSON");
  });
});

describe("error recognition", () => {
  it("recognises a plain-object copy of an error by its brand, as another package copy would hand it over", async () => {
    const server = await serve([json(404, { title: "Not Found" })]);
    const { client } = clientFor(server);
    const error = await log.rejectionOf(client.request(getKaas));

    const spread = { ...error };
    const serialised = JSON.parse(JSON.stringify(error)) as unknown;

    expect(isVendorApiError(spread)).toBe(true);
    expect(isVendorApiError(serialised)).toBe(true);
    expect(isNotFound(spread)).toBe(true);
    expect(isNotFound(serialised)).toBe(true);
  });

  it.each([
    ["a plain Error", Object.assign(new Error("x"), { status: 404 })],
    ["a truthy non-true brand", { isVendorApiError: "true", kind: "http", status: 404 }],
    ["null", null],
    ["undefined", undefined],
    ["a string", "GET /kaas failed (404 Not Found)"],
  ])("does not take %s for a VendorApiError", (_name, value) => {
    expect(isVendorApiError(value)).toBe(false);
    expect(isNotFound(value)).toBe(false);
  });

  it.each([
    [{ isVendorApiError: true, kind: "http", status: 404 }, true],
    [{ isVendorApiError: true, kind: "http", status: 400 }, false],
    [{ isVendorApiError: true, kind: "deadline", status: 404 }, false],
  ])("isNotFound(%j) is %s", (value, expected) => {
    expect(isNotFound(value)).toBe(expected);
  });
});

describe("secrets", () => {
  it("never puts the token in any error message or retry line of this file", () => {
    // Guard against a vacuous pass: the tests above provoked many errors and retries.
    expect(log.messages.length).toBeGreaterThanOrEqual(20);
    expect(allRetryLines.length).toBeGreaterThanOrEqual(10);
    expect(log.leaks()).toEqual([]);
    expect(allRetryLines.filter((line) => ALL_SECRETS.some((secret) => line.includes(secret)))).toEqual([]);
  });
});
