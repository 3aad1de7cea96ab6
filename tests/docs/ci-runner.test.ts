/**
 * The expression, trigger and matrix rules of the CI sample runner (`tests/e2e/support/ci-runner.ts`), which
 * decide which jobs of `examples/ci-pipeline`'s samples an event starts and with which values: GitHub's `on:`,
 * `${{ }}` and `if:` expressions, GitLab's `rules: if:`, and both CIs' matrices. Anything outside what the runner
 * knows must throw rather than be misread.
 */
import { combinations, evaluate, triggers, type GitHubEvent } from "../e2e/support/ci-runner";

const github = (name: string) =>
  ({
    "github.event_name": "pull_request",
    "github.event.action": "closed",
    "github.event.number": 7,
    "github.ref": "refs/pull/7/merge",
  })[name];

describe("evaluate", () => {
  it.each([
    ["github.event_name == 'pull_request' && github.event.action != 'closed'", false],
    ["github.event_name == 'pull_request'", true],
    ["github.event_name == 'push' && github.ref == 'refs/heads/main'", false],
    ["github.event_name == 'schedule' || github.event_name == 'pull_request'", true],
    ["!(github.event.action == 'closed')", false],
    ["github.event.number == '7'", true],
  ])("reads %s as %s", (expression, expected) => {
    expect(evaluate(expression, github)).toBe(expected);
  });

  it("yields the value of a name, for ${{ }} in a string, and null for a missing one", () => {
    expect(evaluate("github.event.number", github)).toBe(7);
    expect(evaluate("github.head_ref", github)).toBeNull();
  });

  it.each([
    [
      '$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
      { CI_PIPELINE_SOURCE: "push", CI_COMMIT_BRANCH: "main", CI_DEFAULT_BRANCH: "main" },
      true,
    ],
    [
      '$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
      { CI_PIPELINE_SOURCE: "push", CI_COMMIT_BRANCH: "feature", CI_DEFAULT_BRANCH: "main" },
      false,
    ],
    ['$CI_PIPELINE_SOURCE == "merge_request_event"', { CI_PIPELINE_SOURCE: "schedule" }, false],
    ["$CI_MERGE_REQUEST_IID == null", {}, true],
  ])("reads the GitLab rule %s with %j as %s", (expression, variables: Record<string, string>, expected) => {
    expect(evaluate(expression, (name) => variables[name.slice(1)])).toBe(expected);
  });

  it.each([
    ["contains(github.ref, 'main')", "unexpected \"(\" in contains(github.ref, 'main')"],
    ["github.ref ==", "expression ends early: github.ref =="],
    ["(github.ref == 'x'", "missing ) in (github.ref == 'x'"],
    ["github.ref 'x'", "unexpected \"'x'\" in github.ref 'x'"],
  ])("refuses %s", (expression, message) => {
    expect(() => evaluate(expression, github)).toThrow(message);
  });
});

describe("combinations", () => {
  it("makes one instance per combination of a matrix's values, in order", () => {
    expect(combinations({ stack: ["dev", "prod"], region: ["a", "b"] })).toEqual([
      { stack: "dev", region: "a" },
      { stack: "dev", region: "b" },
      { stack: "prod", region: "a" },
      { stack: "prod", region: "b" },
    ]);
    expect(combinations({})).toEqual([{}]);
  });

  it("refuses what it does not expand: a matrix include", () => {
    expect(() => combinations({ include: { stack: "qa" } })).toThrow(
      "matrix key include is not a list (include/exclude not supported)",
    );
  });
});

describe("triggers", () => {
  const push = (ref: string): GitHubEvent => ({ name: "push", ref, payload: {} });
  const pullRequest = (action: string): GitHubEvent => ({
    name: "pull_request",
    ref: "refs/pull/7/merge",
    payload: { action, number: 7 },
  });

  it.each([
    [{ push: { tags: ["v*"] } }, "refs/tags/v0.2.0", true],
    [{ push: { tags: ["v*"] } }, "refs/tags/release/v1", false],
    [{ push: { tags: ["v*"] } }, "refs/heads/main", false],
    [{ push: { tags: ["v**"] } }, "refs/tags/v1/rc", true],
    [{ push: { branches: ["main"] } }, "refs/heads/main", true],
    [{ push: { branches: ["main"] } }, "refs/heads/maintenance", false],
    [{ push: { branches: ["main"] } }, "refs/tags/main", false],
    [{ push: { branches: ["release/*"], tags: ["v*"] } }, "refs/heads/release/1.x", true],
    [{ push: null }, "refs/tags/anything", true],
    [["push", "schedule"], "refs/heads/feature", true],
    [{ schedule: [{ cron: "17 5 * * *" }] }, "refs/heads/main", false],
  ])("reads on: %j for a push of %s as %s", (on, ref, expected) => {
    expect(triggers(on, push(ref))).toBe(expected);
  });

  it("starts a pull request's run for the types listed (GitHub's three by default), and a schedule or dispatch listed", () => {
    const on = { pull_request: { types: ["opened", "closed"] }, schedule: [{ cron: "0 0 * * *" }] };
    expect(["opened", "closed", "synchronize"].map((action) => triggers(on, pullRequest(action)))).toEqual([
      true,
      true,
      false,
    ]);
    expect(
      ["opened", "closed", "synchronize"].map((action) =>
        triggers({ pull_request: null }, pullRequest(action)),
      ),
    ).toEqual([true, false, true]);
    expect(triggers(on, { name: "schedule", ref: "refs/heads/main", payload: {} })).toBe(true);
    expect(triggers(on, { name: "workflow_dispatch", ref: "refs/heads/main", payload: {} })).toBe(false);
  });

  it.each([
    [{ push: { paths: ["src/**"] } }, "on.push: paths not supported"],
    [{ push: { "branches-ignore": ["main"] } }, "on.push: branches-ignore not supported"],
    [{ push: { tags: ["v[0-9]*"] } }, "ref filter v[0-9]* is not supported"],
    [{ push: { tags: ["!v0*"] } }, "ref filter !v0* is not supported"],
  ])("refuses what it does not read: on: %j", (on, message) => {
    expect(() => triggers(on, push("refs/tags/v1"))).toThrow(message);
  });
});
