// Lint configuration: typescript-eslint's recommended rules on every TypeScript source of the package, its
// type-checked rules on the package's sources and tests, and the layering of the sources:
// schemas -> rest -> provider -> sdk, policy -> plugin (each imports only the layers before it), the emulator
// beside them importing only schemas, and no import circle anywhere in the sources.
import path from "node:path";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";
import importCircles from "./scripts/lint/import-circles.mjs";

/** The package's sources: what `tsconfig.build.json` compiles and the package ships. */
const sourceFolders = ["schemas", "rest", "provider", "sdk", "policy", "plugin", "emulator"];
const sources = sourceFolders.map((folder) => `${folder}/**/*.ts`);

/** The emulator's layers above its generic one. */
const EMULATOR_ABOVE_GENERIC = [
  "emulator/kinds",
  "emulator/composition",
  "emulator/transport",
  "emulator/index.ts",
  "emulator/cli.ts",
];

/** One zone of `import-x/no-restricted-paths`: files under `target` import nothing under `from`. */
const layer = (target, from, rule) => ({
  target: `./${target}`,
  from: from.map((folder) => `./${folder}`),
  message: `Layering: ${rule}`,
});

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      ".tools/**",
      "examples/**/node_modules/**",
      "examples/**/bin/**",
      "coverage/**",
      "docs/api/**",
      "bench/dist/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Type-checked rules need the program of tsconfig.json, which holds the sources and the tests.
    files: [...sources, "tests/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    // The sources get every recommended type-checked rule; the tests only the promise and switch rules above,
    // since they read parsed JSON and mocks as `any` on purpose.
    files: sources,
    extends: [tseslint.configs.recommendedTypeChecked],
    rules: {
      // The providers' and token sources' methods are `async` without an `await` so that a thrown error
      // reaches the caller as a rejected promise, as the interfaces they implement promise.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    files: sources,
    plugins: { "import-x": importX, "import-circles": importCircles },
    settings: {
      "import-x/resolver-next": [
        createTypeScriptImportResolver({ project: path.join(import.meta.dirname, "tsconfig.json") }),
      ],
    },
    rules: {
      "import-circles/no-import-circle": [
        "error",
        {
          roots: sourceFolders.map((folder) => path.join(import.meta.dirname, folder)),
          tsconfig: path.join(import.meta.dirname, "tsconfig.json"),
        },
      ],
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            layer(
              "schemas",
              ["rest", "provider", "sdk", "policy", "plugin", "emulator"],
              "schemas/ is the lowest layer and imports none of rest/, provider/, sdk/, policy/, plugin/, emulator/.",
            ),
            layer(
              "rest",
              ["provider", "sdk", "policy", "plugin", "emulator"],
              "rest/ imports only schemas/, never provider/, sdk/, policy/, plugin/ or emulator/.",
            ),
            layer(
              "provider",
              ["sdk", "policy", "plugin", "emulator"],
              "provider/ imports only rest/ and schemas/, never sdk/, policy/, plugin/ or emulator/.",
            ),
            layer(
              "sdk",
              ["policy", "plugin", "emulator"],
              "sdk/ imports provider/, rest/ and schemas/, never policy/, plugin/ or emulator/.",
            ),
            layer(
              "policy",
              ["sdk", "plugin", "emulator"],
              "policy/ imports provider/, rest/ and schemas/, never sdk/, plugin/ or emulator/.",
            ),
            layer(
              "plugin",
              ["policy", "emulator"],
              "plugin/ imports sdk/, provider/, rest/ and schemas/, never policy/ or emulator/.",
            ),
            layer(
              "emulator",
              ["provider", "rest", "sdk", "policy", "plugin"],
              "the emulator imports only schemas/, never provider/, rest/, sdk/, policy/ or plugin/.",
            ),
            // Inside the emulator, each layer imports only those below it: base -> generic -> kinds/<kind> ->
            // kinds/index.ts (the one list of kinds) -> composition -> transport -> index.ts, cli.ts.
            layer(
              "emulator/base",
              [...EMULATOR_ABOVE_GENERIC, "emulator/generic"],
              "emulator/base/ imports nothing of the emulator's other layers.",
            ),
            layer(
              "emulator/generic",
              EMULATOR_ABOVE_GENERIC,
              "emulator/generic/ imports only emulator/base/: it holds no kind and no list of kinds.",
            ),
            layer(
              "emulator/kinds/*/**",
              [
                "emulator/kinds/index.ts",
                "emulator/composition",
                "emulator/transport",
                "emulator/index.ts",
                "emulator/cli.ts",
              ],
              "a kind's folder imports emulator/base/, emulator/generic/ and other kinds' folders, never the list of kinds, composition/ or transport/.",
            ),
            layer(
              "emulator/composition",
              ["emulator/transport", "emulator/index.ts", "emulator/cli.ts"],
              "emulator/composition/ never imports transport/ or the entry points.",
            ),
            layer(
              "emulator/transport",
              ["emulator/index.ts", "emulator/cli.ts"],
              "emulator/transport/ never imports the entry points (emulator/index.ts, emulator/cli.ts).",
            ),
          ],
        },
      ],
    },
  },
  {
    // Plain CommonJS scripts run by Node (the demo, the jest reporter, configuration files).
    files: ["**/*.js"],
    languageOptions: {
      sourceType: "commonjs",
      globals: {
        require: "readonly",
        module: "writable",
        exports: "writable",
        process: "readonly",
        console: "readonly",
        __dirname: "readonly",
      },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // The serialized provider shells must call `require` lazily (see sdk/shell.ts).
    files: ["sdk/shell.ts", "sdk/shells/*.ts"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // The shells are serialized into the state and load the provider by the package's own name only when the
    // engine calls them (see sdk/shell.ts); what that `require` returns is `any`.
    files: ["sdk/shell.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    // `quietFailures` takes each method of a kind's provider and calls it with `method.apply(provider, args)`.
    files: ["provider/common/quiet.ts"],
    rules: { "@typescript-eslint/unbound-method": "off" },
  },
);
