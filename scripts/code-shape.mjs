// The code-shape figures of the package's sources, read from the syntax tree with the TypeScript compiler:
//
// - type assertions: every `x as T` and `<T>x`, but not `as const` (which asserts nothing about a type) and not
//   `satisfies` (which checks a type rather than asserting one) nor the non-null `!`;
// - for each kind, the source files that name it outside its own folders. A file names a kind when one of its
//   identifiers or string literals (an import path, a type token) holds the kind's name, `KaasBackup` or
//   `kaasBackup`; comments do not count. A kind's own folders are, in every layer, the file or folder named for
//   it: `provider/kaasBackup/`, `schemas/kaasBackup.ts`, `sdk/kaasBackup.ts`, `sdk/shells/KaasBackup.ts`,
//   `policy/kaasBackup.ts`, `emulator/kinds/kaasBackup/`.
//
// `node scripts/code-shape.mjs` prints them; `--json` prints them as JSON (tests/static/code-shape.test.ts holds
// them under the package's ceilings).
import fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The folders the figures are taken over: the package's sources. */
export const FOLDERS = ["provider", "rest", "schemas", "sdk", "emulator", "policy", "plugin"];

/** The kinds whose naming is measured. */
export const MEASURED_KINDS = ["KaasBackup", "VolumeAttachment"];

/** The TypeScript sources below `folder`, relative to the root, sorted. */
function sourcesOf(folder) {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) found.push(rel);
    }
  };
  walk(folder);
  return found.sort();
}

const camel = (kind) => kind[0].toLowerCase() + kind.slice(1);

/** Whether `file` is in one of the folders named for `kind`. */
const isOwnedBy = (file, kind) =>
  file
    .replace(/\.ts$/, "")
    .split("/")
    .some((segment) => segment === kind || segment === camel(kind));

/** The figures of one parsed file: its type assertions and the words its identifiers and strings hold. */
function readFile(file) {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const assertions = [];
  const words = [];
  const visit = (node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const isConst = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === "const";
      if (!isConst) assertions.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    }
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) words.push(node.text);
    else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) words.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { assertions, words };
}

/** Every figure, with the places behind it. */
export function measure() {
  const files = FOLDERS.flatMap(sourcesOf);
  const assertions = [];
  const naming = Object.fromEntries(MEASURED_KINDS.map((kind) => [kind, []]));
  for (const file of files) {
    const figures = readFile(file);
    for (const line of figures.assertions) assertions.push(`${file}:${line}`);
    for (const kind of MEASURED_KINDS) {
      const names = figures.words.some((word) => word.includes(kind) || word.includes(camel(kind)));
      if (names && !isOwnedBy(file, kind)) naming[kind].push(file);
    }
  }
  return { files: files.length, assertions, naming };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = measure();
  if (process.argv.includes("--json")) {
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  } else {
    const lines = [
      `${figures.files} files of ${FOLDERS.join(", ")}`,
      `type assertions: ${figures.assertions.length}`,
      ...figures.assertions.map((place) => `  ${place}`),
      ...MEASURED_KINDS.flatMap((kind) => [
        `${kind} named outside its own folders in ${figures.naming[kind].length} files`,
        ...figures.naming[kind].map((file) => `  ${file}`),
      ]),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
