/**
 * The parts of the environments command line (`examples/environments/environments.ts`) that decide what runs
 * and what a failure prints: an environment named twice is run once, and a failed Pulumi run is reported in one
 * line naming its environment and stack, whatever the Automation API's error holds. The Automation API is a
 * stand-in here whose runs fail as the engine's do, with what the engine printed; the command's runs through
 * the engine are `tests/e2e/environments.e2e.test.ts`.
 */
import { CommandError, Stack, type UpOptions } from "@pulumi/pulumi/automation";
import {
  failureReason,
  main,
  parseCommandLine,
  uniqueEnvironments,
} from "../../examples/environments/environments";

// The command's workspaces, one per program, stand in for the CLI: each knows its program's folder name. What a
// stack's run does is each test's (`Stack.createOrSelect`).
jest.mock("@pulumi/pulumi/automation", () => {
  const actual = jest.requireActual<typeof import("@pulumi/pulumi/automation")>("@pulumi/pulumi/automation");
  return {
    ...actual,
    PulumiCommand: { get: async () => ({}) },
    LocalWorkspace: {
      create: async ({ workDir }: { workDir: string }) => ({ program: workDir.split("/").pop() }),
    },
    Stack: { createOrSelect: jest.fn() },
  };
});

/**
 * What the engine prints (stdout) when the provider refuses, at preview, the downgrade of an environment's
 * cluster running `running` to 1.31.9, as a run through the engine printed it (its blank lines and most of its outputs left out).
 */
const refusedDowngrade = (env: string, running: string) =>
  [
    `Updating (${env}):`,
    "@ updating............",
    `    pulumi-nodejs:dynamic/vendor-container:Kaas cluster  error: ${downgradeRefusal(running)}`,
    "    pulumi-nodejs:dynamic/vendor-container:Kaas cluster **failed** 1 error",
    "Diagnostics:",
    "  pulumi-nodejs:dynamic/vendor-container:Kaas (cluster):",
    `    error: ${downgradeRefusal(running)}`,
    "Outputs:",
    '  - clusterState        : "Active"',
    `  - kubernetesVersion   : "${running}"`,
    "Resources:",
    "    1 unchanged",
    "    1 errored",
    "Duration: 11s",
    "",
  ].join("\n");

/** The provider's refusal of a Kubernetes downgrade of the cluster to 1.31.9, as the engine reports it. */
const downgradeRefusal = (running: string) =>
  "pulumi-nodejs:dynamic/vendor-container:Kaas resource 'cluster': property kubernetesVersion value {1.31.9} " +
  `has a problem: cannot go down from ${running} to 1.31.9: the service does not downgrade clusters`;

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
    expect(failureReason(commandError(refusedDowngrade("dev", "1.33.2"), ""))).toBe(
      downgradeRefusal("1.33.2"),
    );
    const withClosing = [
      "Updating (dev):",
      "Diagnostics:",
      "  pulumi:pulumi:Stack (vendor-environments-platform-dev):",
      "    error: update failed",
      "",
      "  pulumi-nodejs:dynamic/vendor-container:Kaas (cluster):",
      `    error: ${downgradeRefusal("1.33.2")}`,
      "",
    ].join("\n");
    expect(failureReason(commandError(withClosing, ""))).toBe(downgradeRefusal("1.33.2"));
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

describe("up, when stacks' runs fail", () => {
  it("runs an environment named twice once, and prints one line for each environment that failed, naming its stack", async () => {
    const running: Record<string, string> = { dev: "1.33.2", staging: "1.32.5" };
    const runs: { stack: string; config: unknown }[] = [];
    jest.mocked(Stack.createOrSelect).mockImplementation(async (env, workspace) => {
      const stack = `${env}/${(workspace as unknown as { program: string }).program}`;
      let config: unknown;
      return {
        setAllConfig: async (values: unknown) => {
          config = values;
        },
        up: async ({ onOutput }: UpOptions) => {
          runs.push({ stack, config });
          const stdout = refusedDowngrade(env, running[env]);
          onOutput?.(stdout);
          throw commandError(stdout, "");
        },
      } as unknown as Stack;
    });
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(["up", "dev", "dev", "staging", "--set", "kubernetesVersion=1.31.9"], {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    expect({ code, err }).toEqual({
      code: 1,
      err: [
        `error: dev: platform: ${downgradeRefusal("1.33.2")}`,
        `error: staging: platform: ${downgradeRefusal("1.32.5")}`,
      ],
    });
    // One run of dev's platform stack (a second would fail on its lock), none of an application stack.
    const config = { kubernetesVersion: { value: "1.31.9" } };
    expect(runs).toEqual([
      { stack: "dev/platform", config },
      { stack: "staging/platform", config },
    ]);
    // What the engine printed, each line prefixed with its stack.
    expect(out.filter((line) => /Updating \(/.test(line))).toEqual([
      "[dev/platform] Updating (dev):",
      "[staging/platform] Updating (staging):",
    ]);
    expect(out).toHaveLength(2 * (refusedDowngrade("dev", "1.33.2").split("\n").length - 1));
  });
});
