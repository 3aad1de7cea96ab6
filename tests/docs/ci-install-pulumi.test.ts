/**
 * `examples/ci-pipeline/install-pulumi.sh`, the pinned CLI install every job of the CI samples runs, on the
 * branches the end-to-end run (which finds the pinned CLI already on PATH) does not take: a runner without
 * it, where get.pulumi.com's installer runs, and the failures that must stop the job. `curl` and the
 * installer are stand-ins on PATH: a fake `curl` writes an installer script that puts a fake `pulumi` of a
 * chosen version in `$HOME/.pulumi/bin`, and records the arguments it was given.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const SCRIPT = path.resolve(__dirname, "../../examples/ci-pipeline/install-pulumi.sh");
const PINNED = /^PULUMI_VERSION=(\S+)$/m.exec(fs.readFileSync(SCRIPT, "utf8"))![1];

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "install-pulumi-"));
  fs.mkdirSync(path.join(dir, "bin"));
  fs.mkdirSync(path.join(dir, "home"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes an executable. */
function executable(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${text}\n`, { mode: 0o755 });
}

/**
 * Runs the script with only the stand-ins and the system's basic tools on PATH. `installs` is the version the
 * installer puts in place, or null for a download that fails; `onPath` a version of `pulumi` already on PATH.
 */
function install(options: { installs: string | null; onPath?: string; githubPath?: boolean }) {
  const log = path.join(dir, "installer-args");
  const installer = path.join(dir, "installer.sh");
  fs.writeFileSync(
    installer,
    [
      `echo "$@" > ${log}`,
      'mkdir -p "$HOME/.pulumi/bin"',
      `echo 'echo v${options.installs}' > "$HOME/.pulumi/bin/pulumi"`,
      'chmod +x "$HOME/.pulumi/bin/pulumi"',
    ].join("\n"),
  );
  executable(
    path.join(dir, "bin/curl"),
    options.installs === null
      ? 'echo "curl: (6) Could not resolve host: get.pulumi.com" >&2; exit 6'
      : `[ "$1 $2 $3" = "-fsSL https://get.pulumi.com -o" ] || exit 2; cp ${installer} "$4"`,
  );
  if (options.onPath) executable(path.join(dir, "bin/pulumi"), `echo v${options.onPath}`);
  const githubPath = path.join(dir, "github-path");
  const env: Record<string, string> = {
    PATH: `${path.join(dir, "bin")}:/usr/bin:/bin`,
    HOME: path.join(dir, "home"),
  };
  if (options.githubPath) env.GITHUB_PATH = githubPath;
  const run = spawnSync("sh", [SCRIPT], { env, encoding: "utf8" });
  return {
    code: run.status,
    stdout: run.stdout,
    stderr: run.stderr,
    installerArgs: fs.existsSync(log) ? fs.readFileSync(log, "utf8").trim() : null,
    githubPath: fs.existsSync(githubPath) ? fs.readFileSync(githubPath, "utf8") : null,
  };
}

it("uses a pulumi already on PATH at the pinned version, downloading nothing", () => {
  expect(install({ installs: null, onPath: PINNED })).toEqual({
    code: 0,
    stdout: `pulumi v${PINNED} is already installed: ${path.join(dir, "bin/pulumi")}\n`,
    stderr: "",
    installerArgs: null,
    githubPath: null,
  });
});

it("installs the pinned version over another one on PATH, and adds its folder to GitHub's PATH file", () => {
  expect(install({ installs: PINNED, onPath: "3.100.0", githubPath: true })).toEqual({
    code: 0,
    stdout: `pulumi v${PINNED} installed: ${path.join(dir, "home/.pulumi/bin/pulumi")}\n`,
    stderr: "",
    installerArgs: `--version ${PINNED} --no-edit-path`,
    githubPath: `${path.join(dir, "home/.pulumi/bin")}\n`,
  });
});

it("installs it where no pulumi is on PATH, outside GitHub Actions leaving PATH to the caller", () => {
  expect(install({ installs: PINNED })).toEqual({
    code: 0,
    stdout: `pulumi v${PINNED} installed: ${path.join(dir, "home/.pulumi/bin/pulumi")}\n`,
    stderr: "",
    installerArgs: `--version ${PINNED} --no-edit-path`,
    githubPath: null,
  });
});

it("fails the job when the download fails, running nothing", () => {
  expect(install({ installs: null })).toEqual({
    code: 6,
    stdout: "",
    stderr: "curl: (6) Could not resolve host: get.pulumi.com\n",
    installerArgs: null,
    githubPath: null,
  });
});

it("fails the job when the installer leaves another version", () => {
  expect(install({ installs: "3.100.0", githubPath: true })).toEqual({
    code: 1,
    stdout: "",
    stderr: `error: the installer left pulumi v3.100.0 in ${path.join(dir, "home/.pulumi/bin")}, not v${PINNED}\n`,
    installerArgs: `--version ${PINNED} --no-edit-path`,
    githubPath: null,
  });
});
