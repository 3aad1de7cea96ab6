/**
 * Go programs on the provider plugin's generated Go SDK. The Go language host (`pulumi-language-go`, as
 * scripts/engine.sh builds it) compiles a program with `go build` in its folder on every run that runs it, so a
 * program's first build compiles `github.com/pulumi/pulumi/sdk/v3` and its dependencies (about 150 s on 2
 * cores) and every later one links from Go's build cache (about 3 s). The global setup warms that cache once
 * (`warmGoBuild`); programs build offline from the module cache the warm-up filled.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./engine";

/** The generated Go SDK's module path (scripts/sdks.sh). */
export const GO_SDK_MODULE = "github.com/vendor-container/pulumi-vendor-container/sdk/go";

/** The Go SDK as scripts/sdks.sh generates it, which the global setup runs. */
export const GO_SDK_DIR = path.join(ROOT, "dist/sdks/go");

/**
 * The environment of every `go` command of a Go program: the Go on the machine and no other toolchain, no C
 * toolchain (cgo off, which is what `go` chooses by itself on a PATH without a C compiler, as the templates' runs
 * have: templates.e2e.test.ts; the build cache holds one build of the Pulumi Go SDK for both, since cgo changes
 * the build of `net` and of everything above it), the module graph completed from the module cache when a go.mod
 * lacks a line (`-mod=mod`), and no VCS stamp (the programs live inside this repository's work tree, which may
 * be a git worktree that `go` cannot read). GOPROXY stays as the machine has it: every module the programs need
 * is in the module cache after the warm-up.
 */
export const GO_ENV: Record<string, string> = {
  GOTOOLCHAIN: "local",
  CGO_ENABLED: "0",
  GOFLAGS: "-mod=mod -buildvcs=false",
};

/**
 * How the suite's Go program gets the generated Go SDK, the one place that says it: the `go mod edit` argument
 * that points a go.mod at the folder scripts/sdks.sh writes (a `replace` directive), since the build's SDK is on
 * no module proxy. The templates take the release's instead, from its GOPROXY layout (templates.e2e.test.ts).
 */
const GO_SDK_EDIT = `-replace=${GO_SDK_MODULE}=${GO_SDK_DIR}`;

/** Points the go.mod in `dir` at the generated Go SDK (`GO_SDK_EDIT`). */
export function useGoSdk(dir: string): void {
  execFileSync("go", ["mod", "edit", GO_SDK_EDIT], {
    cwd: dir,
    env: { ...process.env, ...GO_ENV },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * Compiles the packages of the suite's Go program (`tests/e2e/programs/go`) in a copy of it, so that Go's module
 * and build caches hold them: the first time it downloads the modules and compiles the Pulumi Go SDK; when the
 * caches already hold them it takes under a second. Returns the seconds it took.
 */
export function warmGoBuild(): number {
  const start = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vendor-container-go-warm-"));
  try {
    fs.cpSync(path.join(ROOT, "tests/e2e/programs/go"), dir, { recursive: true });
    useGoSdk(dir);
    // The program's imports, not the program: packages that are not `main` are compiled into the cache and not
    // linked, which is all a later `go build` of a program needs.
    execFileSync(
      "go",
      ["build", "github.com/pulumi/pulumi/sdk/v3/go/pulumi/config", `${GO_SDK_MODULE}/...`],
      {
        cwd: dir,
        env: { ...process.env, ...GO_ENV },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return (Date.now() - start) / 1000;
}
