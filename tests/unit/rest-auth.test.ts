/**
 * Authentication: the static token, the OAuth2 client-credentials exchange against a loopback token
 * endpoint (form body, caching, refresh before expiry, one shared exchange), and the choke point's single
 * refresh on 401.
 */
import { ClientCredentialsTokenSource, StaticTokenSource } from "../../rest/auth";
import { keepAliveTransport } from "../../rest/transport";
import { HttpClient } from "../../rest/http";
import { fakeTime } from "./support/fake-time";
import { json, startScriptedServer, text, type ScriptedServer, type Step } from "./support/scripted-server";
import {
  ACCESS_TOKEN_1,
  ACCESS_TOKEN_2,
  ALL_SECRETS,
  API_TOKEN,
  CLIENT_ID,
  CLIENT_SECRET,
  ErrorLog,
} from "./support/secrets";

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

/** A token answer; `expires_in` is left out when undefined. */
const grant = (accessToken: string, expiresIn?: unknown) =>
  json(200, {
    access_token: accessToken,
    token_type: "Bearer",
    ...(expiresIn === undefined ? {} : { expires_in: expiresIn }),
  });

function tokenSourceFor(
  server: ScriptedServer,
  options: { now?: () => number; refreshSkewMs?: number } = {},
) {
  return new ClientCredentialsTokenSource(keepAliveTransport(), {
    tokenUrl: `${server.url}/oauth/token`,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    ...options,
  });
}

describe("StaticTokenSource", () => {
  it("answers the configured token trimmed of surrounding whitespace and newlines", async () => {
    const source = new StaticTokenSource(`  ${API_TOKEN}\n`);
    expect(await source.getToken()).toBe(API_TOKEN);
  });

  it("cannot refresh: invalidate keeps the same token", async () => {
    const source = new StaticTokenSource(API_TOKEN);
    source.invalidate();
    expect(source.refreshable).toBe(false);
    expect(await source.getToken()).toBe(API_TOKEN);
  });
});

