/**
 * Holds of the control API (`emulator/holds.ts`): the `nth` API request matching a hold waits before it is
 * processed, or after with its answer withheld, until the hold is released; meanwhile everything else is
 * served. A held request whose client went away is not processed (`before`) or not answered (`after`).
 */
import http from "node:http";
import type { Emulator, RequestLogEntry } from "../../emulator";
import {
  DEFAULT_DURATIONS,
  PROJECT,
  TOKEN,
  kaasBody,
  raw,
  startHarness,
  type Harness,
  type RawResponse,
} from "./support/harness";

let h: Harness;
let emu: Emulator;

/** Real time is pinned: only clock jumps move the emulator's time. */
const T0 = Date.parse("2030-01-01T00:00:00.000Z");
const KAAS = `/projects/${PROJECT}/providers/Vendor.Container/kaas`;

beforeAll(async () => {
  h = await startHarness({ realNow: () => T0, durations: { ...DEFAULT_DURATIONS, kaasCreateMs: 1000 } });
  emu = h.emulator;
});
afterAll(() => h.close());
beforeEach(() => emu.reset());

const control = (path: string, init: { method?: string; body?: unknown } = {}) =>
  raw(`${h.url}/_emulator${path}`, { ...init, token: null });
const post = (body = kaasBody()) => raw(`${h.url}${KAAS}`, { method: "POST", body });
const liveIds = () => emu.state().kaas.map((k) => k.metadata.id);

/** True when `promise` has settled by the time the event loop has had a few turns. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

/**
 * A POST sent with `node:http` whose client can be killed: `kill()` destroys its connection, as the death of
 * the process that sent it does. `answer` resolves with the status, or null once killed.
 */
