/**
 * The emulator's wire reading `states` (emulator/config.ts `WireReadings`) over raw HTTP: each vocabulary's
 * rendering of every lifecycle state, read per response so `PUT /_emulator/config` applies to the next answer;
 * the emulator's own logic (busy refusals, the `Deleted` tombstone, lists without deleted objects) unchanged;
 * and a `status.state` filter matching the names as answered, as the service's filters would.
 */
import type { Emulator } from "../../emulator";
import { DEFAULT_DURATIONS } from "../../emulator";
import { kaasBody, raw, startHarness, type Harness } from "./support/harness";

let h: Harness;
let emu: Emulator;

beforeAll(async () => {
  h = await startHarness({ durations: DEFAULT_DURATIONS });
  emu = h.emulator;
});
afterAll(() => h.close());
beforeEach(() => emu.reset());

const call = (path: string, method = "GET", body?: unknown) => raw(`${h.api}${path}`, { method, body });
const setStates = (states: string) =>
  raw(`${h.url}/_emulator/config`, { method: "PUT", body: { wire: { states } } });
const stateOf = async (id: string) => (await call(`/kaas/${id}`)).json.status.state as string;

/** Walks one cluster through its lifecycle, reading its state at each step. */
async function lifecycle(): Promise<string[]> {
  const created = await call("/kaas", "POST", kaasBody("prod"));
  const id = created.json.metadata.id as string;
  const seen = [created.json.status.state as string];
  emu.advanceClock(DEFAULT_DURATIONS.kaasCreateMs);
  seen.push(await stateOf(id));
  expect((await call(`/kaas/${id}`, "DELETE")).status).toBe(202);
  seen.push(await stateOf(id));
  emu.advanceClock(DEFAULT_DURATIONS.kaasDeleteMs);
  seen.push(await stateOf(id));
  const failed = (await call("/kaas", "POST", kaasBody("other"))).json.metadata.id as string;
  emu.patchResource("kaas", failed, { state: "Failed" });
  seen.push(await stateOf(failed));
  return seen;
}

describe("the states reading", () => {
  it.each([
    ["service", ["InCreation", "Active", "Deleting", "Deleted", "Failed"]],
    ["upper", ["INCREATION", "ACTIVE", "DELETING", "DELETED", "FAILED"]],
    ["alternate", ["Starting", "Ready", "Removing", "Removed", "Broken"]],
  ])("answers %s names through a cluster's lifecycle", async (states, names) => {
    expect((await setStates(states)).status).toBe(200);
    expect(await lifecycle()).toEqual(names);
  });

  it("keeps the emulator's own logic: a busy refusal while creating, and lists without deleted clusters", async () => {
    await setStates("alternate");
    const first = (await call("/kaas", "POST", kaasBody("first"))).json.metadata.id as string;
    const busy = await call(`/kaas/${first}`, "DELETE");
    expect([busy.status, busy.json.title]).toEqual([400, "Resource is busy: InCreation"]);
    const second = (await call("/kaas", "POST", kaasBody("second"))).json.metadata.id as string;
    emu.advanceClock(DEFAULT_DURATIONS.kaasCreateMs);
    expect((await call(`/kaas/${first}`, "DELETE")).status).toBe(202);
    emu.advanceClock(DEFAULT_DURATIONS.kaasDeleteMs);
    const listed = (await call("/kaas")).json.values as {
      metadata: { id: string };
      status: { state: string };
    }[];
    expect(listed.map((k) => [k.metadata.id, k.status.state])).toEqual([[second, "Ready"]]);
  });

  it("filters status.state on the names as answered", async () => {
    await setStates("upper");
    const id = (await call("/kaas", "POST", kaasBody("prod"))).json.metadata.id as string;
    emu.advanceClock(DEFAULT_DURATIONS.kaasCreateMs);
    const filtered = async (filter: string) =>
      (
        (await call(`/kaas?filter=${encodeURIComponent(filter)}`)).json.values as {
          metadata: { id: string };
        }[]
      ).map((k) => k.metadata.id);
    expect(await filtered('status.state:eq("ACTIVE")')).toEqual([id]);
    expect(await filtered('status.state:eq("Active")')).toEqual([]);
  });
});
