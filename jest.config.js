// Three projects: pure unit tests, integration tests against the emulator on loopback, and end-to-end tests
// that drive the real Pulumi engine. Types are checked by `tsc --noEmit` in `npm test`, so ts-jest only
// transpiles.
const transform = { "^.+\\.ts$": ["ts-jest", { isolatedModules: true, diagnostics: false }] };
const common = { testEnvironment: "node", transform, moduleFileExtensions: ["ts", "js", "json"] };

module.exports = {
  reporters: ["default", "<rootDir>/tests/support/summary-reporter.js"],
  projects: [
    { ...common, displayName: "unit", testMatch: ["<rootDir>/tests/unit/**/*.test.ts"] },
    { ...common, displayName: "integration", testMatch: ["<rootDir>/tests/integration/**/*.test.ts"] },
    {
      ...common,
      displayName: "e2e",
      testMatch: ["<rootDir>/tests/e2e/**/*.test.ts"],
      slowTestThreshold: 120,
    },
  ],
};
