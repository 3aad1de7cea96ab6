/**
 * The emulator's protocol over raw HTTP: auth and OAuth2 client credentials, api-version, routing, body
 * validation, fault injection (deterministic by seed), the rate limit, dropped connections, the state file,
 * the request log (never a secret), the control API and the CLI.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  createEmulator,
  defaultFaults,
  mulberry32,
  startEmulator,
  type Emulator,
  type FaultConfig,
} from "../../emulator";
import { FaultInjector } from "../../emulator/composition/faults";
import { main, parseArgs, type CliIo } from "../../emulator/cli";
import {
  CLIENT_ID,
  DEFAULT_DURATIONS,
  CLIENT_SECRET,
  PROJECT,
  TOKEN,
  kaasBody,
  raw,
  startHarness,
  type Harness,
} from "./support/harness";

let h: Harness;
let emu: Emulator;

beforeAll(async () => {
  h = await startHarness({ durations: DEFAULT_DURATIONS });
  emu = h.emulator;
});
afterAll(() => h.close());
beforeEach(() => emu.reset());

const problemType = (section: string) => `https://tools.ietf.org/html/rfc9110#section-${section}`;
const traceId = expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);

function tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}) {
  return raw(`${h.url}/oauth2/token`, {
    method: "POST",
    rawBody: new URLSearchParams(form).toString(),
    token: null,
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
  });
}

const credentials = { grant_type: "client_credentials", client_id: CLIENT_ID, client_secret: CLIENT_SECRET };

describe("authentication", () => {
  it("answers 401 problem details without a bearer token", async () => {
    const answer = await raw(`${h.api}/kaas`, { token: null });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(answer.json).toEqual({
      type: problemType("15.5.2"),
      title: "Unauthorized",
      status: 401,
      detail: "A bearer token is required (Authorization: Bearer <token>).",
      instance: `/projects/${PROJECT}/providers/Vendor.Container/kaas`,
      traceId,
    });
  });

  it("answers 401 for an unknown token", async () => {
    const answer = await raw(`${h.api}/kaas`, { token: "nope" });
    expect(answer.status).toBe(401);
    expect(answer.json.detail).toBe("The bearer token is not valid.");
  });

  it("issues OAuth2 client-credentials tokens that work until they expire or are revoked", async () => {
    const issued = await tokenRequest(credentials);
    expect(issued.status).toBe(200);
    expect(issued.headers.get("cache-control")).toBe("no-store");
    expect(issued.json).toEqual({
      access_token: expect.stringMatching(/^emu_at_[\w-]{32}$/),
      token_type: "Bearer",
      expires_in: 3600,
    });
    const token = issued.json.access_token;
    expect((await raw(`${h.api}/kaas`, { token })).status).toBe(200);

    emu.advanceClock(3_600_000);
    const expired = await raw(`${h.api}/kaas`, { token });
    expect(expired.status).toBe(401);
    expect(expired.json.detail).toBe("The bearer token has expired.");

    const fresh = (await tokenRequest(credentials)).json.access_token;
    expect(fresh).not.toBe(token);
    const revoked = await raw(`${h.url}/_emulator/tokens`, { method: "DELETE", token: null });
    expect(revoked.json).toEqual({ revoked: 2 });
    expect((await raw(`${h.api}/kaas`, { token: fresh })).json.detail).toBe("The bearer token is not valid.");
    // Static tokens are not affected.
    expect((await raw(`${h.api}/kaas`)).status).toBe(200);
  });

  it("accepts client credentials in HTTP Basic auth and honours the configured lifetime", async () => {
    emu.updateConfig({ tokenTtlSeconds: 60 });
    const basic = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64");
    const issued = await tokenRequest(
      { grant_type: "client_credentials" },
      { Authorization: `Basic ${basic}` },
    );
    expect(issued.status).toBe(200);
    expect(issued.json.expires_in).toBe(60);
  });

  it.each([
    [
      { ...credentials, client_secret: "wrong" },
      401,
      { error: "invalid_client", error_description: "Client authentication failed." },
    ],
    [
      { ...credentials, grant_type: "password" },
      400,
      {
        error: "unsupported_grant_type",
        error_description: "Only grant_type=client_credentials is supported.",
      },
    ],
    [
      { grant_type: "client_credentials" },
      400,
      { error: "invalid_request", error_description: "client_id and client_secret are required." },
    ],
  ])("refuses a token request %j with %i", async (form, status, body) => {
    const answer = await tokenRequest(form);
    expect(answer.status).toBe(status);
    expect(answer.json).toEqual(body);
  });
});

describe("protocol", () => {
  it.each(["", "?api-version=1", "?api-version=1.0"])("accepts api-version %s", async (query) => {
    expect((await raw(`${h.api}/kaas${query}`)).status).toBe(200);
  });

  it("refuses any other api-version with a 400 naming it", async () => {
    const answer = await raw(`${h.api}/kaas?api-version=2024-01-01`);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      type: problemType("15.5.1"),
      title: "Unsupported api-version.",
      status: 400,
      detail: 'api-version "2024-01-01" is not supported; use 1 or 1.0.',
      instance: `/projects/${PROJECT}/providers/Vendor.Container/kaas`,
      errors: [
        {
          fieldName: "api-version",
          errorMessage: '"2024-01-01" is not a supported version (supported: 1, 1.0)',
        },
      ],
      traceId,
    });
  });

  it.each([
    `/projects/${PROJECT}/providers/Vendor.Container/clusters`,
    `/projects/${PROJECT}/providers/Other.Container/kaas`,
    "/",
  ])("answers an unknown route %s with a 404 problem", async (route) => {
    const answer = await raw(`${h.url}${route}`);
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({
      type: problemType("15.5.5"),
      title: "Not Found",
      status: 404,
      detail: `No route matches GET ${route}.`,
      instance: route,
      traceId,
    });
  });

  it("answers a wrong method with a 405 problem and Allow", async () => {
    const answer = await raw(`${h.api}/kaas/kaas-0001`, { method: "PATCH", body: {} });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, PUT, DELETE");
    expect(answer.json).toMatchObject({ title: "Method Not Allowed", status: 405 });
  });

  it("serves a configured provider namespace", async () => {
    const other = await startEmulator({ port: 0, tokens: [TOKEN], namespace: "Acme.Container" });
    try {
      expect((await raw(`${other.url}/projects/p/providers/Acme.Container/kaas`)).status).toBe(200);
      expect((await raw(`${other.url}/projects/p/providers/Vendor.Container/kaas`)).status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it("validates bodies with the shared schemas and reports every problem as a field error", async () => {
    const body = kaasBody() as unknown as { properties: Record<string, unknown> };
    body.properties.colour = "blue";
    body.properties.nodePools = [{ name: "p", nodes: "two", instance: "K2A4", dataCenter: "ITBG-1" }];
    body.properties.ha = "yes";
    const answer = await raw(`${h.api}/kaas`, { method: "POST", body });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      type: problemType("15.5.1"),
      title: "One or more validation errors occurred.",
      status: 400,
      detail: "See the errors property for details.",
      instance: `/projects/${PROJECT}/providers/Vendor.Container/kaas`,
      errors: [
        { fieldName: "properties.colour", errorMessage: "is not an allowed property" },
        { fieldName: "properties.nodePools[0].nodes", errorMessage: "must be integer" },
        { fieldName: "properties.ha", errorMessage: "must be boolean" },
      ],
      traceId,
    });
    expect(emu.state().kaas).toEqual([]);
  });

  it("answers malformed JSON with a 400 without field errors", async () => {
    const answer = await raw(`${h.api}/kaas`, { method: "POST", rawBody: '{"metadata":' });
    expect(answer.status).toBe(400);
    expect(answer.json.title).toBe("The request body is not valid JSON.");
    expect(answer.json.errors).toBeUndefined();
  });

  it("answers a missing body with a field error on body", async () => {
    const answer = await raw(`${h.api}/kaas`, { method: "POST" });
    expect(answer.json.errors).toEqual([{ fieldName: "body", errorMessage: "must be object" }]);
  });

  it("checks a body before looking up the object it names: a bad update of a missing cluster answers 400", async () => {
    const answer = await raw(`${h.api}/kaas/kaas-9999`, {
      method: "PUT",
      body: { metadata: {}, properties: {} },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([{ fieldName: "metadata.name", errorMessage: "is required" }]);
  });

  it("ignores a body sent to an endpoint that takes none", async () => {
    const answer = await raw(`${h.api}/kaas/kaas-9999`, { method: "DELETE", body: { colour: "blue" } });
    expect(answer.status).toBe(404);
    expect(answer.json.detail).toBe('KaaS "kaas-9999" was not found.');
  });

  it("accepts application/json, text/json and application/*+json bodies, refuses others with 415", async () => {
    const post = (contentType: string) =>
      raw(`${h.api}/kaas`, {
        method: "POST",
        rawBody: JSON.stringify(kaasBody()),
        headers: { "Content-Type": contentType },
      });
    expect((await post("text/json")).status).toBe(201);
    expect((await post("application/vnd.vendor+json; charset=utf-8")).status).toBe(201);
    const refused = await post("text/plain");
    expect(refused.status).toBe(415);
    expect(refused.json.detail).toBe('Content-Type "text/plain" is not accepted; send application/json.');
  });
});

describe("fault injection", () => {
  async function statuses(faults: Partial<FaultConfig>, count = 30): Promise<number[]> {
    emu.setFaults(faults);
    const out: number[] = [];
    for (let i = 0; i < count; i++) out.push((await raw(`${h.api}/kaas`)).status);
    return out;
  }

  it("injects errors in a sequence determined by the seed", async () => {
    const faults = { seed: 42, errorRates: { 500: 0.2, 503: 0.2 } };
    const first = await statuses(faults);
    expect(await statuses(faults)).toEqual(first);
    expect(await statuses({ ...faults, seed: 43 })).not.toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 500, 503]));
    expect(first.filter((s) => s !== 200).length).toBeGreaterThan(5);
  });

  it("answers 429 and 503 with Retry-After, 502 and 504 as plain text like real gateways", async () => {
    emu.setFaults({ errorRates: { 429: 1 }, retryAfterSeconds: 2 });
    const limited = await raw(`${h.api}/kaas`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(limited.json).toMatchObject({
      title: "Too Many Requests",
      status: 429,
      detail: "Injected fault.",
    });
    emu.setFaults({ errorRates: { 503: 1 } });
    expect((await raw(`${h.api}/kaas`)).headers.get("retry-after")).toBe("1");
    emu.setFaults({ errorRates: { 502: 1 } });
    const gateway = await raw(`${h.api}/kaas`);
    expect([gateway.status, gateway.text, gateway.headers.get("content-type")]).toEqual([
      502,
      "Bad Gateway",
      "text/plain; charset=utf-8",
    ]);
    emu.setFaults({ errorRates: { 504: 1 } });
    expect((await raw(`${h.api}/kaas`)).text).toBe("Gateway Timeout");
  });

  it("rate-limits with a token bucket answering 429 with Retry-After", async () => {
    emu.setFaults({ rateLimit: { ratePerSecond: 1, burst: 3 } });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await raw(`${h.api}/kaas`));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
    expect(answers[3].headers.get("retry-after")).toBe("1");
    expect(answers[3].json.detail).toBe("Rate limit exceeded.");
  });

  it("adds latency", async () => {
    emu.setFaults({ latencyMs: 120 });
    const started = Date.now();
    await raw(`${h.api}/kaas`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(115);
  });

  it("drops connections before processing: nothing happens", async () => {
    emu.setFaults({ dropRate: 1 });
    await expect(raw(`${h.api}/kaas`, { method: "POST", body: kaasBody() })).rejects.toThrow("fetch failed");
    expect(emu.state().kaas).toEqual([]);
    expect(emu.requests()).toEqual([
      expect.objectContaining({ method: "POST", status: null, dropped: "before" }),
    ]);
  });

  it("drops connections after processing: the create happened, the client never learns it", async () => {
    emu.setFaults({ dropAfterProcessingRate: 1, methods: ["POST"] });
    await expect(raw(`${h.api}/kaas`, { method: "POST", body: kaasBody() })).rejects.toThrow("fetch failed");
    expect(emu.state().kaas).toHaveLength(1);
    expect(emu.requests()).toEqual([
      expect.objectContaining({ method: "POST", status: 201, dropped: "after" }),
    ]);
    // `methods` restricts the faults: GET is untouched.
    expect((await raw(`${h.api}/kaas`)).json.total).toBe(1);
  });

  it.each([
    [502, "text/plain; charset=utf-8", null, "Bad Gateway"],
    [
      503,
      "application/json; charset=utf-8",
      "1",
      {
        type: problemType("15.6.4"),
        title: "Service Unavailable",
        status: 503,
        detail: "Injected fault after processing.",
        instance: `/projects/${PROJECT}/providers/Vendor.Container/kaas`,
        traceId,
      },
    ],
    [504, "text/plain; charset=utf-8", null, "Gateway Timeout"],
  ] as const)(
    "processes a POST create, then answers %i instead of 201: the cluster exists",
    async (status, contentType, retryAfter, body) => {
      const faults = emu.setFaults({ errorAfterProcessingRates: { [status]: 1 }, methods: ["POST"] });
      expect(faults.errorAfterProcessingRates).toEqual({ [status]: 1 });

      const created = await raw(`${h.api}/kaas`, { method: "POST", body: kaasBody() });

      expect(created.status).toBe(status);
      expect(created.headers.get("content-type")).toBe(contentType);
      expect(created.headers.get("retry-after")).toBe(retryAfter);
      expect(typeof body === "string" ? created.text : created.json).toEqual(body);
      // `methods` restricts the fault to POST: the list answers, and shows the one cluster the POST created.
      const listed = await raw(`${h.api}/kaas`);
      expect(listed.status).toBe(200);
      expect(listed.json.total).toBe(1);
      expect(listed.json.values.map((v: { metadata: { id: string; name: string } }) => v.metadata)).toEqual([
        expect.objectContaining({ id: "kaas-0001", name: "prod" }),
      ]);
      expect(emu.requests().map((r) => [r.method, r.status, r.processedStatus, r.dropped])).toEqual([
        ["POST", status, 201, undefined],
        ["GET", 200, undefined, undefined],
      ]);
    },
  );

  it("answers a status after processing only for requests that were processed", async () => {
    emu.setFaults({ errorRates: { 429: 1 }, errorAfterProcessingRates: { 502: 1 } });
    const limited = await raw(`${h.api}/kaas`, { method: "POST", body: kaasBody() });
    expect(limited.status).toBe(429);
    expect(emu.state().kaas).toEqual([]);
    expect(emu.requests().map((r) => [r.status, r.processedStatus])).toEqual([[429, undefined]]);
  });

  it("decides the status after processing from the fourth draw, in bands after the drop band", () => {
    const rates = { 502: 0.1, 503: 0.2, 504: 0.1 };
    const config = { ...defaultFaults(), seed: 9, dropAfterProcessingRate: 0.2 };
    const withDrops = new FaultInjector(config, () => 0);
    const withBoth = new FaultInjector({ ...config, errorAfterProcessingRates: rates }, () => 0);
    const random = mulberry32(9);
    const expected: [boolean, number | undefined][] = [];
    const drops: boolean[] = [];
    const decided: [boolean, number | undefined][] = [];
    for (let i = 0; i < 200; i++) {
      random();
      random();
      random();
      const r = random();
      const band = r < 0.2 ? "drop" : r < 0.3 ? 502 : r < 0.5 ? 503 : r < 0.6 ? 504 : undefined;
      expected.push([band === "drop", band === "drop" ? undefined : band]);
      drops.push(withDrops.decide("POST").dropAfter);
      const decision = withBoth.decide("POST");
      decided.push([decision.dropAfter, decision.statusAfter]);
    }
    expect(decided).toEqual(expected);
    // Adding statuses after processing changes no other decision of the seed: the same requests are dropped.
    expect(decided.map(([dropped]) => dropped)).toEqual(drops);
    expect(new Set(decided.map(([, after]) => after))).toEqual(new Set([undefined, 502, 503, 504]));
  });

  it("never applies faults to the control API or the token endpoint", async () => {
    emu.setFaults({ errorRates: { 500: 1 }, dropRate: 0 });
    expect((await raw(`${h.url}/_emulator/state`, { token: null })).status).toBe(200);
    expect((await tokenRequest(credentials)).status).toBe(200);
    expect((await raw(`${h.api}/kaas`)).status).toBe(500);
  });

  it("refuses an invalid fault configuration with a 400", async () => {
    const answer = await raw(`${h.url}/_emulator/faults`, {
      method: "PUT",
      body: { errorRates: { 418: 0.5, 500: 0.9 } },
      token: null,
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([
      {
        fieldName: "errorRates.418",
        errorMessage: "is not injectable (injectable: 429, 500, 502, 503, 504)",
      },
      { fieldName: "errorRates", errorMessage: "must sum to at most 1" },
    ]);
    expect((await raw(`${h.url}/_emulator/faults`, { token: null })).json.errorRates).toEqual({});
  });

  it("refuses provisioning of a kind the emulator does not have with a 400 naming the kinds", async () => {
    const answer = await raw(`${h.url}/_emulator/faults`, {
      method: "PUT",
      body: { provisioning: { kaas: "fail", nosuch: "fail" } },
      token: null,
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([
      { fieldName: "provisioning.nosuch", errorMessage: "is not a kind (kinds: kaas, registry, backup)" },
    ]);
    expect((await raw(`${h.url}/_emulator/faults`, { token: null })).json.provisioning).toEqual({
      kaas: "ok",
      registry: "ok",
      backup: "ok",
    });
  });

  it("sets statuses after processing through the control API and refuses invalid ones with a 400", async () => {
    const put = (body: unknown) => raw(`${h.url}/_emulator/faults`, { method: "PUT", body, token: null });
    const accepted = await put({ errorAfterProcessingRates: { 503: 0.5, 504: 0.25 }, methods: ["POST"] });
    expect(accepted.status).toBe(200);
    expect(accepted.json.errorAfterProcessingRates).toEqual({ 503: 0.5, 504: 0.25 });

    const refused = await put({ errorAfterProcessingRates: { 500: 0.5, 503: 0.9, 429: "x" } });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual([
      {
        fieldName: "errorAfterProcessingRates.429",
        errorMessage: "is not injectable after processing (injectable: 502, 503, 504)",
      },
      { fieldName: "errorAfterProcessingRates.429", errorMessage: "must be a number between 0 and 1" },
      {
        fieldName: "errorAfterProcessingRates.500",
        errorMessage: "is not injectable after processing (injectable: 502, 503, 504)",
      },
      { fieldName: "errorAfterProcessingRates", errorMessage: "must sum to at most 1" },
    ]);
    const withDrops = await put({ dropAfterProcessingRate: 0.5, errorAfterProcessingRates: { 502: 0.6 } });
    expect(withDrops.json.errors).toEqual([
      {
        fieldName: "errorAfterProcessingRates",
        errorMessage: "must sum to at most 1 together with dropAfterProcessingRate (0.5)",
      },
    ]);
    const notAnObject = await put({ errorAfterProcessingRates: [503] });
    expect(notAnObject.json.errors).toEqual([
      { fieldName: "errorAfterProcessingRates", errorMessage: "must be an object of status to probability" },
    ]);
    // Refusals leave the configuration as it was.
    expect(emu.getFaults().errorAfterProcessingRates).toEqual({ 503: 0.5, 504: 0.25 });
  });
});

describe("state file", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-state-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("survives a restart: resources, their lifecycle, the clock offset and the id counters", async () => {
    const stateFile = path.join(dir, "nested", "state.json");
    const first = await startEmulator({ port: 0, tokens: [TOKEN], stateFile });
    const api = `${first.url}/projects/${PROJECT}/providers/Vendor.Container`;
    const body = kaasBody("persisted", {
      identity: { clientId: "id-1", clientSecret: "never-persisted-secret" },
    });
    expect((await raw(`${api}/kaas`, { method: "POST", body })).status).toBe(201);
    first.emulator.advanceClock(60_000);
    const before = (await raw(`${api}/kaas/kaas-0001`)).json;
    await first.close();
    expect(fs.readFileSync(stateFile, "utf8")).not.toContain("never-persisted-secret");

    const second = await startEmulator({ port: 0, tokens: [TOKEN], stateFile });
    try {
      const api2 = `${second.url}/projects/${PROJECT}/providers/Vendor.Container`;
      const after = (await raw(`${api2}/kaas/kaas-0001`)).json;
      expect(after).toEqual(before);
      expect(after.status.state).toBe("Active");
      expect(second.emulator.clock.offsetMs).toBe(60_000);
      expect((await raw(`${api2}/kaas`, { method: "POST", body: kaasBody("next") })).json.metadata.id).toBe(
        "kaas-0002",
      );
    } finally {
      await second.close();
    }
  });

  it("refuses to start with invalid options", () => {
    expect(() =>
      createEmulator({ faults: { errorRates: { 503: 2 } }, durations: { kaasCreateMs: -5 } }),
    ).toThrow(
      "invalid emulator options: durations.kaasCreateMs: must be a number >= 0; errorRates.503: must be a number between 0 and 1; errorRates: must sum to at most 1",
    );
    expect(() =>
      createEmulator({
        faults: { errorAfterProcessingRates: { 500: 0.5 } as FaultConfig["errorAfterProcessingRates"] },
      }),
    ).toThrow(
      "invalid emulator options: errorAfterProcessingRates.500: is not injectable after processing (injectable: 502, 503, 504)",
    );
  });

  it("refuses to start on a state file that is not JSON", () => {
    const stateFile = path.join(dir, "broken.json");
    fs.writeFileSync(stateFile, "{nope");
    expect(() => createEmulator({ stateFile })).toThrow(`cannot read emulator state file ${stateFile}:`);
  });
});

describe("request log", () => {
  it("records method, path, query, status and whether the call mutates; never the control API", async () => {
    await raw(`${h.api}/kaas?api-version=1&limit=5`);
    await raw(`${h.api}/kaas`, { method: "POST", body: kaasBody() });
    await raw(`${h.url}/_emulator/state`, { token: null });
    const log = (await raw(`${h.url}/_emulator/requests`, { token: null })).json.requests;
    expect(log).toEqual([
      {
        seq: 1,
        time: expect.any(String),
        method: "GET",
        path: `/projects/${PROJECT}/providers/Vendor.Container/kaas`,
        query: { "api-version": "1", limit: "5" },
        status: 200,
        mutating: false,
      },
      {
        seq: 2,
        time: expect.any(String),
        method: "POST",
        path: `/projects/${PROJECT}/providers/Vendor.Container/kaas`,
        query: {},
        status: 201,
        state: "InCreation",
        mutating: true,
      },
    ]);
    expect((await raw(`${h.url}/_emulator/requests`, { method: "DELETE", token: null })).status).toBe(204);
    expect(emu.requests()).toEqual([]);
  });

  it("never holds a secret: tokens, client secrets, identity secrets, kubeconfig credentials", async () => {
    const access = (await tokenRequest(credentials)).json.access_token;
    const body = kaasBody("prod", { identity: { clientId: "cid", clientSecret: "identity-secret-value" } });
    await raw(`${h.api}/kaas`, { method: "POST", body, token: access });
    emu.advanceClock(10_000);
    const download = await raw(`${h.api}/kaas/kaas-0001/download`, { token: access });
    const kubeconfig = Buffer.from(download.json.content, "base64").toString("utf8");
    expect(kubeconfig).toContain(emu.kubeconfigToken("kaas-0001"));
    await raw(`${h.api}/kaas?access_token=${access}`, { token: access });

    const logText = (await raw(`${h.url}/_emulator/requests`, { token: null })).text;
    const stateText = (await raw(`${h.url}/_emulator/state`, { token: null })).text;
    for (const secret of [
      access,
      TOKEN,
      CLIENT_SECRET,
      "identity-secret-value",
      emu.kubeconfigToken("kaas-0001"),
      download.json.content,
    ]) {
      expect(logText).not.toContain(secret);
      expect(stateText).not.toContain(secret);
    }
    expect(logText).not.toContain("Bearer");
    expect(emu.requests().map((r) => r.query)).toContainEqual({ access_token: "[redacted]" });
  });
});

describe("control API", () => {
  const control = (route: string, method = "GET", body?: unknown) =>
    raw(`${h.url}/_emulator${route}`, { method, body, token: null });

  it("reads and moves the clock", async () => {
    expect((await control("/clock")).json.offsetMs).toBe(0);
    const advanced = await control("/clock", "POST", { advanceMs: 90_000 });
    expect(advanced.json.offsetMs).toBe(90_000);
    const set = await control("/clock", "POST", { setNow: "2031-05-01T12:00:00.000Z" });
    expect(set.json.now.slice(0, 16)).toBe("2031-05-01T12:00");
    expect((await control("/clock", "POST", { advanceMs: "soon" })).json.errors).toEqual([
      { fieldName: "advanceMs", errorMessage: "must be a number" },
    ]);
  });

  it("merges configuration changes and refuses unknown keys", async () => {
    const merged = await control("/config", "PUT", {
      durations: { kaasCreateMs: 5 },
      volumeSizesGb: { "/v/x": 40 },
    });
    expect(merged.json.durations).toMatchObject({ kaasCreateMs: 5, kaasUpdateMs: 600 });
    expect(merged.json.volumeSizesGb).toEqual({ "/v/x": 40 });
    const refused = await control("/config", "PUT", { colour: "blue" });
    expect(refused.status).toBe(400);
    expect(refused.json.errors[0].fieldName).toBe("colour");
    const negative = await control("/config", "PUT", { durations: { attachMs: -1 } });
    expect(negative.json.errors).toEqual([
      { fieldName: "durations.attachMs", errorMessage: "must be a number >= 0" },
    ]);
    expect(emu.getConfig().durations.attachMs).toBe(300);
  });

  it("patches stored resources out of band and scales pools like an autoscaler", async () => {
    await raw(`${h.api}/kaas`, { method: "POST", body: kaasBody() });
    const failed = await control("/resources/kaas/kaas-0001", "PATCH", {
      state: "Failed",
      failureReason: "disk lost",
      properties: { maxCumulativeVolumeSize: 50 },
    });
    expect(failed.json.status).toMatchObject({ state: "Failed", failureReason: "disk lost" });
    expect(failed.json.properties.storage).toEqual({ maxCumulativeVolumeSize: 50 });
    const scaled = await control("/kaas/kaas-0001/nodePools/default/scale", "POST", { nodes: 3 });
    expect(scaled.json.properties.nodePools[0].nodeIds).toEqual([
      "kaas-0001-default-1",
      "kaas-0001-default-2",
      "kaas-0001-default-3",
    ]);
    expect((await control("/resources/kaas/kaas-0404", "PATCH", {})).status).toBe(404);
  });

  it("resets everything", async () => {
    await raw(`${h.api}/kaas`, { method: "POST", body: kaasBody() });
    emu.setFaults({ latencyMs: 5 });
    expect((await control("/reset", "POST")).status).toBe(204);
    expect((await control("/state")).json).toEqual({
      now: expect.any(String),
      counters: { kaas: 0, backup: 0, registry: 0 },
      kaas: [],
      backups: [],
      registries: [],
    });
    expect(emu.getFaults().latencyMs).toBe(0);
  });

  it("answers unknown control routes with a 404 problem", async () => {
    expect((await control("/health")).json).toEqual({ ok: true });
    const answer = await control("/nope");
    expect(answer.status).toBe(404);
    expect(answer.json.detail).toBe("No control route matches GET /_emulator/nope.");
  });
});

describe("command line", () => {
  it("parses every option", () => {
    expect(
      parseArgs([
        "--port",
        "0",
        "--host",
        "127.0.0.1",
        "--state",
        "s.json",
        "--token",
        "a",
        "--token",
        "b",
        "--client-id",
        "x",
        "--client-secret",
        "y",
        "--create-ms",
        "10",
        "--error-rate",
        "503=0.1",
        "--rate-limit",
        "5/10",
        "--provisioning",
        "kaas=fail",
        "--seed",
        "9",
      ]),
    ).toEqual({
      port: 0,
      host: "127.0.0.1",
      stateFile: "s.json",
      tokens: ["a", "b"],
      clients: [{ clientId: "x", clientSecret: "y" }],
      seed: 9,
      durations: { kaasCreateMs: 10, registryCreateMs: 10, backupCreateMs: 10 },
      faults: {
        errorRates: { 503: 0.1 },
        rateLimit: { ratePerSecond: 5, burst: 10 },
        provisioning: { kaas: "fail", registry: "ok", backup: "ok" },
      },
    });
  });

  function fakeIo() {
    const io = {
      out: [] as string[],
      err: [] as string[],
      exits: [] as number[],
      handlers: new Map<string, () => void>(),
    };
    const cli: CliIo = {
      stdout: (line) => io.out.push(line),
      stderr: (line) => io.err.push(line),
      onSignal: (signal, handler) => io.handlers.set(signal, handler),
      exit: (code) => io.exits.push(code),
    };
    return { io, cli };
  }

  it("prints exactly one line when listening and persists and exits 0 on SIGTERM", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-cli-"));
    const stateFile = path.join(dir, "state.json");
    const { io, cli } = fakeIo();
    try {
      const running = await main(
        ["--port", "0", "--state", stateFile, "--token", "cli-token", "--fast"],
        cli,
      );
      expect(io.out).toEqual([`Emulator listening on ${running?.url}`]);
      expect(io.out[0]).toMatch(/^Emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
      const api = `${running?.url}/projects/p/providers/Vendor.Container`;
      expect(
        (await raw(`${api}/kaas`, { method: "POST", body: kaasBody(), token: "cli-token" })).status,
      ).toBe(201);
      fs.rmSync(stateFile);
      io.handlers.get("SIGTERM")?.();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(io.exits).toEqual([0]);
      expect(JSON.parse(fs.readFileSync(stateFile, "utf8")).kaas).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exits 2 with the usage on an unknown option", async () => {
    const { io, cli } = fakeIo();
    expect(await main(["--colour"], cli)).toBeUndefined();
    expect(io.exits).toEqual([2]);
    expect(io.err[0]).toMatch(/^error: unknown option --colour\n\nUsage: pulumi-vendor-container-emulator/);
  });
});
