/**
 * Redaction: registered secrets (and their base64 form), bearer headers and secret-named fields never leave
 * the package, while ordinary validation messages about secret-named fields stay readable. The last block
 * drives the choke point and the token exchange against servers that echo secrets back.
 */
import { ClientCredentialsTokenSource, StaticTokenSource, type TokenSource } from "../../rest/auth";
import { keepAliveTransport } from "../../rest/transport";
import { VendorContainerClient } from "../../rest/client";
import { VendorApiError } from "../../rest/errors";
import { HttpClient } from "../../rest/http";
import { REDACTED, redact, registerSecret } from "../../rest/redact";
import { resolveSettings } from "../../rest/settings";
import { KaasInsert } from "../../schemas";
import { fakeTime } from "./support/fake-time";
import {
  json,
  startScriptedServer,
  text,
  type RecordedRequest,
  type ScriptedServer,
  type Step,
} from "./support/scripted-server";
import { ALL_SECRETS, API_TOKEN, CLIENT_ID, CLIENT_SECRET, ErrorLog } from "./support/secrets";

const b64 = (value: string) => Buffer.from(value, "utf8").toString("base64");

describe("redact", () => {
  it("prints the placeholder [redacted]", () => {
    expect(REDACTED).toBe("[redacted]");
  });

  it("removes every occurrence of a registered secret", () => {
    registerSecret("registered-secret-a1");
    expect(redact("x registered-secret-a1 y registered-secret-a1")).toBe("x [redacted] y [redacted]");
  });

  it("registers the trimmed value", () => {
    registerSecret("  padded-secret-b2 \n");
    expect(redact("value=padded-secret-b2.")).toBe("value=[redacted].");
  });

  it("ignores values shorter than 4 characters, which would blank out ordinary words", () => {
    registerSecret("abc");
    expect(redact("abc abcd")).toBe("abc abcd");
  });

  it("ignores a missing value", () => {
    registerSecret(undefined);
    registerSecret(null);
    expect(redact("nothing to hide")).toBe("nothing to hide");
  });

  it("also removes the base64 form of a secret of 16 characters or more", () => {
    registerSecret("sixteen-chars-c3");
    expect(redact(`content ${b64("sixteen-chars-c3")}`)).toBe("content [redacted]");
  });

  it("does not register the base64 form of a shorter secret", () => {
    registerSecret("fifteen-chars-d");
    expect(redact(b64("fifteen-chars-d"))).toBe(b64("fifteen-chars-d"));
  });

  it("removes the longest secret first, so a secret containing another goes whole", () => {
    registerSecret("nested-e5");
    registerSecret("nested-e5-and-more");
    expect(redact("nested-e5-and-more, nested-e5")).toBe("[redacted], [redacted]");
  });

  it.each([
    ["Authorization: Bearer abc.def-ghi_jkl~+/=", "Authorization: Bearer [redacted]"],
    ["authorization=Bearer   eyJhbGciOi.eyJzdWIi.c2lnbmF0dXJl", "authorization=Bearer   [redacted]"],
  ])("removes a bearer token from %j", (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  it.each([
    [
      '{"access_token":"eyJhbG","token_type":"Bearer","expires_in":3600}',
      '{"access_token":"[redacted]","token_type":"Bearer","expires_in":3600}',
    ],
    [
      '{"password": "hunter22", "content": "YXBpVmVyc2lvbg=="}',
      '{"password": "[redacted]", "content": "[redacted]"}',
    ],
    ['{"clientSecret":"cs-1","Token": "t-1"}', '{"clientSecret":"[redacted]","Token": "[redacted]"}'],
    ['{"kubeconfig":null}', '{"kubeconfig":[redacted]}'],
    [
      "grant_type=client_credentials&client_id=id-1&client_secret=s3cr3t",
      "grant_type=client_credentials&client_id=id-1&client_secret=[redacted]",
    ],
    ["GET /download?token=abc123&x=1", "GET /download?token=[redacted]&x=1"],
    [
      "users:\n- name: admin\n  user:\n    token: abc123\n",
      "users:\n- name: admin\n  user:\n    token: [redacted]\n",
    ],
  ])("removes secret-named fields from %j", (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  it.each([
    ["/properties/identity/clientSecret: must be string"],
    ["properties.identity.clientSecret: must not be empty"],
    ["POST /oauth/token failed (auth): the token endpoint refused the client credentials (HTTP 401)"],
    ['{"token_type":"Bearer","name":"content-team"}'],
  ])("leaves %j readable", (input) => {
    expect(redact(input)).toBe(input);
  });
});

describe("error messages", () => {
  it("are redacted when built", () => {
    registerSecret("detail-secret-f6");
    const error = new VendorApiError({
      kind: "http",
      method: "GET",
      path: "/kaas/k-1",
      status: 500,
      detail: "echo detail-secret-f6 and Bearer xyz",
    });
    expect(error.message).toBe(
      "GET /kaas/k-1 failed (500 Internal Server Error): echo [redacted] and Bearer [redacted]",
    );
  });

  it("keep a validation problem about clientSecret readable", () => {
    const error = VendorApiError.validation("POST", "/kaas", [
      { path: "/properties/identity/clientSecret", message: "must be string" },
    ]);
    expect(error.message).toBe(
      "POST /kaas not sent: invalid request body: /properties/identity/clientSecret: must be string",
    );
  });
});

describe("the client registers exactly its secrets", () => {
  it("registers the static token but not the word placeholder", () => {
    const settings = resolveSettings(() => undefined, {
      VENDOR_BASE_URL: "http://127.0.0.1:1",
      VENDOR_TOKEN: "client-static-token-g7",
    });
    new VendorContainerClient(settings);
    expect(redact("client-static-token-g7 placeholder")).toBe("[redacted] placeholder");
  });
});

describe("secrets echoed back by the service never reach an error message", () => {
  const log = new ErrorLog();
  const servers: ScriptedServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  async function serve(script: Step[] | ((request: RecordedRequest) => Step)) {
    const server = await startScriptedServer(script);
    servers.push(server);
    return server;
  }

  function clientFor(server: ScriptedServer, tokenSource: TokenSource = new StaticTokenSource(API_TOKEN)) {
    return new HttpClient({
      baseUrl: server.url,
      apiVersion: "1",
      providerNamespace: "Vendor.Container",
      tokenSource,
      requestTimeoutMs: 2_000,
      callDeadlineMs: 120_000,
      retry: {
        baseDelayMs: 100,
        maxDelayMs: 1_000,
        maxRetryAfterMs: 10_000,
        maxAttempts: 2,
        retryAfterJitterMs: 0,
      },
      random: () => 0.5,
      sleep: fakeTime().sleep,
    });
  }

  const create = { method: "POST" as const, projectId: "p-1", path: "/kaas", idempotent: false };

  it("redacts an Authorization header echoed in a plain-text 502", async () => {
    const server = await serve((request) =>
      text(502, `upstream saw Authorization: ${String(request.headers.authorization)}`),
    );

    const error = await log.rejectionOf(clientFor(server).request({ ...create, body: {} }));

    expect(error.message).toBe(
      "POST /kaas failed (502 Bad Gateway): upstream saw Authorization: Bearer [redacted]",
    );
  });

  it("redacts a raw token echoed in a problem detail and in field errors", async () => {
    const server = await serve([
      json(400, {
        title: "Bad Request",
        errors: [{ fieldName: "token", errorMessage: `token ${API_TOKEN} is not valid here` }],
      }),
    ]);

    const error = await log.rejectionOf(clientFor(server).request({ ...create, body: {} }));

    expect(error.message).toBe(
      "POST /kaas failed (400 Bad Request): token: token [redacted] is not valid here",
    );
  });

  it("redacts a client secret of a request body echoed by a failing create", async () => {
    const identitySecret = "cluster-identity-secret-h8";
    registerSecret(identitySecret); // as VendorContainerClient.createKaas does before sending
    const body = {
      metadata: { name: "prod" },
      properties: {
        nodeCidr: { address: "10.0.0.0/16", name: "nodes" },
        kubernetesVersion: { value: "1.32.3" },
        nodePools: [{ name: "pool-1", nodes: 1, instance: "K2A4", dataCenter: "ITBG-1" }],
        identity: { clientId: "cluster-identity", clientSecret: identitySecret },
      },
    };
    const server = await serve((request) =>
      text(500, `could not process ${JSON.stringify(JSON.parse(request.body).properties.identity)}`),
    );

    const error = await log.rejectionOf(
      clientFor(server).request({ ...create, body, bodySchema: KaasInsert }),
    );

    expect(error.message).toBe(
      'POST /kaas failed (500 Internal Server Error): could not process {"clientId":"cluster-identity","clientSecret":"[redacted]"}',
    );
  });

  it("redacts the access token the service echoes after a 401 refresh, and the client secret of the exchange", async () => {
    const accessToken = "echoed-access-token-i9";
    const tokens = await serve([json(200, { access_token: accessToken, expires_in: 3600 })]);
    const api = await serve((request) =>
      json(401, {
        title: "Unauthorized",
        detail: `rejected ${String(request.headers.authorization)} for ${CLIENT_SECRET}`,
      }),
    );
    const source = new ClientCredentialsTokenSource(keepAliveTransport(), {
      tokenUrl: `${tokens.url}/token`,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
    });

    const error = await log.rejectionOf(clientFor(api, source).request({ ...create, body: {} }));

    expect(error.message).toBe(
      "POST /kaas failed (401 Unauthorized): Unauthorized: rejected Bearer [redacted] for [redacted]. " +
        "Check the credentials in stack config vendor:clientId, vendor:clientSecret and vendor:tokenUrl " +
        "(or VENDOR_CLIENT_ID, VENDOR_CLIENT_SECRET and VENDOR_TOKEN_URL)",
    );
    expect(redact(accessToken)).toBe(REDACTED);
  });

  it("leaves no secret in any message collected above", () => {
    expect(log.messages).toHaveLength(4);
    expect(log.leaks([...ALL_SECRETS, "cluster-identity-secret-h8", "echoed-access-token-i9"])).toEqual([]);
  });
});
