/**
 * A token the service refuses, through the CLI: `refresh` and `destroy` fail with the hint naming the setting to
 * check, never showing the token, with no JavaScript stack trace. And the engine fact docs/configuration.md's
 * "Rotating credentials" rests on: without `--run-program`, `refresh` and `destroy` configure the provider with
 * the config of the last run that executed the program, kept in the state. The provider's own messages (a
 * refused token at create, settings of the wrong form, an update of an object the service lost) are the
 * integration project's (tests/integration/kaas-provider.test.ts, reliability-bad-input.test.ts).
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
