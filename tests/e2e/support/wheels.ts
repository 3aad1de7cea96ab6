/**
 * The Python packages a program on the provider plugin's Python SDK needs besides the SDK itself, as wheels for
 * pip without an index (`PIP_NO_INDEX=1`, `PIP_FIND_LINKS`): PyPI is reachable here, but a test's `pip install`
 * should not depend on it, nor wait for it, at every run.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { E2E_ROOT, PYTHON, ROOT } from "./engine";

/** The version of the `pulumi` package in the engine's virtualenv (scripts/engine.sh), which programs run on. */
export function pulumiPythonVersion(): string {
  return execFileSync(PYTHON, ["-c", 'import importlib.metadata as m; print(m.version("pulumi"))'], {
    encoding: "utf8",
  }).trim();
}

/**
 * A folder of wheels for the engine's Python (its version and platform): the `pulumi` package of the engine's
 * virtualenv with its dependencies, the SDK's own (packaging, semver, which pulumi does not all bring), and
 * `wheel`, which the Python host upgrades in a new virtualenv with pip and setuptools. Downloaded from PyPI once
 * into `E2E_ROOT/pulumi-wheels/<hash of that list>`, then kept. It holds no `pulumi_vendor_container`: each test
 * adds the SDK it installs (a wheel it builds, the release's) as a folder of its own.
 *
 * Suites that run at the same time may both download: each into a folder of its own, renamed into place; the
 * second rename fails on the first one's folder, which is as good, and a folder in place is never replaced.
 */
export function pulumiWheels(): string {
  const wanted = [`pulumi==${pulumiPythonVersion()}`, "packaging>=24.0", "semver>=2.8.1", "wheel"];
  const parent = path.join(E2E_ROOT, "pulumi-wheels");
  const dir = path.join(parent, createHash("sha256").update(wanted.join(" ")).digest("hex").slice(0, 12));
  if (fs.existsSync(dir)) return dir;
  fs.mkdirSync(parent, { recursive: true });
  const download = fs.mkdtempSync(path.join(parent, "download-"));
  try {
    execFileSync(
      PYTHON,
      ["-m", "pip", "--disable-pip-version-check", "--quiet", "download", "--dest", download, ...wanted],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      fs.renameSync(download, dir);
    } catch (error) {
      if (!fs.existsSync(dir)) throw error;
    }
    return dir;
  } finally {
    fs.rmSync(download, { recursive: true, force: true });
  }
}
