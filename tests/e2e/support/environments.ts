/**
 * The `examples/environments` command as the end-to-end files run it: a copy of the example built with its
 * own tsconfig, its command line run with Node 22 the way a user runs it, and its stacks opened through the
 * Automation API. Shared by the environments and the PostgreSQL files.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { BIN, ROOT, TOOLS } from "./engine";
import type { Suite } from "./suite";

/** What a finished command printed, and how it exited. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Copies `examples/environments` into the suite's folder and builds it (`npm run build` of the example: its
 * tsconfig, with the repository's TypeScript). Answers the copy's folder, where its stacks' config files go.
 */
export function copyEnvironmentsExample(s: Suite): string {
  const example = path.join(s.dir, "programs", "environments");
  const source = path.join(ROOT, "examples/environments");
  fs.cpSync(source, example, {
    recursive: true,
    // What a user's build or runs leave in the folder is not part of the example.
    filter: (src) => !/node_modules|^bin$|Pulumi\.[^/]+\.yaml$|kubeconfig-/.test(path.relative(source, src)),
  });
  execFileSync(path.join(ROOT, "node_modules/.bin/tsc"), ["-p", path.join(example, "tsconfig.json")]);
  return example;
}

/** Runs `command` with `args` as a user does, keeping its output in the suite's; resolves once it exits. */
export function runCommand(
  s: Suite,
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = s.env,
): Promise<Run> {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += String(chunk)));
  child.stderr.on("data", (chunk: Buffer) => (stderr += String(chunk)));
  return new Promise((resolve) =>
    child.on("close", (code) => {
      s.cliOutput.push(stdout, stderr);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** The example's command line in the copy at `example`, run with Node 22 in `env`. */
export function environmentsCommand(
  s: Suite,
  example: string,
  env: () => Record<string, string> = () => s.env,
): (...args: string[]) => Promise<Run> {
  return (...args) =>
    runCommand(
      s,
      path.join(BIN, "node"),
      [path.join(example, "bin/environments.js"), ...args, "--pulumi-root", TOOLS],
      example,
      env(),
    );
}

/** A stack of the example, opened through the Automation API (to read outputs with their secret marks). */
export async function exampleStack(s: Suite, example: string, program: "platform" | "app", env: string) {
  const pulumiCommand = await PulumiCommand.get({ root: TOOLS, skipVersionCheck: true });
  return LocalWorkspace.selectStack(
    { stackName: env, workDir: path.join(example, program) },
    { envVars: s.env, pulumiCommand },
  );
}
