/**
 * The provider plugin's executable (dist/plugin/main.js, built by `npm test`'s prepare step) as the engine runs
 * it, against the emulator on loopback, driven over its gRPC protocol by a client made with the protocol's own
 * generated code: what it answers the engine (the settings its messages name, the secrets they never show),
 * and that it ends with the process that started it. What the CLI shows of these is tested through the engine
 * (tests/e2e/plugin-stacks.e2e.test.ts, tests/e2e/yaml.e2e.test.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import readline from "node:readline";
import type * as grpcModule from "@grpc/grpc-js";
import type * as structModule from "google-protobuf/google/protobuf/struct_pb";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import type * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as statusPb from "@pulumi/pulumi/proto/status_pb";
import { FAST_DURATIONS, startEmulator, type RunningEmulator } from "../../emulator";

const MAIN = path.join(__dirname, "../../dist/plugin/main.js");
const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const load = <T>(id: string): T => pulumiRequire(id) as T;
const grpc = load<typeof grpcModule>("@grpc/grpc-js");
const struct = load<typeof structModule>("google-protobuf/google/protobuf/struct_pb");
const pb = load<typeof providerPb>("@pulumi/pulumi/proto/provider_pb");
const services = load<typeof providerGrpc>("@pulumi/pulumi/proto/provider_grpc_pb");
const status = load<typeof statusPb>("@pulumi/pulumi/proto/status_pb");

const TOKEN = "plugin-process-token";
const WRONG_TOKEN = "wrong-token-0123456789abcdef";
const URN = "urn:pulumi:dev::proj::vendor-container:index:Kaas::cluster";

/** The first line a process prints (the port a plugin serves on). */
const firstLine = (child: ChildProcess): Promise<string> =>
  new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`exited with ${code} before its first line`)));
  });

/** Whether the process `pid` still runs (an ended one its new parent has not reaped yet does not). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** A unary call (`send` makes it with the callback it is given), as a promise. */
const call = <Res>(
  send: (callback: (error: grpcModule.ServiceError | null, response: Res) => void) => unknown,
): Promise<Res> =>
  new Promise((resolve, reject) => send((error, response) => (error ? reject(error) : resolve(response))));

describe("the plugin's executable", () => {
  let emulator: RunningEmulator;
  let plugin: ChildProcess;
  let client: providerGrpc.ResourceProviderClient;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, tokens: [TOKEN], durations: FAST_DURATIONS });
    plugin = spawn(process.execPath, [MAIN], { stdio: ["ignore", "pipe", "inherit"] });
    const port = await firstLine(plugin);
    client = new services.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  });
  afterAll(async () => {
    client?.close();
    plugin?.kill();
    await emulator?.close();
  });

  it("names the plugin's settings in what it tells the engine of a failed update, and no secret", async () => {
    const configure = new pb.ConfigureRequest();
    const variables = configure.getVariablesMap();
    variables.set("vendor-container:config:baseUrl", emulator.url);
    variables.set("vendor-container:config:token", WRONG_TOKEN);
    variables.set("vendor-container:config:projectId", "proj");
    variables.set("vendor-container:config:callDeadlineMs", "5000");
    await call((done) => client.configure(configure, done));
    const inputs = struct.Struct.fromJavaScript({
      name: "cluster",
      location: "ITBG-Bergamo",
      kubernetesVersion: "1.32.5",
      nodeCidr: { address: "10.20.0.0/16", name: "nodes" },
      nodePools: [{ name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" }],
    });
    const check = new pb.CheckRequest().setUrn(URN).setOlds(new struct.Struct()).setNews(inputs);
    const checked = await call<providerPb.CheckResponse>((done) => client.check(check, done));
    expect(checked.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([]);

    const update = new pb.UpdateRequest()
      .setUrn(URN)
      .setId("kaas-0001")
      .setOlds(checked.getInputs())
      .setNews(checked.getInputs());
    const error = await call<providerPb.UpdateResponse>((done) => client.update(update, done)).then(
      () => undefined,
      (e: grpcModule.ServiceError) => e,
    );
    // A partial failure: the old outputs and the reasons, in the status details.
    const details = error?.metadata.get("grpc-status-details-bin")[0];
    expect(details).toBeInstanceOf(Buffer);
    const [any] = status.Status.deserializeBinary(details as Buffer).getDetailsList();
    const reasons = pb.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8()).getReasonsList();
    const said = [error?.details ?? "", ...reasons];
    expect(reasons).toHaveLength(1);
    for (const text of said) {
      expect(text).toContain("401 Unauthorized");
      expect(text).toContain("vendor-container:token");
      expect(text).not.toMatch(/\bvendor:token/);
      expect(text).not.toContain(WRONG_TOKEN);
    }
  });

  it("ends when the process that started it is gone", async () => {
    // A parent that starts the plugin in a process group of its own, as the engine does, and is killed outright
    // once the plugin serves (its port read): nothing stops the plugin but the plugin itself.
    const parent = spawn(
      process.execPath,
      [
        "-e",
        `const child = require("node:child_process").spawn(process.execPath, [${JSON.stringify(MAIN)}], ` +
          `{ detached: true, stdio: ["ignore", "pipe", "ignore"] }); ` +
          `child.stdout.once("data", () => console.log(child.pid)); setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const pid = Number(await firstLine(parent));
    expect(alive(pid)).toBe(true);
    parent.kill("SIGKILL");
    const until = Date.now() + 5_000;
    while (alive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    const stillAlive = alive(pid);
    if (stillAlive) process.kill(pid, "SIGKILL");
    expect(stillAlive).toBe(false);
  });
});
