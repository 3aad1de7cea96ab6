/**
 * The API reference: `npm run docs` builds it from the TSDoc with TypeDoc (`typedoc.json`), into `docs/api`,
 * which git ignores; the build fails on any warning, among them an exported symbol without documentation.
 * Both runs write to a temporary folder, not to the repository.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT, runCommand as exec } from "../support/command";

const run = promisify(execFile);

let out: string;
beforeAll(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), "api-docs-"));
});
afterAll(() => {
  fs.rmSync(out, { recursive: true, force: true });
});

jest.setTimeout(120_000);

it("builds the reference of every exported class, function and type, without a warning", async () => {
  const { code, output } = await exec("npm", [
    "run",
    "--silent",
    "docs",
    "--",
    "--out",
    path.join(out, "api"),
  ]);
  expect({ code, warnings: output.split("\n").filter((line) => /warning|error/i.test(line)) }).toEqual({
    code: 0,
    warnings: [],
  });
  const page = (p: string) => fs.existsSync(path.join(out, "api", p));
  expect(
    [
      "index.html",
      "classes/Kaas.html",
      "classes/VendorApiError.html",
      "functions/getKaas.html",
      "functions/getKubeconfigOutput.html",
      "interfaces/KaasInputs.html",
      "types/FunctionInputs.html",
    ].filter((p) => !page(p)),
  ).toEqual([]);
  // The TSDoc of an argument and of a function's Output form reach their pages.
  const text = (p: string) => fs.readFileSync(path.join(out, "api", p), "utf8");
  expect(text("interfaces/KaasInputs.html")).toContain(
    "Node pools, at least one, unique names. Adding, removing and resizing pools are in place.",
  );
  expect(text("functions/getKubeconfigOutput.html")).toContain("The result is always a secret.");
});

it("fails when an exported symbol has no documentation, naming it", async () => {
  // The fixture's options extend the repository's `typedoc.json`, changing only the entry point.
  const { code, output } = await exec("npx", [
    "typedoc",
    "--options",
    "tests/fixtures/api-docs/typedoc.json",
    "--out",
    path.join(out, "fixture"),
  ]);
  expect(code).not.toBe(0);
  expect(output).toContain(
    "undocumentedHelper (CallSignature), defined in pulumi-vendor-container/tests/fixtures/api-docs/undocumented.ts, does not have any documentation",
  );
  expect(output).not.toContain("documented (CallSignature)");
  expect(output).not.toContain("html generated");
});

it("writes into docs/api by default, a folder git ignores", async () => {
  const config = JSON.parse(fs.readFileSync(path.join(ROOT, "typedoc.json"), "utf8"));
  expect(config.out).toBe("docs/api");
  const { code } = await run("git", ["check-ignore", "--quiet", "docs/api/index.html"], { cwd: ROOT }).then(
    () => ({ code: 0 }),
    (error: { code: number }) => ({ code: error.code }),
  );
  expect(code).toBe(0);
});
