/**
 * The release as users get it: `npm run release`'s files in dist/release (scripts/release.mjs), made once per
 * test run. The global setup starts the release in the background (`startRelease`), once the build, the pack
 * and the SDKs it reads are in place, so that the suites that need no release do not wait for it; the suites
 * that do await `release()`. One release for all of them: two at once would each empty dist/release under the
 * other.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { E2E_ROOT, ROOT } from "./engine";

/** Where the release's files are. */
export const RELEASE_DIR = path.join(ROOT, "dist", "release");
/** The package's version, which the release's files carry in their names. */
export const VERSION: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
/** The name of the plugin's archive for `os`-`arch` (this machine's by default). */
export const archiveName = (os = "linux", arch = "amd64"): string =>
  `pulumi-resource-vendor-container-v${VERSION}-${os}-${arch}.tar.gz`;

/** What the release printed, and the file its exit status goes into when it ends. */
const LOG = path.join(E2E_ROOT, "release.log");
const STATUS = path.join(E2E_ROOT, "release.status");
/**
 * Longer than a release from nothing takes on a busy two-core machine (about 2 minutes), and shorter than a
 * hook may take (support/timeout.ts).
 */
const RELEASE_DEADLINE_MS = 8 * 60_000;

/**
 * Starts `scripts/release.mjs` in a shell of its own, which writes the release's exit status into STATUS when it
 * ends: it outlives the global setup, and needs nothing of the process that started it.
 */
export function startRelease(): void {
  fs.rmSync(STATUS, { force: true });
  const command = `${JSON.stringify(process.execPath)} scripts/release.mjs >${JSON.stringify(LOG)} 2>&1; echo $? >${JSON.stringify(STATUS)}`;
  spawn("bash", ["-c", command], { cwd: ROOT, detached: true, stdio: "ignore" }).unref();
}

/**
 * Waits for the release the global setup started and resolves with its folder; throws with what it printed when
 * it failed, or when it has not ended by the deadline.
 */
export async function release(): Promise<string> {
  const deadline = Date.now() + RELEASE_DEADLINE_MS;
  while (!fs.existsSync(STATUS) || fs.readFileSync(STATUS, "utf8").trim() === "") {
    if (Date.now() > deadline) throw new Error(`the release has not ended in ${RELEASE_DEADLINE_MS} ms`);
    await sleep(500);
  }
  const status = fs.readFileSync(STATUS, "utf8").trim();
  if (status !== "0") throw new Error(`npm run release failed (${status}):\n${fs.readFileSync(LOG, "utf8")}`);
  return RELEASE_DIR;
}
