/**
 * The refresh margin of OAuth2 tokens scales with their lifetime: a tenth of it, at most a minute (or the
 * configured `refreshSkewMs`), so a token that lives 60 s or less is not fetched again on every call.
 */
import { ClientCredentialsTokenSource, DEFAULT_REFRESH_SKEW_MS, refreshMarginMs } from "../../rest/auth";
import { keepAliveTransport } from "../../rest/transport";
import { fakeTime } from "./support/fake-time";
import { json, startScriptedServer, type ScriptedServer } from "./support/scripted-server";
import { ACCESS_TOKEN_1, ACCESS_TOKEN_2, CLIENT_ID, CLIENT_SECRET } from "./support/secrets";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const grant = (accessToken: string, expiresIn: number) =>
  json(200, { access_token: accessToken, token_type: "Bearer", expires_in: expiresIn });

async function sourceFor(expiresIn: number, options: { refreshSkewMs?: number } = {}) {
  const server = await startScriptedServer([
    grant(ACCESS_TOKEN_1, expiresIn),
    grant(ACCESS_TOKEN_2, expiresIn),
  ]);
  servers.push(server);
  const time = fakeTime(0);
  const source = new ClientCredentialsTokenSource(keepAliveTransport(), {
    tokenUrl: `${server.url}/oauth/token`,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    now: time.now,
    ...options,
  });
  return { source, time };
}

describe("refreshMarginMs", () => {
  it.each([
    [3_600_000, 60_000],
    [600_000, 60_000],
    [300_000, 30_000],
    [60_000, 6_000],
    [30_000, 3_000],
    [10_000, 1_000],
    [1_000, 100],
    [0, 0],
  ])("refreshes a token living %i ms %i ms before it expires", (lifetime, margin) => {
    expect(refreshMarginMs(lifetime)).toBe(margin);
  });

  it("caps the margin at the given skew", () => {
    expect(refreshMarginMs(3_600_000, 1_000)).toBe(1_000);
    expect(refreshMarginMs(5_000, 1_000)).toBe(500);
    expect(refreshMarginMs(3_600_000, 0)).toBe(0);
  });

  it("defaults the cap to 60 s", () => {
    expect(DEFAULT_REFRESH_SKEW_MS).toBe(60_000);
  });
});

describe("ClientCredentialsTokenSource with short-lived tokens", () => {
  it("keeps a 60 s token for 54 s, then fetches the next one", async () => {
    const { source, time } = await sourceFor(60);

    expect(await source.getToken()).toBe(ACCESS_TOKEN_1);
    time.advance(54_000 - 1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_1);
    expect(source.exchanges).toBe(1);
    time.advance(1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_2);
    expect(source.exchanges).toBe(2);
  });

  it("keeps a 10 s token for 9 s", async () => {
    const { source, time } = await sourceFor(10);

    await source.getToken();
    time.advance(9_000 - 1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_1);
    time.advance(1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_2);
    expect(source.exchanges).toBe(2);
  });

  it("serves ten calls a second apart with one 60 s token", async () => {
    const { source, time } = await sourceFor(60);

    for (let call = 0; call < 10; call++) {
      expect(await source.getToken()).toBe(ACCESS_TOKEN_1);
      time.advance(1_000);
    }
    expect(source.exchanges).toBe(1);
  });

  it("refreshes an hour-long token a full minute early", async () => {
    const { source, time } = await sourceFor(3600);

    await source.getToken();
    time.advance(3_540_000 - 1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_1);
    time.advance(1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_2);
  });

  it("takes refreshSkewMs as the cap of the margin", async () => {
    const { source, time } = await sourceFor(3600, { refreshSkewMs: 5_000 });

    await source.getToken();
    time.advance(3_595_000 - 1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_1);
    time.advance(1);
    expect(await source.getToken()).toBe(ACCESS_TOKEN_2);
  });
});
