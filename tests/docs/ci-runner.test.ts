/**
 * The expression and matrix rules of the CI sample runner (`tests/e2e/support/ci-runner.ts`), which decide
 * which jobs of `examples/ci-pipeline`'s samples an event starts and with which values: GitHub's `${{ }}` and
 * `if:` expressions, GitLab's `rules: if:`, and both CIs' matrices. Anything outside what the runner knows
 * must throw rather than be misread.
 */
import { combinations, evaluate } from "../e2e/support/ci-runner";

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
