/**
 * Runs a command of the repository's tooling (npm, npx, a binary of `node_modules/.bin`) from the repository
 * root without colour, and resolves with its exit code and everything it printed, for a test that asserts on
 * both. It never rejects: a failing command is a result to show, not an exception.
 */
import { execFile } from "node:child_process";
import path from "node:path";

/** The repository root. */
export const ROOT = path.resolve(__dirname, "../..");

/** The exit code of a command and its stdout followed by its stderr. */
export interface CommandRun {
  code: number;
  output: string;
}

export function runCommand(command: string, args: string[]): Promise<CommandRun> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}
