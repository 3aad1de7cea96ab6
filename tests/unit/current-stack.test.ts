/**
 * How the provider process tells which stack it runs for when no program says it (provider/common/stack.ts),
 * so a delete can refuse an object another stack owns: the `--stack` argument of the `pulumi` process that
 * started it, else `PULUMI_STACK`, else the stack the project's workspace selected, unless that selection was
 * written after the CLI started.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import {
  currentStackScope,
  foreignOwner,
  readStack,
  stackArgument,
  stackNameOf,
  type StackSources,
} from "../../provider/common/stack";

const HOME = "/home/ops/.pulumi";
const CWD = "/work/infra";
const workspaceFile = (project: string, manifest = path.join(CWD, "Pulumi.yaml")) =>
  path.join(
    HOME,
    "workspaces",
    `${project}-${createHash("sha1").update(manifest).digest("hex")}-workspace.json`,
  );

function sources(over: Partial<StackSources> & { files?: Record<string, string> } = {}): StackSources {
  const { files = {}, ...rest } = over;
  return {
    env: { PULUMI_PROJECT: "infra", PULUMI_HOME: HOME },
    ancestors: () => [
      ["/bin/sh", "pulumi-resource-pulumi-nodejs"],
      ["/usr/bin/pulumi", "destroy", "--stack", "prod"],
    ],
    readFile: (file) => files[file],
    cwd: CWD,
    backend: () => "file:///var/state",
    normalise: (url) => url.replace(/\/+$/, ""),
    ...rest,
  };
}

describe("stackArgument", () => {
  it.each([
    [["pulumi", "destroy", "--stack", "prod", "--yes"], "prod"],
    [["pulumi", "up", "--stack=org/infra/prod"], "org/infra/prod"],
    [["pulumi", "up", "-s", "dev"], "dev"],
    [["pulumi", "up", "-sdev"], "dev"],
    [["pulumi", "up", "--yes"], undefined],
  ])("reads %j as %p", (argv, stack) => {
    expect(stackArgument(argv)).toBe(stack);
  });

  it("names the stack of a fully qualified reference", () => {
    expect(stackNameOf("org/infra/prod")).toBe("prod");
    expect(stackNameOf("prod")).toBe("prod");
  });
});

describe("currentStackScope", () => {
  it("takes the stack from the pulumi process's --stack argument", () => {
    expect(currentStackScope(sources())).toBe("infra/prod");
  });

  it("reads a fully qualified --stack as its stack name", () => {
    const ancestors = () => [["/opt/pulumi/bin/pulumi", "destroy", "--stack", "acme/infra/staging"]];
    expect(currentStackScope(sources({ ancestors }))).toBe("infra/staging");
  });

  it("prefers the --stack argument to PULUMI_STACK, as the CLI does", () => {
    const env = { PULUMI_PROJECT: "infra", PULUMI_STACK: "dev" };
    expect(currentStackScope(sources({ env }))).toBe("infra/prod");
  });

  it("takes PULUMI_STACK when the CLI names no stack", () => {
    const env = { PULUMI_PROJECT: "infra", PULUMI_STACK: "dev" };
    expect(currentStackScope(sources({ env, ancestors: () => [["pulumi", "destroy"]] }))).toBe("infra/dev");
  });

  it("takes the stack the workspace selected for this backend, else its only or legacy one", () => {
    const ancestors = () => [["pulumi", "destroy", "--yes"]];
    const perBackend = JSON.stringify({ stacks: { "file:///other": "a", "file:///var/state/": "b" } });
    expect(currentStackScope(sources({ ancestors, files: { [workspaceFile("infra")]: perBackend } }))).toBe(
      "infra/b",
    );
    const only = JSON.stringify({ stacks: { "https://api.example.com": "c" } });
    expect(currentStackScope(sources({ ancestors, files: { [workspaceFile("infra")]: only } }))).toBe(
      "infra/c",
    );
    const legacy = JSON.stringify({ stack: "d" });
    expect(currentStackScope(sources({ ancestors, files: { [workspaceFile("infra")]: legacy } }))).toBe(
      "infra/d",
    );
  });

  it("is unknown without a project, or without any source of the stack", () => {
    expect(currentStackScope(sources({ env: {} }))).toBeUndefined();
    expect(currentStackScope(sources({ ancestors: () => [] }))).toBeUndefined();
    const broken = { [workspaceFile("infra")]: "{not json" };
    expect(currentStackScope(sources({ ancestors: () => [], files: broken }))).toBeUndefined();
  });

  it("reads the project from PULUMI_NODEJS_PROJECT too", () => {
    expect(currentStackScope(sources({ env: { PULUMI_NODEJS_PROJECT: "web" } }))).toBe("web/prod");
  });
});

describe("readStack", () => {
  /** The CLI started at this time (epoch ms); `pulumi destroy` names no stack. */
  const STARTED = Date.parse("2026-11-27T10:00:00Z");
  const selected = { [workspaceFile("infra")]: JSON.stringify({ stacks: { "file:///var/state": "b" } }) };
  const noStackArgument = () => [["pulumi", "destroy", "--yes"]];
  const at = (modified: number | undefined, started: number | undefined) =>
    sources({
      ancestors: noStackArgument,
      files: selected,
      modifiedAt: (file) => (file === workspaceFile("infra") ? modified : undefined),
      cliStartedAt: () => started,
    });

  it("takes the workspace's selection written before the CLI started", () => {
    expect(readStack(at(STARTED - 60_000, STARTED))).toEqual({ scope: "infra/b" });
  });

  it("refuses a selection written after the CLI started: pulumi stack select ran meanwhile", () => {
    expect(readStack(at(STARTED + 1, STARTED))).toEqual({ selectionChanged: true });
    expect(currentStackScope(at(STARTED + 1, STARTED))).toBeUndefined();
  });

  it("takes the selection as it is when either time cannot be read", () => {
    expect(readStack(at(undefined, STARTED))).toEqual({ scope: "infra/b" });
    expect(readStack(at(STARTED + 60_000, undefined))).toEqual({ scope: "infra/b" });
  });

  it("never reads the selection when --stack or PULUMI_STACK names the stack", () => {
    const changed = { modifiedAt: () => STARTED + 60_000, cliStartedAt: () => STARTED, files: selected };
    expect(readStack(sources(changed))).toEqual({ scope: "infra/prod" });
    const env = { PULUMI_PROJECT: "infra", PULUMI_HOME: HOME, PULUMI_STACK: "dev" };
    expect(readStack(sources({ ...changed, env, ancestors: noStackArgument }))).toEqual({
      scope: "infra/dev",
    });
  });

  it("tells nothing without a project, or without any source of the stack", () => {
    expect(readStack(sources({ env: {}, files: selected }))).toEqual({});
    expect(readStack(sources({ ancestors: noStackArgument }))).toEqual({});
  });
});

describe("foreignOwner", () => {
  it("names an owner scope of another stack or project", () => {
    expect(foreignOwner("infra/a/images", "infra/b")).toBe("infra/a/images");
    expect(foreignOwner("other/b/images", "infra/b")).toBe("other/b/images");
  });

  it("is undefined for this stack's objects, a resource name with slashes included", () => {
    expect(foreignOwner("infra/b/images", "infra/b")).toBeUndefined();
    expect(foreignOwner("infra/b/team/images", "infra/b")).toBeUndefined();
  });

  it("is undefined when the owner or the current stack is unknown", () => {
    expect(foreignOwner(undefined, "infra/b")).toBeUndefined();
    expect(foreignOwner("infra/a/images", undefined)).toBeUndefined();
  });
});
