/**
 * What the stack tracks, through the real engine:
 *
 * - A state that lost track of an object never makes a second one: with a state restored from an export taken
 *   before the create, or after `pulumi state delete`, `up` stops before any change, naming the object, its
 *   state and creation time, and `adoptId`; with `adoptId` the stack tracks it again and the next preview shows
 *   no change (one story: a registry the restored state never knew and a cluster then removed from it, refused
 *   in one `up`; the refusal of each kind under each reading is
 *   tests/integration/filter-readings-provider.test.ts's).
 * - A renamed stack replaces and destroys its objects with no extra step; a `destroy` right after the rename,
 *   without the program, is refused naming the one step that works (`pulumi destroy --run-program`), which a
 *   copied stack's state cannot pass. (A project renamed with `pulumi stack rename` goes the same way
 *   through the engine; the owner the provider records for either is tests/integration/kaas-provider.test.ts's.)
 * - A copied stack's `destroy` leaves the original's objects live.
 * - Selecting another stack in the same folder while an `up --replace` runs changes nothing: the run acts for
 *   the stack its program runs for.
 * - A provider process killed alone while its cluster provisions: the same `up` again resumes that cluster.
 *
 * The lookup depends on how the service reads filters, and the refusals on the owner tags it answers: the tests
 * take turns between the emulator's default readings and its strictest (published interface only), so that the
 * engine meets both. The provider under each reading, case by case, is the integration projects' (the
 * provider suites run once per reading there: tests/integration/creation-provider.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { DEFAULT_WIRE, STRICT_WIRE, type WireReadings } from "../../emulator";
import { cluster, registry } from "./support/args";
import { descendantsOf, waitFor } from "./support/processes";
import { foreignDeleteRefusal } from "./support/refusals";
import { PROJECT, type Declared, openSuite, type Suite, trackedOf } from "./support/suite";

const PREFIX = `/projects/${PROJECT}/providers/Vendor.Container`;
const TOKEN_TYPE = "pulumi-nodejs:dynamic/vendor-container";

/** The URN of resource `name` of `kind` in `stack` of `project`. */
const urnOf = (stack: string, project: string, kind: string, name: string) =>
  `urn:pulumi:${stack}::${project}::${TOKEN_TYPE}:${kind}::${name}`;

/**
 * One suite (emulator, backend, program) under `wire`, and what its tests share. Registers its hooks in the
 * calling `describe`.
 */
