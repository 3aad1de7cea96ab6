/**
 * The examples of the resource reference (docs/resources/) against the SDKs generated from the same schema, which
 * the global setup generates and installs: every TypeScript example type-checks on the Node.js SDK, and every
 * Python example calls classes and functions the Python SDK has, with keyword arguments they take, and exports
 * attributes their results have. The pages' staleness and contents are the docs project's
 * (tests/docs/resource-docs.test.ts); what only the SDKs can tell, their real names, is checked here.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { E2E_ROOT, PYTHON, PYTHON_SDK_DIR, ROOT } from "./support/engine";

const run = promisify(execFile);
const PAGES = path.join(ROOT, "docs/resources");

/** The code of the first fenced block of `language` on each page that has one, by page name. */
function examples(language: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const file of fs.readdirSync(PAGES).filter((f) => f.endsWith(".md"))) {
    const block = new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(
      fs.readFileSync(path.join(PAGES, file), "utf8"),
    );
    if (block) found[file.replace(/\.md$/, "")] = block[1];
  }
  return found;
}

// Reads each example's calls of the SDK module and what it exports, and checks them against the installed SDK: a
// resource class takes its `<Class>Args` keywords, a function its own parameters; an exported attribute is one of
// the resource class, or of the function's `<Function>Result`.
const PYTHON_CHECK = `
import ast, inspect, json, sys
import pulumi_vendor_container as sdk

problems = []
for name, path in json.loads(sys.argv[1]).items():
    tree = ast.parse(open(path).read())
    made = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            made[node.targets[0].id] = node.value.func.attr
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if isinstance(node.func.value, ast.Name) and node.func.value.id == "vendor_container":
            target = getattr(sdk, node.func.attr, None)
            if target is None:
                problems.append(f"{name}: the SDK has no {node.func.attr}")
                continue
            args_class = getattr(sdk, node.func.attr + "Args", None) if inspect.isclass(target) else None
            callable_ = (args_class or target).__init__ if inspect.isclass(target) else target
            taken = inspect.signature(callable_).parameters
            problems += [f"{name}: {node.func.attr} takes no {k.arg}" for k in node.keywords if k.arg not in taken]
        if isinstance(node.func.value, ast.Name) and node.func.value.id == "pulumi" and node.func.attr == "export":
            exported = node.args[1]
            source = made[exported.value.id]
            holder = getattr(sdk, source) if source[0].isupper() else getattr(
                sdk, "".join(part.title() for part in source.removesuffix("_output").split("_")) + "Result")
            if not hasattr(holder, exported.attr):
                problems.append(f"{name}: {holder.__name__} has no {exported.attr}")
print(json.dumps(problems))
`;

let work: string;
beforeAll(() => {
  // Under the e2e folder, whose node_modules holds the Node.js SDK and @pulumi/pulumi as the setup installed them.
  work = fs.mkdtempSync(path.join(E2E_ROOT, "resource-docs-"));
});
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

it("has TypeScript examples that type-check on the generated Node.js SDK", async () => {
  const code = examples("ts");
  expect(Object.keys(code).length).toBeGreaterThanOrEqual(10);
  for (const [name, text] of Object.entries(code)) fs.writeFileSync(path.join(work, `${name}.ts`), text);
  fs.writeFileSync(
    path.join(work, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: "commonjs",
        target: "es2022",
        moduleDetection: "force",
        skipLibCheck: true,
        types: [],
      },
      include: ["*.ts"],
    }),
  );
  const tsc = path.join(ROOT, "node_modules/.bin/tsc");
  const result = await run(tsc, ["-p", work], { cwd: work }).then(
    () => "",
    (error: { stdout: string }) => error.stdout,
  );
  expect(result).toBe("");
});

it("has Python examples that use the generated Python SDK's names", async () => {
  const code = examples("python");
  expect(Object.keys(code).length).toBeGreaterThanOrEqual(10);
  const files: Record<string, string> = {};
  for (const [name, text] of Object.entries(code)) {
    files[name] = path.join(work, `${name}.py`);
    fs.writeFileSync(files[name], text);
  }
  const { stdout } = await run(PYTHON, ["-c", PYTHON_CHECK, JSON.stringify(files)], {
    env: { ...process.env, PYTHONPATH: PYTHON_SDK_DIR },
  });
  expect(JSON.parse(stdout)).toEqual([]);
});
