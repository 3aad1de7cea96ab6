/**
 * Secrets never leak: the full main example runs with OAuth2 client credentials and a cluster identity
 * secret - create under faults, a registry password rotation, a token revoked mid-run, refresh, runs that
 * fail (a provisioning failure, a version the service refuses, a deadline, wrong client credentials), and
 * destroy - and nothing the user or CI sees holds a secret in plain text: no console line, no error (message,
 * fields, stack), no request-log entry, no output except those the SDK marks secret (`kubeconfig` and
 * `identity` of a Kaas, `additionalSecretOutputs` in sdk/kaas.ts).
 */
import type { Inputs } from "../../provider/common/check";
import { CLIENT_SECRET, PROJECT, startHarness, type Harness } from "./support/harness";
import {
  SimulatedEngine,
  attachmentArgs,
  backupArgs,
  clusterArgs,
  firstSystemNode,
  reconcile,
  registryArgs,
} from "./support/engine";

const IDENTITY_SECRET = "identity-client-secret-Vq7Lm2Rx9Tc4";
const WRONG_CLIENT_SECRET = "wrong-client-secret-Hd83Kq1Pz6";
const identity = { clientId: "cluster-identity", clientSecret: IDENTITY_SECRET };
/** Outputs the SDK marks secret, per kind (sdk/kaas.ts `additionalSecretOutputs`; the other kinds mark none). */
const SDK_SECRET_OUTPUTS: Record<string, string[]> = { Kaas: ["kubeconfig", "identity"] };

let h: Harness;
let engine: SimulatedEngine;
const KAAS = "kaas-0001";

beforeAll(async () => {
  h = await startHarness({
    auth: "clientCredentials",
    seed: 3,
    loseFirstCreateAnswers: true,
  });
  engine = new SimulatedEngine(h.kind);
});
afterAll(async () => {
  await h.close();
});

const cluster = (overrides: Inputs = {}) => clusterArgs({ identity, ...overrides });

it("creates the main example with an identity secret while the service injects faults", async () => {
  h.emulator.setFaults({
    seed: 3,
    errorRates: { 500: 0.05, 502: 0.05, 503: 0.05, 504: 0.05, 429: 0.1 },
    retryAfterSeconds: 0,
    dropRate: 0.05,
    dropAfterProcessingRate: 0.05,
    latencyRandomMs: 20,
  });
  await Promise.all([
    engine.up("cluster", "Kaas", cluster()),
    engine.up("images", "Registry", registryArgs()),
  ]);
  const node = firstSystemNode(h.emulator, KAAS);
  await Promise.all([
    engine.up("nightly", "KaasBackup", backupArgs(KAAS)),
    engine.up("data", "VolumeAttachment", attachmentArgs(KAAS, node)),
  ]);
  h.emulator.setFaults({});
  expect(engine.idOf("cluster")).toBe(KAAS);
  // The kubeconfig output is there (so the leak check below is not vacuous), holding the cluster's token.
  expect(engine.state.get("cluster")!.outputs.kubeconfig).toContain(h.emulator.kubeconfigToken(KAAS));
  expect(engine.state.get("cluster")!.outputs.identity).toEqual(identity);
  expect(h.issuedTokens).toHaveLength(1);
  expect(h.lines.filter((l) => l.includes("retry: "))).not.toEqual([]);
  expect(h.lines).toContainEqual(
    expect.stringContaining(`Kaas "cluster": the create request's outcome is unknown`),
  );
});

it("rotates the registry admin password when its trigger changes", async () => {
  const before = engine.state.get("images")!.outputs.adminPasswordLastSetDate as string;
  // The request log is kept whole (the leak check reads it): only entries after this one count here.
  const since = Math.max(0, ...h.emulator.requests().map((r) => r.seq));
  h.emulator.advanceClock(60_000);
  await engine.up("images", "Registry", registryArgs({ adminPasswordResetTrigger: "rotation-2" }));
  expect(
    h.emulator
      .requests()
      .filter((r) => r.seq > since && r.mutating)
      .map((r) => `${r.method} ${r.path}`),
  ).toEqual([
    `PUT /projects/${PROJECT}/providers/Vendor.Container/registries/registry-0001/resetAdminPassword`,
  ]);
  const after = engine.state.get("images")!.outputs.adminPasswordLastSetDate as string;
  expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
});

