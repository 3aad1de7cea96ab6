// Six projects: pure unit tests, integration tests against the emulator on loopback, the provider-level ones
// again against an emulator in its strictest mode, the checks of the repository's documents and CI files
// (README, docs/, changelog, CI samples), the static checks (type checks, ESLint, Prettier), and the end-to-end
// suite through the real Pulumi engine (`.tools/bin`, built by `scripts/engine.sh`). Types are checked by the
// static project's `tsc --noEmit`, so ts-jest only transpiles. The summary reporter prints the totals last.
const transform = { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] };
const common = {
  testEnvironment: "node",
  transform,
  moduleFileExtensions: ["ts", "js", "json"],
  // The generated SDKs (scripts/sdks.sh) are packages of their own, and the Node.js one has its package.json
  // twice (sources and compiled): no test imports them from there.
  modulePathIgnorePatterns: ["<rootDir>/dist/sdks/"],
};

module.exports = {
  // Integration suites start an emulator and make real HTTP requests in their hooks; on a busy two-core CI
  // machine such a hook has taken longer than Jest's 5 s default. A test that hangs still fails, after 30 s.
  // The end-to-end project sets its own, longer limit (tests/e2e/support/timeout.ts).
  testTimeout: 30_000,
  // Four test files at a time on two cores: an end-to-end file spends much of its time waiting (for the
  // emulator's transitions, a killed run, a state backend that is down, a rate limit), and the integration
  // files with faults mostly wait for retries. On a fresh clone of an idle two-core machine, three at a time
  // kept 1.76 cores busy (jest 982 s), four 1.82 (jest 892 s); two left a quarter of the cores idle.
  maxWorkers: 4,
  // Longest files first, also in a fresh clone that has no timings of its own (tests/support/sequencer.js).
  testSequencer: "<rootDir>/tests/support/sequencer.js",
  reporters: ["default", "<rootDir>/tests/support/summary-reporter.js"],
  projects: [
    { ...common, displayName: "unit", testMatch: ["<rootDir>/tests/unit/**/*.test.ts"] },
    { ...common, displayName: "integration", testMatch: ["<rootDir>/tests/integration/**/*.test.ts"] },
    {
      // The provider-level suites again, against an emulator that answers only what the service's published
      // interface defines (tests/integration/support/wire.ts).
      ...common,
      displayName: "integration (published interface)",
      testMatch: [
        "<rootDir>/tests/integration/*-provider.test.ts",
        "<rootDir>/tests/integration/reliability-*.test.ts",
        "<rootDir>/tests/integration/functions.test.ts",
      ],
      setupFiles: ["<rootDir>/tests/integration/support/strict-wire.ts"],
    },
    { ...common, displayName: "docs", testMatch: ["<rootDir>/tests/docs/**/*.test.ts"] },
    { ...common, displayName: "static", testMatch: ["<rootDir>/tests/static/**/*.test.ts"] },
    {
      ...common,
      displayName: "e2e",
      testMatch: ["<rootDir>/tests/e2e/**/*.e2e.test.ts"],
      globalSetup: "<rootDir>/tests/e2e/support/global-setup.ts",
      globalTeardown: "<rootDir>/tests/e2e/support/global-teardown.ts",
      setupFilesAfterEnv: ["<rootDir>/tests/e2e/support/timeout.ts"],
    },
  ],
};
