/**
 * Errors a user can act on, through the CLI: a setting of the wrong form fails the preview, naming it, before
 * any request; a token the service refuses names the setting to check and never shows the token, in `up`,
 * `refresh` and `destroy` alike, with no JavaScript stack trace; an update of an object the service lost says
 * to run `pulumi refresh`. And the engine fact docs/configuration.md's "Rotating credentials" rests on: without
 * `--run-program`, `refresh` and `destroy` configure the provider with the config of the last run that
 * executed the program, kept in the state.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { cluster } from "./support/args";
import { TOKEN, openSuite, type Suite } from "./support/suite";

/** A well-formed token the emulator never issued: a secret that must not reach the output. */
const WRONG_TOKEN = "e2e-wrong-token-5b1d8e";

let s: Suite;
beforeAll(async () => {
  s = await openSuite("actionable-errors");
});
afterAll(async () => {
  await s?.close();
});

it("fails up with a refused token naming vendor:token, without the token", async () => {
  const stack: Stack = await s.stack("wrong-token", s.program("actionable-errors-token"), {
    "vendor:token": { value: WRONG_TOKEN, secret: true },
  });
  await s.declare(stack, [cluster()]);

  await expect(stack.up()).rejects.toThrow(
    "failed (401 Unauthorized): Unauthorized: The bearer token is not valid. " +
      "Check the credentials in stack config vendor:token (or VENDOR_TOKEN)",
  );
  expect(s.cliOutput.join("\n")).not.toContain(WRONG_TOKEN);
  expect(s.emulator.emulator.state().kaas).toEqual([]);
});

it("fails the update of a cluster the service lost, saying to run pulumi refresh, then pulumi up", async () => {
  const stack: Stack = await s.stack("lost", s.program("actionable-errors-lost"));
  await s.declare(stack, [cluster()]);
  await stack.up();
  s.emulator.emulator.patchResource("kaas", "kaas-0001", { state: "Deleted" });
  s.emulator.emulator.advanceClock(60_000);
  await s.declare(stack, [cluster({ tags: ["team-a"] })]);

  await expect(stack.up()).rejects.toThrow(
    'Kaas "cluster" (kaas-0001) no longer exists: run `pulumi refresh` to drop it from the stack, ' +
      "then `pulumi up` to create it again",
  );
  const refreshed = await stack.refresh();
  expect(refreshed.summary.resourceChanges).toEqual({ same: 1, delete: 1 });
  await stack.up();
  expect(s.emulator.emulator.state().kaas.map((k) => k.metadata.id)).toEqual(["kaas-0002"]);
  await stack.destroy();
});

it("uses a changed token only in runs that execute the program, and fails those with the 401 hint, no stack trace", async () => {
  const stack: Stack = await s.stack("rotated-token", s.program("actionable-errors-rotated"));
  await s.declare(stack, [cluster()]);
  await stack.up();
  const ids = s.emulator.emulator.state().kaas.map((k) => k.metadata.id);
  await stack.setConfig("vendor:token", { value: WRONG_TOKEN, secret: true });

  // The state's provider holds the config of the last `up`: a plain refresh still sends the old token.
  await expect(stack.refresh({ expectNoChanges: true })).resolves.toBeDefined();

  const [id] = ids;
  const hint =
    `GET /kaas/${id} failed (401 Unauthorized): Unauthorized: The bearer token is not valid. ` +
    "Check the credentials in stack config vendor:token (or VENDOR_TOKEN)";
  for (const run of [() => stack.refresh({ runProgram: true }), () => stack.destroy({ runProgram: true })]) {
    s.cliOutput.length = 0;
    await expect(run()).rejects.toThrow(hint);
    const output = s.cliOutput.join("");
    expect(output).toContain(hint);
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain(WRONG_TOKEN);
  }
  expect(s.emulator.emulator.state().kaas.map((k) => k.metadata.id)).toEqual(ids);

  // A run that executed the program recorded its config in the state, failed or not: a plain destroy now
  // sends the refused token too, until a run with the program records the corrected one.
  await stack.setConfig("vendor:token", { value: TOKEN, secret: true });
  await expect(stack.destroy()).rejects.toThrow(hint);
  await stack.destroy({ runProgram: true });
  // The deleted cluster stays a tombstone for a while (`tombstoneMs`); past it, the service holds nothing.
  s.emulator.emulator.advanceClock(60_000);
  expect(s.emulator.emulator.state().kaas).toEqual([]);
});

it("fails the preview on settings of the wrong form, naming each, without a request; up works once they are mended", async () => {
  const stack: Stack = await s.stack("bad-settings", s.program("actionable-errors-settings"), {
    "vendor:requestTimeoutMs": { value: "30s" },
    "vendor:unknownStateTimeout": { value: "5 minutes" },
  });
  await s.declare(stack, [cluster()]);
  s.clearRequests();

  const output = await stack.preview().then(
    () => "the preview succeeded",
    (error: Error) => error.message,
  );
  // A failure without a property: `<type> resource '<name>' has a problem: <reason>`, one per setting.
  const problem = "pulumi-nodejs:dynamic/vendor-container:Kaas resource 'cluster' has a problem: ";
  expect(output).toContain(`${problem}vendor:requestTimeoutMs must be a positive integer (ms), got "30s"`);
  expect(output).toContain(
    `${problem}vendor:unknownStateTimeout must be a duration like "5m", "1h30m" or "90s", got "5 minutes"`,
  );
  expect(s.requests()).toEqual([]);

  await stack.removeConfig("vendor:requestTimeoutMs");
  await stack.removeConfig("vendor:unknownStateTimeout");
  await stack.up();
  expect(s.emulator.emulator.state().kaas.map((k) => k.metadata.name)).toEqual(["e2e-cluster"]);
  await stack.destroy();
});