describe("ClientCredentialsTokenSource", () => {
  it("posts the exact client-credentials form to the token URL", async () => {
    const server = await serve([grant(ACCESS_TOKEN_1)]);
    const source = tokenSourceFor(server);

    expect(await source.getToken()).toBe(ACCESS_TOKEN_1);

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/oauth/token");
    expect(request.body).toBe(
      `grant_type=client_credentials&client_id=${CLIENT_ID}&client_secret=${CLIENT_SECRET}`,
    );
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers.authorization).toBeUndefined();
  });

  it("form-encodes reserved characters of the credentials", async () => {
    const server = await serve([grant(ACCESS_TOKEN_1)]);
    const source = new ClientCredentialsTokenSource(keepAliveTransport(), {
      tokenUrl: `${server.url}/oauth/token`,
      clientId: "id with space",
      clientSecret: "s&cret=1+2/3",
    });

    await source.getToken();

    expect(server.requests[0].body).toBe(
      "grant_type=client_credentials&client_id=id+with+space&client_secret=s%26cret%3D1%2B2%2F3",
    );
  });

  it("caches the token: later calls make no exchange", async () => {
    const server = await serve([grant(ACCESS_TOKEN_1), grant(ACCESS_TOKEN_2)]);
    const source = tokenSourceFor(server);

    const tokens = [await source.getToken(), await source.getToken(), await source.getToken()];

    expect(tokens).toEqual([ACCESS_TOKEN_1, ACCESS_TOKEN_1, ACCESS_TOKEN_1]);
    expect(source.exchanges).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it("trims the access token the endpoint answers", async () => {
    const server = await serve([grant(`  ${ACCESS_TOKEN_1}\n`)]);
    expect(await tokenSourceFor(server).getToken()).toBe(ACCESS_TOKEN_1);
  });

  it("refreshes exactly when the token is within the default 60 s skew of its expiry", async () => {
    const server = await serve([grant(ACCESS_TOKEN_1, 3600), grant(ACCESS_TOKEN_2, 3600)]);
    const time = fakeTime(0);
    const source = tokenSourceFor(server, { now: time.now });

    expect(await source.getToken()).toBe(ACCESS_TOKEN_1);
    time.advance(3_540_000 - 1); // 1 ms before expiry minus skew
    expect(await source.getToken()).toBe(ACCESS_TOKEN_1);
    time.advance(1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_2);
    expect(source.exchanges).toBe(2);
  });

  it("honours a custom skew and reads expires_in given as a numeric string", async () => {
    const server = await serve([grant(ACCESS_TOKEN_1, "120"), grant(ACCESS_TOKEN_2)]);
    const time = fakeTime(0);
    const source = tokenSourceFor(server, { now: time.now, refreshSkewMs: 1_000 });

    await source.getToken();
    time.advance(119_000 - 1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_1);
    time.advance(1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_2);
  });

  it.each([
    ["missing", undefined],
    ["not a number", "soon"],
    ["zero", 0],
  ])("assumes a one-hour token when expires_in is %s", async (_case, expiresIn) => {
    const server = await serve([grant(ACCESS_TOKEN_1, expiresIn), grant(ACCESS_TOKEN_2)]);
    const time = fakeTime(0);
    const source = tokenSourceFor(server, { now: time.now, refreshSkewMs: 0 });

    await source.getToken();
    time.advance(3_600_000 - 1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_1);
    time.advance(1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_2);
  });

  it("shares one in-flight exchange between concurrent callers", async () => {
    const server = await serve([grant(ACCESS_TOKEN_1), grant(ACCESS_TOKEN_2)]);
    const source = tokenSourceFor(server);

    const tokens = await Promise.all([1, 2, 3, 4, 5].map(() => source.getToken()));

    expect(tokens).toEqual(Array(5).fill(ACCESS_TOKEN_1));
    expect(source.exchanges).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it("drops the token on invalidate of that token only", async () => {
    const server = await serve([grant(ACCESS_TOKEN_1), grant(ACCESS_TOKEN_2)]);
    const source = tokenSourceFor(server);
    await source.getToken();

    source.invalidate("some-other-token");
    expect(await source.getToken()).toBe(ACCESS_TOKEN_1);
    source.invalidate(ACCESS_TOKEN_1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_2);
    expect(source.exchanges).toBe(2);
  });

  it("reports a refused exchange as kind auth, without the secret even when the endpoint echoes it", async () => {
    const server = await serve([
      json(401, { error: "invalid_client", error_description: `unknown secret ${CLIENT_SECRET}` }),
    ]);
    const source = tokenSourceFor(server);

    const error = await log.rejectionOf(source.getToken());

    expect(error.message).toBe(
      "POST /oauth/token failed (auth): the token endpoint refused the client credentials (HTTP 401). " +
        "Check the credentials in stack config vendor:clientId, vendor:clientSecret and vendor:tokenUrl " +
        "(or VENDOR_CLIENT_ID, VENDOR_CLIENT_SECRET and VENDOR_TOKEN_URL)",
    );
    expect(error.kind).toBe("auth");
    expect(error.status).toBe(401);
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain(CLIENT_SECRET);
  });

  it.each([
    ["a 200 without access_token", json(200, { token_type: "Bearer" }), 200, false],
    ["a 200 with a blank access_token", json(200, { access_token: "  " }), 200, false],
    ["a 200 that is not JSON", text(200, "ok"), 200, false],
    ["a 503", text(503, "Service Unavailable"), 503, true],
    ["a 429", json(429, {}), 429, true],
  ])(
    "refuses %s as kind auth, without naming the settings (not the credentials' fault)",
    async (_case, step, status, retryable) => {
      const server = await serve([step]);

      const error = await log.rejectionOf(tokenSourceFor(server).getToken());

      expect(error.message).toBe(
        `POST /oauth/token failed (auth): the token endpoint refused the client credentials (HTTP ${status})`,
      );
      expect(error.kind).toBe("auth");
      expect(error.retryable).toBe(retryable);
    },
  );

  it("tries a new exchange after a refused one", async () => {
    const server = await serve([json(500), grant(ACCESS_TOKEN_1)]);
    const source = tokenSourceFor(server);

    await log.rejectionOf(source.getToken());

    expect(await source.getToken()).toBe(ACCESS_TOKEN_1);
    expect(source.exchanges).toBe(2);
  });

  it("reports an unreachable token endpoint as kind network", async () => {
    const server = await serve([grant(ACCESS_TOKEN_1)]);
    const source = tokenSourceFor(server);
    await servers.splice(0)[0].close();

    const error = await log.rejectionOf(source.getToken());

    expect(error.kind).toBe("network");
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(
      /^POST \/oauth\/token failed \(network\): connect ECONNREFUSED 127\.0\.0\.1:\d+$/,
    );
  });
});

describe("HttpClient with a refreshable token", () => {
  async function setup(apiScript: Step[]) {
    const tokens = await serve([grant(ACCESS_TOKEN_1), grant(ACCESS_TOKEN_2), grant("access-token-three-x")]);
    const api = await serve(apiScript);
    const time = fakeTime();
    const tokenSource = tokenSourceFor(tokens);
    const client = new HttpClient({
      baseUrl: api.url,
      apiVersion: "1",
      providerNamespace: "Vendor.Container",
      tokenSource,
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
    });
    return { api, tokenSource, client, time };
  }

  const get = { method: "GET" as const, projectId: "p-1", path: "/kaas/k-1", idempotent: true };

  it("refreshes the token once on 401 and retries at once with the new token", async () => {
    const { api, tokenSource, client, time } = await setup([
      json(401),
      json(200, { metadata: { id: "k-1" } }),
    ]);

    const result = await client.request(get);

    expect(result).toEqual({ status: 200, data: { metadata: { id: "k-1" } } });
    expect(api.requests.map((r) => r.headers.authorization)).toEqual([
      `Bearer ${ACCESS_TOKEN_1}`,
      `Bearer ${ACCESS_TOKEN_2}`,
    ]);
    expect(tokenSource.exchanges).toBe(2);
    expect(time.sleeps).toEqual([]);
  });

  it("fails on a second 401 after the refresh", async () => {
    const { api, tokenSource, client } = await setup([json(401, { title: "Unauthorized" })]);

    const error = await log.rejectionOf(client.request(get));

    expect(error.message).toBe(
      "GET /kaas/k-1 failed (401 Unauthorized): Unauthorized. " +
        "Check the credentials in stack config vendor:clientId, vendor:clientSecret and vendor:tokenUrl " +
        "(or VENDOR_CLIENT_ID, VENDOR_CLIENT_SECRET and VENDOR_TOKEN_URL)",
    );
    expect(error.kind).toBe("http");
    expect(error.status).toBe(401);
    expect(api.requests).toHaveLength(2);
    expect(tokenSource.exchanges).toBe(2);
  });

  it("fails a 401 at once with a static token, which cannot be refreshed, naming vendor:token", async () => {
    const api = await serve([json(401), json(200, {})]);
    const client = new HttpClient({
      baseUrl: api.url,
      apiVersion: "1",
      providerNamespace: "Vendor.Container",
      tokenSource: new StaticTokenSource(API_TOKEN),
      requestTimeoutMs: 2_000,
      callDeadlineMs: 120_000,
      retry: {
        baseDelayMs: 100,
        maxDelayMs: 1_000,
        maxRetryAfterMs: 10_000,
        maxAttempts: 5,
        retryAfterJitterMs: 0,
      },
      sleep: fakeTime().sleep,
    });

    const error = await log.rejectionOf(client.request(get));

    expect(error.message).toBe(
      "GET /kaas/k-1 failed (401 Unauthorized). Check the credentials in stack config vendor:token (or VENDOR_TOKEN)",
    );
    expect(error.message).not.toContain(API_TOKEN);
    expect(api.requests).toHaveLength(1);
  });

  it("puts one full stop between the service's sentence and the settings to check", async () => {
    const api = await serve([json(401, { title: "Unauthorized", detail: "The bearer token is not valid." })]);
    const client = new HttpClient({
      baseUrl: api.url,
      apiVersion: "1",
      providerNamespace: "Vendor.Container",
      tokenSource: new StaticTokenSource(API_TOKEN),
      requestTimeoutMs: 2_000,
      callDeadlineMs: 120_000,
      retry: {
        baseDelayMs: 100,
        maxDelayMs: 1_000,
        maxRetryAfterMs: 10_000,
        maxAttempts: 5,
        retryAfterJitterMs: 0,
      },
    });

    const error = await log.rejectionOf(client.request(get));

    expect(error.message).toBe(
      "GET /kaas/k-1 failed (401 Unauthorized): Unauthorized: The bearer token is not valid. " +
        "Check the credentials in stack config vendor:token (or VENDOR_TOKEN)",
    );
  });

  it("propagates a refused exchange from the choke point without calling the service", async () => {
    const tokens = await serve([json(400, { error: "invalid_client" })]);
    const api = await serve([json(200, {})]);
    const client = new HttpClient({
      baseUrl: api.url,
      apiVersion: "1",
      providerNamespace: "Vendor.Container",
      tokenSource: tokenSourceFor(tokens),
      requestTimeoutMs: 2_000,
      callDeadlineMs: 120_000,
      retry: {
        baseDelayMs: 100,
        maxDelayMs: 1_000,
        maxRetryAfterMs: 10_000,
        maxAttempts: 5,
        retryAfterJitterMs: 0,
      },
    });

    const error = await log.rejectionOf(client.request(get));

    expect(error.message).toBe(
      "POST /oauth/token failed (auth): the token endpoint refused the client credentials (HTTP 400). " +
        "Check the credentials in stack config vendor:clientId, vendor:clientSecret and vendor:tokenUrl " +
        "(or VENDOR_CLIENT_ID, VENDOR_CLIENT_SECRET and VENDOR_TOKEN_URL)",
    );
    expect(error.kind).toBe("auth");
    expect(api.requests).toHaveLength(0);
  });
});

describe("secrets", () => {
  it("never puts the client secret or any token in an error message of this file", () => {
    // Guard against a vacuous pass: the tests above provoked these errors.
    expect(log.messages.length).toBeGreaterThanOrEqual(10);
    expect(log.leaks([...ALL_SECRETS, "access-token-three-x"])).toEqual([]);
  });
});
