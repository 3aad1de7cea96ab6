/**
 * `scripts/lint/import-circles.mjs`, the lint rule that holds the sources free of import circles: each case
 * lints a small project of its own with only that rule, through ESLint's Node interface in a child process
 * (the rule is an ES module).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const REPO = path.resolve(__dirname, "../..");

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "import-circles-"));
  fs.writeFileSync(path.join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } }));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
}

/** The rule's reports on the project's `src/` files, as `file:line message`. */
function lint(): string[] {
  const script = `
    import { ESLint } from "eslint";
    import tseslint from "typescript-eslint";
    import plugin from "./scripts/lint/import-circles.mjs";
    const root = process.env.LINT_ROOT;
    const eslint = new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: [{
        files: ["**/*.ts"],
        languageOptions: { parser: tseslint.parser },
        plugins: { circles: plugin },
        rules: { "circles/no-import-circle": ["error", { roots: ["src"] }] },
      }],
    });
    const results = await eslint.lintFiles(["."]);
    for (const result of results)
      for (const m of result.messages)
        console.log(result.filePath.slice(root.length + 1) + ":" + m.line + " " + m.message.split(". ")[0]);
  `;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: REPO,
    env: { ...process.env, LINT_ROOT: fs.realpathSync(root) },
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.split("\n").filter((line) => line !== "");
}

it("reports both imports of a circle made of type-only imports, naming the chain", () => {
  write({
    "src/a.ts": 'import type { B } from "./b";\nexport interface A { b?: B }\n',
    "src/b.ts": 'import type { A } from "./a";\nexport interface B { a?: A }\n',
  });
  expect(lint().sort()).toEqual([
    "src/a.ts:1 Import circle: src/a.ts -> src/b.ts -> src/a.ts",
    "src/b.ts:1 Import circle: src/b.ts -> src/a.ts -> src/b.ts",
  ]);
});

it("follows re-exports and finds the shortest way back through other files", () => {
  write({
    "src/index.ts": 'export * from "./one";\n',
    "src/one.ts": 'import { three } from "./two";\nexport const one = () => three;\n',
    "src/two.ts": 'export { three } from "./three";\n',
    "src/three.ts":
      'import type { one } from "./index";\nexport const three = 3 as const;\nexport type T = typeof one;\n',
  });
  expect(lint()).toContain(
    "src/three.ts:1 Import circle: src/three.ts -> src/index.ts -> src/one.ts -> src/two.ts -> src/three.ts",
  );
});

it("reports nothing for imports that only go one way, nor for files outside the roots", () => {
  write({
    "src/low.ts": "export const low = 1;\n",
    "src/high.ts": 'import { low } from "./low";\nexport const high = low + 1;\n',
    "test/high.test.ts": 'import { high } from "../src/high";\nexport const t = high;\n',
  });
  expect(lint()).toEqual([]);
});
