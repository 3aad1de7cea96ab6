/**
 * Errors a user can act on, through the CLI: a token the service refuses names the setting to check and never
 * shows the token; an update of an object the service lost says to run `pulumi refresh`.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { cluster } from "./support/args";
import { openSuite, type Suite } from "./support/suite";

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