it("gets a new access token after the service revoked the old one, and refreshes with no diff", async () => {
  expect(h.emulator.revokeTokens()).toBe(1);
  await Promise.all(["cluster", "images", "nightly", "data"].map((r) => engine.refresh(r)));
  expect(h.issuedTokens).toHaveLength(2);
  expect(new Set(h.issuedTokens).size).toBe(2);
  const node = firstSystemNode(h.emulator, KAAS);
  for (const [resource, args] of [
    ["cluster", cluster()],
    ["images", registryArgs({ adminPasswordResetTrigger: "rotation-2" })],
    ["nightly", backupArgs(KAAS)],
    ["data", attachmentArgs(KAAS, node)],
  ] as const) {
    expect((await engine.preview(resource, args)).changes).toBe(false);
  }
});

describe("failing runs", () => {
  it("a cluster whose provisioning fails stays in the state with its id", async () => {
    h.emulator.setFaults({
      provisioning: { kaas: "fail", registry: "ok", backup: "ok" },
      failureReason: "insufficient capacity",
    });
    const doomed = cluster({
      name: "doomed",
      nodeCidr: { address: "10.30.0.0/16", name: "doomed-nodes" },
      creationScope: "vendor-demo/dev/doomed",
    });
    expect(await engine.upOnce("doomed", "Kaas", doomed)).toBe(false);
    h.emulator.setFaults({});
    const error = engine.errors.at(-1)!;
    expect(error).toMatchObject({ resource: "doomed", operation: "create", id: "kaas-0002" });
    expect(error.message).toBe(
      'Kaas "doomed" (kaas-0002) was created but is not ready: GET /kaas/kaas-0002: Kaas "doomed" (kaas-0002) failed while waiting for Active: insufficient capacity',
    );
    expect(error.properties).toMatchObject({ state: "Failed", identity });
    await engine.destroy("doomed");
  });

  it("a version the service refuses fails the create with the service's words", async () => {
    const refused = cluster({
      name: "refused",
      kubernetesVersion: "1.30.1",
      nodeCidr: { address: "10.40.0.0/16", name: "refused-nodes" },
      creationScope: "vendor-demo/dev/refused",
    });
    expect(await engine.upOnce("refused", "Kaas", refused)).toBe(false);
    const error = engine.errors.at(-1)!;
    expect(error.id).toBeUndefined();
    // Without field errors in the body (the published shape) the message carries the problem's title too.
    const title =
      h.emulator.getConfig().wire.errors === "absent" ? "One or more validation errors occurred: " : "";
    expect(error.message).toBe(
      `POST /kaas failed (400 Bad Request): ${title}properties.kubernetesVersion.value: "1.30.1" is not an admissible Kubernetes version (admissible: 1.31.9, 1.32.5, 1.33.2, 1.34.1)`,
    );
    expect(engine.state.has("refused")).toBe(false);
  });

  it("a refresh that runs out of its deadline names the last error", async () => {
    h.config["vendor:callDeadlineMs"] = "600";
    h.emulator.setFaults({ errorRates: { 502: 1 } });
    const entry = engine.state.get("cluster")!;
    const error = await h
      .kind("Kaas")
      .read(entry.id, entry.outputs)
      .catch((e: unknown) => e);
    engine.recordError("cluster", "Kaas", "read", error);
    h.emulator.setFaults({});
    h.config["vendor:callDeadlineMs"] = "20000";
    expect((error as Error).message).toBe(
      `GET /kaas/${KAAS} failed (deadline): gave up after retries within the deadline; last error: GET /kaas/${KAAS} failed (502 Bad Gateway): Bad Gateway`,
    );
  });

  it("wrong client credentials fail with a message that does not repeat them", async () => {
    h.config["vendor:clientSecret"] = WRONG_CLIENT_SECRET;
    const entry = engine.state.get("images")!;
    const error = await h
      .kind("Registry")
      .read(entry.id, entry.outputs)
      .catch((e: unknown) => e);
    engine.recordError("images", "Registry", "read", error);
    h.config["vendor:clientSecret"] = CLIENT_SECRET;
    expect((error as Error).message).toBe(
      "POST /oauth2/token failed (auth): the token endpoint refused the client credentials (HTTP 401). " +
        "Check the credentials in stack config vendor:clientId, vendor:clientSecret and vendor:tokenUrl " +
        "(or VENDOR_CLIENT_ID, VENDOR_CLIENT_SECRET and VENDOR_TOKEN_URL)",
    );
  });
});