function world(name: string) {
  let s: Suite;
  let dir: string;
  const project = `track-${name}`;

  beforeAll(async () => {
    s = await openSuite(project);
    dir = s.program(project);
  });
  afterAll(async () => {
    await s?.close();
  });

  const emulator = () => s.emulator.emulator;

  /** The objects the service holds that are not deleted: `id state [tags]` by kind. */
  const live = () => {
    const state = emulator().state();
    const alive = (
      items: {
        metadata: { id: string; tags?: string[] | null };
        status?: { state?: string | null } | null;
      }[],
    ) => items.filter((i) => i.status?.state !== "Deleted").map((i) => `${i.metadata.id} ${i.status?.state}`);
    return { kaas: alive(state.kaas), registries: alive(state.registries) };
  };

  /** The tags of the package on cluster `id`: the creation tag (any) and the owner tag. */
  const packageTagsOf = (id: string) =>
    (
      emulator()
        .state()
        .kaas.find((k) => k.metadata.id === id)?.metadata.tags ?? []
    )
      .filter((t) => t.startsWith("pulumi-ct-"))
      .map((t) => (t.startsWith("pulumi-ct-owner:") ? t : "creation tag"));

  /** A fresh service under `wire`. */
  function reset(wire: WireReadings): void {
    emulator().reset();
    emulator().updateConfig({ wire });
  }

  async function stackWith(name: string, resources: Declared[], workDir = dir): Promise<Stack> {
    const stack = await s.stack(name, workDir);
    await s.declare(stack, resources);
    return stack;
  }

  /** Runs the CLI in `workDir` and fails the test unless it exits 0. */
  async function cli(args: string[], workDir = dir): Promise<string> {
    const { code, output } = await s.cli(args, workDir).done;
    if (code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${code}:\n${output}`);
    return output;
  }

  /** The message of the failed `up` of `stack`. */
  async function failedUp(stack: Stack, options: Record<string, unknown> = {}): Promise<string> {
    const error = await stack.up(options).then(
      () => undefined,
      (e: Error) => e,
    );
    if (!error) throw new Error("the up succeeded");
    return error.message;
  }

  return {
    project,
    suite: () => s,
    dir: () => dir,
    emulator,
    live,
    packageTagsOf,
    reset,
    stackWith,
    cli,
    failedUp,
  };
}

describe("a state that lost track of its object", () => {
  const w = world("lost");
  const { project, live, packageTagsOf, reset, stackWith, cli, failedUp } = w;
  const s = () => w.suite();

  it("restored from an export taken before a create, and after pulumi state delete, up refuses before any change, naming each object; adoptId tracks them again, published interface only", async () => {
    reset(STRICT_WIRE);
    const stack = await stackWith("lost", [cluster()]);
    await stack.up();
    expect(await trackedOf(stack)).toEqual({ cluster: "kaas-0001" });
    // Released once the engine recorded the id: what remains is the owner tag.
    expect(packageTagsOf("kaas-0001")).toEqual([`pulumi-ct-owner:${project}/lost/cluster`]);
    const before = await stack.exportStack();
    await s().declare(stack, [cluster(), registry()]);
    await stack.up();
    expect(await trackedOf(stack)).toEqual({ cluster: "kaas-0001", images: "registry-0001" });

    // The state restored from the export does not know the registry; then the cluster is removed from it too.
    await stack.importStack(before);
    await cli(["state", "delete", urnOf("lost", project, "Kaas", "cluster"), "--yes", "--stack", "lost"]);
    s().clearRequests();
    // Both creates run and are refused (the engine starts no further step once one failed).
    const message = await failedUp(stack, { continueOnError: true });
    expect(message).toContain('Registry "images": found registry registry-0001 (Active, created ');
    expect(message).toContain('set adoptId: "registry-0001" to track it again');
    expect(message).toMatch(
      new RegExp(
        `Kaas "cluster": found cluster kaas-0001 \\(Active, created [0-9T:.Z-]+\\) naming this resource as its ` +
          `owner \\(tag pulumi-ct-owner:${project}/lost/cluster\\), but this stack's state does not track it: it ` +
          "was removed from the state \\(pulumi state delete\\), the state was restored from an older copy, or another state backend holds a stack of the same name\\. " +
          `Nothing was created\\. If it is this resource's cluster, set adoptId: "kaas-0001" to track it again; ` +
          "otherwise delete it\\.",
      ),
    );
    expect(s().mutations()).toEqual([]);
    expect(live()).toEqual({ kaas: ["kaas-0001 Active"], registries: ["registry-0001 Active"] });

    await s().declare(stack, [cluster({ adoptId: "kaas-0001" }), registry({ adoptId: "registry-0001" })]);
    await stack.up();
    expect(await trackedOf(stack)).toEqual({ cluster: "kaas-0001", images: "registry-0001" });
    await stack.preview({ expectNoChanges: true });
    expect(live()).toEqual({ kaas: ["kaas-0001 Active"], registries: ["registry-0001 Active"] });
    await stack.destroy();
    expect(live()).toEqual({ kaas: [], registries: [] });
  });
});

