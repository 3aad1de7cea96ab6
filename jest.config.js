// Two projects: pure unit tests, and integration tests against the emulator on loopback. Types are checked
// by `tsc --noEmit` in `npm test`, so ts-jest only transpiles. The summary reporter prints the totals last.
const transform = { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] };
const common = { testEnvironment: "node", transform, moduleFileExtensions: ["ts", "js", "json"] };

module.exports = {
  reporters: ["default", "<rootDir>/tests/support/summary-reporter.js"],
  projects: [
    { ...common, displayName: "unit", testMatch: ["<rootDir>/tests/unit/**/*.test.ts"] },
    { ...common, displayName: "integration", testMatch: ["<rootDir>/tests/integration/**/*.test.ts"] },
  ],
};
