// Lint configuration: typescript-eslint's recommended rules on every TypeScript source of the package.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
);
