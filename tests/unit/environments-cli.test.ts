/**
 * The pure parts of the environments command line (`examples/environments/environments.ts`) that decide what
 * runs and what a failure prints: an environment named twice is run once, and a failed Pulumi run is reported
 * in one line, whatever the Automation API's error holds. Through the engine: `tests/e2e/environments.e2e.test.ts`.
 */
import { CommandError } from "@pulumi/pulumi/automation";
import {
  failureReason,
  parseCommandLine,
  uniqueEnvironments,
} from "../../examples/environments/environments";

/** An Automation API error as a failed CLI run makes it: the whole run in its message. */
function commandError(stdout: string, stderr: string, code = 255): CommandError {
  const result = {
    stdout,
    stderr,
    code,
    toString: () => `code: ${code}\n stdout: ${stdout}\n stderr: ${stderr}\n err?: \n`,
  };
  return new (CommandError as unknown as new (result: unknown) => CommandError)(result);
}

describe("environments named more than once", () => {
  it("keeps each once, in the order first named", () => {
    expect(uniqueEnvironments(["prod", "dev", "prod", "pr-7", "dev"])).toEqual(["prod", "dev", "pr-7"]);
  });

  it.each([
    [["up", "prod", "prod"], ["prod"]],
    [
      ["up", "dev", "staging", "dev", "--set", "size=small", "staging"],
      ["dev", "staging"],
    ],
    [["destroy", "pr-7", "pr-7"], ["pr-7"]],
  ])("parses %j to the environments %j", (argv, envs) => {
    expect(parseCommandLine(argv).envs).toEqual(envs);
  });

  it("still refuses two different environments to destroy", () => {
    expect(() => parseCommandLine(["destroy", "dev", "staging", "dev"])).toThrow(
      "destroy takes one environment",
    );
  });
});

describe("failureReason", () => {
  it("gives a resource's diagnostic, not the engine's closing 'update failed'", () => {
    const stdout = [
      "Updating (dev):",
      "    pulumi-nodejs:dynamic/vendor-container:Kaas cluster  error: cannot go down from 1.33.2 to 1.31.9",
      "Diagnostics:",
      "  pulumi:pulumi:Stack (vendor-environments-platform-dev):",
      "    error: update failed",
      "",
      "  pulumi-nodejs:dynamic/vendor-container:Kaas (cluster):",
      "    error: property kubernetesVersion value {1.31.9} has a problem: cannot go down from 1.33.2 to 1.31.9",
      "",
    ].join("\n");
    expect(failureReason(commandError(stdout, ""))).toBe(
      "property kubernetesVersion value {1.31.9} has a problem: cannot go down from 1.33.2 to 1.31.9",
    );
  });

  it("gives the CLI's own error when no resource failed: a stack locked by another run", () => {
    const stderr = [
      "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.",
      "  file:///state/.pulumi/locks/organization/vendor-environments-platform/prod/1.json: created by ci@runner (pid 42) at 2026-01-01T00:00:00Z",
      "",
    ].join("\n");
    expect(failureReason(commandError("", stderr))).toBe(
      "the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.",
    );
  });

  it("gives the first line the CLI printed when it printed no error line", () => {
    expect(failureReason(commandError("", "\nsignal: killed\nmore\n", -2))).toBe("signal: killed");
  });

  it("gives the first line of any other error's message", () => {
    expect(failureReason(new Error("there is no environment pr-9\nstack trace"))).toBe(
      "there is no environment pr-9",
    );
    expect(failureReason("plain")).toBe("plain");
  });
});