function killablePost(body = kaasBody()): { answer: Promise<number | null>; kill: () => void } {
  const text = JSON.stringify(body);
  const req = http.request(`${h.url}${KAAS}`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${TOKEN}`,
      "Content-Type": "application/json",
      "Content-Length": String(Buffer.byteLength(text)),
    },
  });
  const answer = new Promise<number | null>((resolve) => {
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    req.on("error", () => resolve(null));
  });
  req.end(text);
  return { answer, kill: () => req.destroy() };
}

/** Waits until the log holds the request `seq` (a released request is logged once it is done). */
async function untilLogged(seq: number): Promise<RequestLogEntry> {
  for (;;) {
    const entry = emu.requests().find((r) => r.seq === seq);
    if (entry) return entry;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("a hold before processing", () => {
  it("holds the nth matching request unprocessed while everything else is served, then lets it go on", async () => {
    const hold = emu.hold({ method: "post", pathPattern: `${KAAS}`, nth: 2 });
    expect(hold.id).toBe("hold-1");
    expect((await post()).status).toBe(201);
    const second = post(kaasBody("second"));
    const held = await hold.reached;
    expect(held).toEqual({
      seq: 2,
      time: "2030-01-01T00:00:00.000Z",
      method: "POST",
      path: KAAS,
      query: {},
      status: null,
      mutating: true,
    });
    // Nothing of the held request is applied; the API, the control API and other holds go on.
    expect(liveIds()).toEqual(["kaas-0001"]);
    expect((await raw(`${h.url}${KAAS}/kaas-0001`)).json.status.state).toBe("InCreation");
    expect((await control("/health")).json).toEqual({ ok: true });
    expect(await settled(second)).toBe(false);
    expect(emu.requests().map((r) => r.seq)).toEqual([1, 3]);

    expect(hold.release()).toEqual({
      id: "hold-1",
      method: "post",
      pathPattern: KAAS,
      bodyPattern: null,
      state: null,
      nth: 2,
      when: "before",
      matched: 2,
      reached: true,
      released: true,
      clientGone: false,
      request: held,
    });
    const answer: RawResponse = await second;
    expect(answer.status).toBe(201);
    expect(answer.json.metadata.id).toBe("kaas-0002");
    expect(liveIds()).toEqual(["kaas-0001", "kaas-0002"]);
    // A hold holds one request: the third passes.
    expect((await post(kaasBody("third"))).status).toBe(201);
  });

  it("never processes a held request whose client went away: the log records it dropped before", async () => {
    const hold = emu.hold({ method: "POST" });
    const client = killablePost();
    const held = await hold.reached;
    expect(hold.status().clientGone).toBe(false);
    client.kill();
    expect(await client.answer).toBeNull();
    await hold.clientGone;
    expect(hold.release()).toMatchObject({ clientGone: true, released: true });
    expect(await untilLogged(held!.seq)).toMatchObject({ seq: 1, status: null, dropped: "before" });
    expect(liveIds()).toEqual([]);
    // The emulator goes on serving.
    expect((await post()).json.metadata.id).toBe("kaas-0001");
  });

  it("tells requests on one path apart by bodyPattern, matched anywhere in the body", async () => {
    const hold = emu.hold({ method: "POST", pathPattern: KAAS, bodyPattern: '"name":"second"' });
    expect((await post(kaasBody("first"))).status).toBe(201);
    const second = post(kaasBody("second"));
    expect(await hold.reached).toMatchObject({ seq: 2, method: "POST" });
    expect(hold.status()).toMatchObject({ matched: 1, bodyPattern: '"name":"second"' });
    expect(liveIds()).toEqual(["kaas-0001"]);
    hold.release();
    expect((await second).json.metadata.name).toBe("second");
  });

  it("matches the whole path against pathPattern, and counts only the requests that match", async () => {
    const hold = emu.hold({ pathPattern: `${KAAS}/[^/]+` });
    expect((await raw(`${h.url}${KAAS}`)).status).toBe(200);
    expect((await raw(`${h.url}${KAAS}/kaas-0009/download`)).status).toBe(404);
    expect(hold.status()).toMatchObject({ matched: 0, reached: false });
    const read = raw(`${h.url}${KAAS}/kaas-0009`);
    expect((await hold.reached)?.path).toBe(`${KAAS}/kaas-0009`);
    hold.release();
    expect((await read).status).toBe(404);
  });
});

describe("a hold after processing", () => {
  it("applies the request and withholds its answer until released", async () => {
    const hold = emu.hold({ method: "POST", when: "after" });
    const answer = post();
    const held = await hold.reached;
    expect(held).toMatchObject({ seq: 1, method: "POST", status: 201, state: "InCreation" });
    expect(liveIds()).toEqual(["kaas-0001"]);
    expect(await settled(answer)).toBe(false);
    hold.release();
    expect((await answer).json.metadata.id).toBe("kaas-0001");
    expect(emu.requests()).toEqual([held]);
  });

  it("loses the answer of a held request whose client went away: applied, logged dropped after", async () => {
    const hold = emu.hold({ method: "POST", when: "after" });
    const client = killablePost();
    await hold.reached;
    client.kill();
    expect(await client.answer).toBeNull();
    await hold.clientGone;
    expect(hold.release()).toMatchObject({ clientGone: true, released: true });
    expect(await untilLogged(1)).toMatchObject({ status: 201, state: "InCreation", dropped: "after" });
    expect(liveIds()).toEqual(["kaas-0001"]);
    expect((await raw(`${h.url}${KAAS}/kaas-0001`)).status).toBe(200);
  });

  it("holds the first answer that shows a state: polls of other states pass", async () => {
    const id = (await post()).json.metadata.id as string;
    const hold = emu.hold({ method: "GET", pathPattern: `${KAAS}/${id}`, state: "Active", when: "after" });
    expect((await raw(`${h.url}${KAAS}/${id}`)).json.status.state).toBe("InCreation");
    expect((await raw(`${h.url}${KAAS}`)).status).toBe(200);
    emu.advanceClock(1000);
    const poll = raw(`${h.url}${KAAS}/${id}`);
    expect(await hold.reached).toMatchObject({ method: "GET", status: 200, state: "Active" });
    expect(hold.status()).toMatchObject({ matched: 1, reached: true, released: false });
    hold.release();
    expect((await poll).json.status.state).toBe("Active");
  });
});

describe("holds in the control API", () => {
  it("creates, shows, releases and clears holds", async () => {
    const created = await control("/holds", {
      method: "POST",
      body: { method: "POST", pathPattern: KAAS, when: "after" },
    });
    expect(created.status).toBe(201);
    const waiting = {
      id: "hold-1",
      method: "POST",
      pathPattern: KAAS,
      bodyPattern: null,
      state: null,
      nth: 1,
      when: "after",
      matched: 0,
      reached: false,
      released: false,
      clientGone: false,
      request: null,
    };
    expect(created.json).toEqual(waiting);
    const answer = post();
    let shown = (await control("/holds/hold-1")).json;
    while (!shown.reached) shown = (await control("/holds/hold-1")).json;
    expect(shown).toMatchObject({ matched: 1, reached: true, request: { seq: 1, status: 201 } });
    expect((await control("/holds")).json).toEqual({ holds: [shown] });

    const released = await control("/holds/hold-1/release", { method: "POST" });
    expect(released.json).toEqual({ ...shown, released: true });
    expect((await answer).status).toBe(201);
    // Releasing again changes nothing.
    expect((await control("/holds/hold-1/release", { method: "POST" })).json).toEqual(released.json);

    await control("/holds", { method: "POST", body: {} });
    expect((await control("/holds", { method: "DELETE" })).json).toEqual({ released: 2 });
    expect((await control("/holds")).json).toEqual({ holds: [] });
    expect((await post()).status).toBe(201);
    // Forgetting the holds does not number them again; a reset does.
    expect((await control("/holds", { method: "POST", body: {} })).json.id).toBe("hold-3");
    emu.reset();
    expect(emu.hold({}).id).toBe("hold-1");
  });

  it("answers 404 for an unknown hold", async () => {
    const answer = await control("/holds/hold-7");
    expect(answer.status).toBe(404);
    expect(answer.json.detail).toBe("No hold hold-7.");
    expect((await control("/holds/hold-7/release", { method: "POST" })).status).toBe(404);
    expect(() => emu.releaseHold("hold-7")).toThrow("No hold hold-7.");
  });

  it("refuses a bad specification, naming each field", async () => {
    const answer = await control("/holds", {
      method: "POST",
      body: {
        method: "",
        pathPattern: "(",
        bodyPattern: 3,
        nth: 0,
        when: "during",
        state: "Active",
        extra: 1,
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([
      {
        fieldName: "extra",
        errorMessage: "is not a field of a hold (fields: method, pathPattern, bodyPattern, state, nth, when)",
      },
      { fieldName: "method", errorMessage: "must be a non-empty string" },
      { fieldName: "bodyPattern", errorMessage: "must be a non-empty string" },
      {
        fieldName: "pathPattern",
        errorMessage: "must be a regular expression: Invalid regular expression: /(/: Unterminated group",
      },
      { fieldName: "nth", errorMessage: "must be an integer >= 1" },
      { fieldName: "when", errorMessage: "must be before or after" },
      { fieldName: "state", errorMessage: "needs when: after" },
    ]);
    expect(() => emu.hold({ state: "Active" })).toThrow("state: needs when: after");
    expect((await control("/holds")).json).toEqual({ holds: [] });
  });
});

describe("releases", () => {
  it("cancels a hold released before any request reached it: reached resolves null", async () => {
    const hold = emu.hold({ method: "POST" });
    expect(hold.release()).toMatchObject({ reached: false, released: true, matched: 0 });
    expect(await hold.reached).toBeNull();
    expect((await post()).status).toBe(201);
  });

  it("lets every held request go on at a reset", async () => {
    const hold = emu.hold({ method: "POST" });
    const answer = post();
    await hold.reached;
    emu.reset();
    expect((await answer).status).toBe(201);
    expect(emu.holds()).toEqual([]);
  });
});

describe("the request log", () => {
  it("records the state an answer of one object shows, and none for lists or problems", async () => {
    await post();
    await raw(`${h.url}${KAAS}`);
    await raw(`${h.url}${KAAS}/kaas-0009`);
    expect(emu.requests().map((r) => [r.method, r.status, r.state])).toEqual([
      ["POST", 201, "InCreation"],
      ["GET", 200, undefined],
      ["GET", 404, undefined],
    ]);
  });
});