it("destroys everything in reverse order, leaving nothing behind", async () => {
  for (const resource of ["data", "nightly", "images", "cluster"]) await engine.destroy(resource);
  expect(reconcile(h.emulator, engine)).toMatchObject({
    live: { kaas: [], backups: [], registries: [], attachments: [] },
    orphans: [],
    duplicateTags: [],
  });
});

it("leaks no secret in plain text: console lines, errors, request log, non-secret outputs", () => {
  const kubeconfig = engine.outputs.find((o) => o.kind === "Kaas" && typeof o.values.kubeconfig === "string")
    ?.values.kubeconfig as string;
  expect(kubeconfig).toContain("kind: Config");
  const secrets: Record<string, string> = {
    "client secret": CLIENT_SECRET,
    "wrong client secret": WRONG_CLIENT_SECRET,
    "identity client secret": IDENTITY_SECRET,
    kubeconfig,
    "kubeconfig (base64)": Buffer.from(kubeconfig).toString("base64"),
    "kubeconfig token of kaas-0001": h.emulator.kubeconfigToken(KAAS),
    "kubeconfig token of kaas-0002": h.emulator.kubeconfigToken("kaas-0002"),
    ...Object.fromEntries(h.issuedTokens.map((t, i) => [`access token ${i + 1}`, t])),
  };
  // Every token the endpoint issued was captured: one per successful exchange in the request log.
  expect(h.issuedTokens.length).toBeGreaterThanOrEqual(3);
  expect(h.emulator.requests().filter((r) => r.path === "/oauth2/token" && r.status === 200)).toHaveLength(
    h.issuedTokens.length,
  );

  const withoutSdkSecrets = (kind: string, values: Inputs) =>
    Object.fromEntries(Object.entries(values).filter(([k]) => !(SDK_SECRET_OUTPUTS[kind] ?? []).includes(k)));
  const haystacks: Record<string, string[]> = {
    "console lines": h.lines,
    errors: engine.errors.flatMap((e) => [
      e.message,
      ...(e.reasons ?? []),
      e.detail,
      e.stack,
      JSON.stringify(withoutSdkSecrets("Kaas", e.properties ?? {})),
    ]),
    "request log": [JSON.stringify(h.emulator.requests())],
    outputs: engine.outputs.map((o) => JSON.stringify(withoutSdkSecrets(o.kind, o.values))),
  };
  // The failing runs did fail, so the errors are worth searching (a run under faults may add transient ones).
  expect(engine.errors.map((e) => `${e.resource} ${e.operation}`)).toEqual(
    expect.arrayContaining(["doomed create", "refused create", "cluster read", "images read"]),
  );
  expect(h.lines.length).toBeGreaterThan(20);
  // Refreshes without drift hand back no inputs, so they add no entry.
  expect(haystacks.outputs.length).toBeGreaterThanOrEqual(10);

  const leaks: string[] = [];
  for (const [name, secret] of Object.entries(secrets)) {
    for (const [where, texts] of Object.entries(haystacks)) {
      const hits = texts.filter((t) => t.includes(secret));
      if (hits.length > 0) leaks.push(`${name} in ${where}: ${hits[0].slice(0, 200)}`);
    }
  }
  expect(leaks).toEqual([]);
});
