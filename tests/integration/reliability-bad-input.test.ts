/**
 * Bad input never reaches the service: a corpus of invalid argument sets across the four kinds, each
 * rejected by `check` with exactly the expected `{property, reason}` failures (HA disable and downgrade also
 * by `diff` throwing), while the providers are configured against a live emulator with OAuth2 client
 * credentials. Settings of the wrong form fail every kind's `check` too, naming the setting, with no request.
 * Afterwards the emulator's request log is empty: no API call, not even a token exchange.
 */
import type { Inputs } from "../../provider/common/check";
import type { KindName } from "../../provider";
import { CORPUS, HA_REFUSED, KAAS_ID, NODE, without } from "./support/bad-input-corpus";
import { startHarness, type Harness } from "./support/harness";
import { SHELL, attachmentArgs, backupArgs, clusterArgs, registryArgs } from "./support/engine";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ auth: "clientCredentials" });
});
afterAll(async () => {
  await h.close();
});

/** A valid base for each kind, to prove the corpus fails for its one defect and not for the base. */
const BASES: [KindName, Inputs][] = [
  ["Kaas", clusterArgs()],
  ["KaasBackup", backupArgs(KAAS_ID)],
  ["Registry", registryArgs()],
  ["VolumeAttachment", attachmentArgs(KAAS_ID, NODE)],
];

it("holds at least 50 invalid argument sets covering every kind", () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(50);
  expect(new Set(CORPUS.map((c) => c.kind))).toEqual(
    new Set(["Kaas", "KaasBackup", "Registry", "VolumeAttachment"]),
  );
  expect(new Set(CORPUS.map((c) => c.label)).size).toBe(CORPUS.length);
});

it.each(BASES)("accepts the valid base arguments of %s", async (kind, args) => {
  const { failures } = await h.kind(kind).check({}, { ...args, __provider: SHELL });
  expect(failures).toEqual([]);
});

it.each(CORPUS)("rejects at check: $label", async ({ kind, olds, news, failures }) => {
  const p = h.kind(kind);
  const oldInputs = olds ? (await p.check({}, { ...olds, __provider: SHELL })).inputs : {};
  const result = await p.check(oldInputs, { ...news, __provider: SHELL });
  expect(result.failures).toEqual(failures);
});

describe("refused by diff too, so a preview stops even when check is skipped", () => {
  /** The state of the cluster after a create with `clusterArgs()`: its inputs and computed outputs. */
  async function clusterState(): Promise<Inputs> {
    const { inputs } = await h.kind("Kaas").check({}, { ...clusterArgs(), __provider: SHELL });
    return { ...inputs, kaasId: KAAS_ID, state: "Active", currentKubernetesVersion: "1.33.2" };
  }

  it.each([
    ["HA disabled", { ha: false }, "ha", `ha: ${HA_REFUSED}`],
    [
      "downgrade",
      { kubernetesVersion: "1.32.5" },
      "kubernetesVersion",
      "kubernetesVersion: cannot go down from 1.33.2 to 1.32.5: the service does not downgrade clusters",
    ],
  ])("%s", async (_label, patch, property, message) => {
    const state = await clusterState();
    const news = { ...state, ...patch };
    await expect(h.kind("Kaas").diff(KAAS_ID, state, news)).rejects.toMatchObject({
      name: "RefusedChange",
      property,
      message,
    });
  });

  it("HA removed from the program", async () => {
    const state = await clusterState();
    await expect(h.kind("Kaas").diff(KAAS_ID, state, without(state, "ha"))).rejects.toMatchObject({
      name: "RefusedChange",
      message: `ha: ${HA_REFUSED}`,
    });
  });

  it("a downgrade below a version the platform raised on its own", async () => {
    const state = { ...(await clusterState()), currentKubernetesVersion: "1.34.1" };
    await expect(
      h.kind("Kaas").diff(KAAS_ID, state, { ...state, kubernetesVersion: "1.33.9" }),
    ).rejects.toMatchObject({
      message:
        "kubernetesVersion: cannot go down from 1.34.1 to 1.33.9: the service does not downgrade clusters",
    });
  });
});

