// An ESLint plugin with one rule, `no-import-circle`: an import of a package source file is an error when
// the imported file imports the importer back, directly or through other files. Every kind of import is
// an edge: `import`, `import type`, `export ... from`, `import()` and `require()`, because a circle of
// type-only imports still ties the files into one unit that cannot be split or layered.
// (eslint-plugin-import-x's `no-cycle` skips type-only imports, so it cannot hold this.)
//
// The graph is read with TypeScript's own scanner (`ts.preProcessFile`) and resolved with the compiler
// options of tsconfig.json (`ts.resolveModuleName`), so an edge is exactly a module the compiler loads.
// The file being linted is read from ESLint's text; the others from disk, cached by modification time.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const compilerOptionsByConfig = new Map();
function compilerOptions(tsconfigPath) {
  let options = compilerOptionsByConfig.get(tsconfigPath);
  if (!options) {
    const { config, error } = ts.readConfigFile(tsconfigPath, ts.sys.readFile);
    if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, "\n"));
    options = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(tsconfigPath)).options;
    compilerOptionsByConfig.set(tsconfigPath, options);
  }
  return options;
}

/** The imports of one file's text: the module name, where its string literal sits, the resolved file. */
function importsOf(text, fileName, options, inScope) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const imports = [];
  for (const imported of importedFiles) {
    const { resolvedModule } = ts.resolveModuleName(imported.fileName, fileName, options, ts.sys);
    if (!resolvedModule || resolvedModule.isExternalLibraryImport) continue;
    const target = path.resolve(resolvedModule.resolvedFileName);
    if (!inScope(target)) continue;
    imports.push({ specifier: imported.fileName, pos: imported.pos, end: imported.end, target });
  }
  return imports;
}

// file -> { mtimeMs, targets }
const diskCache = new Map();
function targetsOnDisk(file, options, inScope) {
  let mtimeMs;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = diskCache.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached.targets;
  const text = fs.readFileSync(file, "utf8");
  const targets = [...new Set(importsOf(text, file, options, inScope).map((i) => i.target))];
  diskCache.set(file, { mtimeMs, targets });
  return targets;
}

/** The shortest chain of imports from `start` back to `goal`, or undefined when there is none. */
function pathBack(start, goal, next) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const target of next(file)) {
      if (target === goal) {
        const chain = [file];
        for (let at = cameFrom.get(file); at !== undefined; at = cameFrom.get(at)) chain.unshift(at);
        return chain;
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  return undefined;
}

const noImportCircle = {
  meta: {
    type: "problem",
    docs: { description: "Forbid import circles among the package's sources, type-only imports included." },
    schema: [
      {
        type: "object",
        properties: {
          roots: { type: "array", items: { type: "string" } },
          tsconfig: { type: "string" },
        },
        required: ["roots"],
        additionalProperties: false,
      },
    ],
    messages: {
      circle:
        "Import circle: {{chain}}. The package's sources import without circles, type-only imports included; " +
        "move what both files need into a lower file that imports neither.",
    },
  },
  create(context) {
    const cwd = context.cwd;
    const { roots, tsconfig = "tsconfig.json" } = context.options[0];
    const rootDirs = roots.map((root) => path.resolve(cwd, root) + path.sep);
    const inScope = (file) => !file.endsWith(".d.ts") && rootDirs.some((dir) => file.startsWith(dir));
    const file = path.resolve(context.physicalFilename);
    if (!inScope(file)) return {};
    const options = compilerOptions(path.resolve(cwd, tsconfig));
    const relative = (f) => path.relative(cwd, f).split(path.sep).join("/");
    return {
      Program() {
        const sourceCode = context.sourceCode;
        const imports = importsOf(sourceCode.text, file, options, inScope);
        const ownTargets = [...new Set(imports.map((i) => i.target))];
        const next = (f) => (f === file ? ownTargets : targetsOnDisk(f, options, inScope));
        const chains = new Map();
        for (const imported of imports) {
          if (imported.target === file) continue;
          if (!chains.has(imported.target))
            chains.set(imported.target, pathBack(imported.target, file, next));
          const chain = chains.get(imported.target);
          if (!chain) continue;
          context.report({
            loc: {
              start: sourceCode.getLocFromIndex(imported.pos),
              end: sourceCode.getLocFromIndex(imported.end),
            },
            messageId: "circle",
            data: { chain: [file, ...chain, file].map(relative).join(" -> ") },
          });
        }
      },
    };
  },
};

export default {
  meta: { name: "import-circles" },
  rules: { "no-import-circle": noImportCircle },
};
