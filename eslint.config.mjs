// Lint configuration: typescript-eslint's recommended rules on every TypeScript source of the package.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", ".tools/**", "examples/**/node_modules/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The serialized provider shells must call `require` lazily (see sdk/shell.ts).
    files: ["sdk/shell.ts", "sdk/shells/*.ts"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