describe("settings of the wrong form, reported by every kind's check", () => {
  /** Bad values of every setting that has a form, and each one's failure: of the whole resource, no property. */
  const BAD_SETTINGS: [string, string, string][] = [
    ["vendor:baseUrl", "api.example.test", 'vendor:baseUrl must be an http(s) URL, got "api.example.test"'],
    ["vendor:pollIntervalMs", "10s", 'vendor:pollIntervalMs must be a positive integer (ms), got "10s"'],
    ["vendor:requestTimeoutMs", "0", 'vendor:requestTimeoutMs must be a positive integer (ms), got "0"'],
    ["vendor:callDeadlineMs", "2m", 'vendor:callDeadlineMs must be a positive integer (ms), got "2m"'],
    [
      "vendor:stateNames",
      '{"Ready": "done"}',
      'vendor:stateNames: "Ready" must map to one of settled, transitional, deleting, deleted, failed, got "done"',
    ],
    [
      "vendor:unknownStateTimeout",
      "5 minutes",
      'vendor:unknownStateTimeout must be a duration like "5m", "1h30m" or "90s", got "5 minutes"',
    ],
    [
      "vendor:kubeconfigRefresh",
      "sometimes",
      'vendor:kubeconfigRefresh must be "always" or "onChange", got "sometimes"',
    ],
  ];
  let saved: Record<string, string>;
  beforeAll(() => {
    saved = { ...h.config };
  });
  afterEach(() => {
    for (const key of Object.keys(h.config)) delete h.config[key];
    Object.assign(h.config, saved);
  });

  it.each(BASES)("%s: one failure per setting, before the argument failures", async (kind, args) => {
    for (const [key, value] of BAD_SETTINGS) h.config[key] = value;
    const { failures } = await h.kind(kind).check({}, { ...args, projectId: 7, __provider: SHELL });
    expect(failures.map((f) => [f.property, f.reason])).toEqual([
      ...BAD_SETTINGS.map(([, , reason]) => ["", reason]),
      ["projectId", "must be a string, got number"],
    ]);
  });

  it("names each bad setting of a cluster that is otherwise valid, and sends nothing", async () => {
    h.config["vendor:requestTimeoutMs"] = "30s";
    h.config["vendor:unknownStateTimeout"] = "5 minutes";
    h.emulator.clearRequests();
    const tokensBefore = h.issuedTokens.length;
    const { failures } = await h.kind("Kaas").check({}, { ...clusterArgs(), __provider: SHELL });
    expect(failures).toEqual([
      { property: "", reason: 'vendor:requestTimeoutMs must be a positive integer (ms), got "30s"' },
      {
        property: "",
        reason: 'vendor:unknownStateTimeout must be a duration like "5m", "1h30m" or "90s", got "5 minutes"',
      },
    ]);
    expect(h.emulator.requests()).toEqual([]);
    expect(h.issuedTokens.slice(tokensBefore)).toEqual([]);
  });

  it.each(BASES)(
    "%s: no failure without a URL or credentials, which only a call needs",
    async (kind, args) => {
      for (const key of ["vendor:baseUrl", "vendor:token", "vendor:clientId", "vendor:clientSecret"])
        delete h.config[key];
      expect((await h.kind(kind).check({}, { ...args, __provider: SHELL })).failures).toEqual([]);
    },
  );
});

it("sends no request of any kind to the service, not even a token exchange, while refusing all of it", async () => {
  // Self-contained: the whole corpus and both diff refusals run here again, so the test means the same
  // whether it runs alone or after the others.
  h.emulator.clearRequests();
  const tokensBefore = h.issuedTokens.length;
  for (const [kind, args] of BASES) await h.kind(kind).check({}, { ...args, __provider: SHELL });
  for (const { kind, olds, news } of CORPUS) {
    const p = h.kind(kind);
    const oldInputs = olds ? (await p.check({}, { ...olds, __provider: SHELL })).inputs : {};
    expect((await p.check(oldInputs, { ...news, __provider: SHELL })).failures).not.toEqual([]);
  }
  const { inputs } = await h.kind("Kaas").check({}, { ...clusterArgs(), __provider: SHELL });
  const state = { ...inputs, kaasId: KAAS_ID, state: "Active", currentKubernetesVersion: "1.33.2" };
  for (const patch of [{ ha: false }, { kubernetesVersion: "1.32.5" }]) {
    await expect(h.kind("Kaas").diff(KAAS_ID, state, { ...state, ...patch })).rejects.toMatchObject({
      name: "RefusedChange",
    });
  }
  expect(h.emulator.requests()).toEqual([]);
  expect(h.issuedTokens.slice(tokensBefore)).toEqual([]);
});
