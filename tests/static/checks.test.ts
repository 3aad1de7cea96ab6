/**
 * The static checks of `npm test`: the type check of the package, its tests and examples, the type check of
 * the benchmark's scripts against the build, ESLint (with its layer and import-circle rules) and Prettier.
 * They run here, as tests, rather than before jest: the end-to-end files spend part of their time waiting on
 * the engine and the emulator, and these checks use that time. Each fails with everything its tool printed.
 * `npm run lint` runs the last two on their own.
 */
import path from "node:path";
import { ROOT, runCommand } from "../support/command";

const BIN = path.join(ROOT, "node_modules/.bin");

/** A type check of the whole tree takes about 20 CPU-s, the lint about 45: on a busy machine, much longer. */
const LIMIT_MS = 15 * 60 * 1000;

/** Expects a clean exit, showing the tool's output when there is none. */
async function expectClean(name: string, args: string[]): Promise<void> {
  const { code, output } = await runCommand(path.join(BIN, name), args);
  expect({ command: [name, ...args].join(" "), code, output: code === 0 ? "" : output.trim() }).toEqual({
    command: [name, ...args].join(" "),
    code: 0,
    output: "",
  });
}

it(
  "type-checks the package, its tests, the examples and the template",
  () => expectClean("tsc", ["--noEmit", "-p", "tsconfig.json"]),
  LIMIT_MS,
);

it(
  "type-checks the benchmark's scripts against the build",
  () => expectClean("tsc", ["-p", "bench/tsconfig.json"]),
  LIMIT_MS,
);

it(
  "passes ESLint: the type-checked rules, the layers and no import circle",
  () => expectClean("eslint", ["."]),
  LIMIT_MS,
);

it(
  "is formatted as Prettier formats it",
  () => expectClean("prettier", ["--check", "--log-level", "warn", "."]),
  LIMIT_MS,
);