// Renames and copies are told apart by the owner tags the service answers, which the strictest readings spell
// as the published interface does.
describe("renames, copies and the stack a run acts for", () => {
  const w = world("stacks");
  const { project, emulator, live, packageTagsOf, reset, stackWith, cli } = w;
  const s = () => w.suite();
  const dir = () => w.dir();

  it("a renamed stack replaces with up --replace and destroys with no extra step, default readings", async () => {
    reset(DEFAULT_WIRE);
    const stack = await stackWith("before", [cluster(), registry()]);
    await stack.up();
    await cli(["stack", "rename", "after", "--stack", "before"]);
    const renamed = await s().stack("after", dir());

    await renamed.up({ replace: [urnOf("after", project, "Kaas", "cluster")] });
    expect(await trackedOf(renamed)).toEqual({ cluster: "kaas-0002", images: "registry-0001" });
    expect(live()).toEqual({ kaas: ["kaas-0002 Active"], registries: ["registry-0001 Active"] });
    expect(packageTagsOf("kaas-0002")).toEqual([`pulumi-ct-owner:${project}/after/cluster`]);
    await renamed.preview({ expectNoChanges: true });

    await renamed.destroy();
    expect(live()).toEqual({ kaas: [], registries: [] });
  });

  it("a destroy right after a rename names pulumi destroy --run-program, which works; a copy's destroy is refused, published interface only", async () => {
    reset(STRICT_WIRE);
    const stack = await stackWith("orig", [cluster()]);
    await stack.up();
    // A copy: the original's export imported into another stack (the CLI needs --force for that).
    const exported = path.join(s().dir, "orig.json");
    fs.writeFileSync(exported, await s().exportState(stack));
    await cli(["stack", "init", "copy"]);
    await cli(["stack", "import", "--file", exported, "--force", "--stack", "copy"]);
    const copy = await s().stack("copy", dir());
    await s().declare(copy, [cluster()]);
    const refusedCopy = await copy.destroy().then(
      () => "",
      (e: Error) => e.message,
    );
    const refusal = (current: string) =>
      foreignDeleteRefusal({
        what: 'Kaas "cluster"',
        noun: "cluster",
        id: "kaas-0001",
        owner: `${project}/orig/cluster`,
        current: `${project}/${current}`,
      });
    expect(refusedCopy).toContain(refusal("copy"));
    // With the program, the copy's state proves nothing either.
    const refusedAgain = await copy.destroy({ runProgram: true }).then(
      () => "",
      (e: Error) => e.message,
    );
    expect(refusedAgain).toContain(refusal("copy"));
    expect(live().kaas).toEqual(["kaas-0001 Active"]);

    await cli(["stack", "rename", "renamed", "--stack", "orig"]);
    const renamed = await s().stack("renamed", dir());
    const refused = await renamed.destroy().then(
      () => "",
      (e: Error) => e.message,
    );
    expect(refused).toContain(refusal("renamed"));
    expect(live().kaas).toEqual(["kaas-0001 Active"]);
    await renamed.destroy({ runProgram: true });
    expect(live().kaas).toEqual([]);
  });

  it("selecting another stack in the folder while up --replace runs changes nothing, published interface only", async () => {
    reset(STRICT_WIRE);
    const other = await stackWith("other", [registry()]);
    await other.up();
    const stack = await stackWith("dev", [cluster()]);
    await stack.up();
    await cli(["stack", "select", "dev"]);
    // The replacement's create takes long enough to select another stack while it provisions.
    emulator().updateConfig({ durations: { kaasCreateMs: 4000 } });
    s().clearRequests();
    const run = s().cli(
      ["up", "--yes", "--skip-preview", "--replace", urnOf("dev", project, "Kaas", "cluster")],
      dir(),
    );
    await waitFor("the replacement's create request", () =>
      s()
        .requests()
        .some((r) => r.method === "POST" && r.path === `${PREFIX}/kaas` && (r.status ?? 0) < 300),
    );
    await cli(["stack", "select", "other"]);
    const { code, output } = await run.done;
    expect({ code, output: output.includes("error") ? output : "" }).toEqual({ code: 0, output: "" });
    expect(await trackedOf(stack)).toEqual({ cluster: "kaas-0002" });
    expect(live()).toEqual({ kaas: ["kaas-0002 Active"], registries: ["registry-0001 Active"] });
  });

  it("a provider process killed alone while its cluster provisions: the same up again makes no second cluster, default readings", async () => {
    reset(DEFAULT_WIRE);
    const stack = await stackWith("provider-killed", [cluster()]);
    s().clearRequests();
    emulator().updateConfig({ durations: { kaasCreateMs: 4000 } });
    const run = s().cli(["up", "--yes", "--skip-preview", "--stack", "provider-killed"], dir());
    await waitFor("the create request", () =>
      s()
        .requests()
        .some((r) => r.method === "POST" && r.path === `${PREFIX}/kaas` && (r.status ?? 0) < 300),
    );
    const providers = descendantsOf(run.child.pid!).filter(({ argv }) =>
      argv.some(
        (arg) => arg.endsWith("cmd/dynamic-provider") || arg.endsWith("cmd/dynamic-provider/index.js"),
      ),
    );
    expect(providers).toHaveLength(1);
    process.kill(providers[0].pid, "SIGKILL");
    const { code } = await run.done;
    expect(code).not.toBe(0);

    // The CLI saw the provider fail and ended the update itself: no lock is left to cancel.
    await stack.up();
    expect(await trackedOf(stack)).toEqual({ cluster: "kaas-0001" });
    expect(live().kaas).toEqual(["kaas-0001 Active"]);
    expect(
      s()
        .requests()
        .filter((r) => r.method === "POST" && r.path === `${PREFIX}/kaas`),
    ).toHaveLength(1);
    await stack.preview({ expectNoChanges: true });
  });
});
