/**
 * Refusals at `pulumi preview` through the real engine: changes the service cannot make (turning HA off, a
 * downgrade) and invalid argument sets of the bad-input corpus across the four kinds. Each preview fails with
 * the engine's check-failure diagnostic naming the property (or, for a nested path or a missing value, a
 * failure of the resource whose reason names it) and the provider's reason, never a `{<nil>}` value, and the
 * emulator sees no request at all: `check` decides before anything reaches the service.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { CORPUS, HA_REFUSED, type BadInput } from "../integration/support/bad-input-corpus";
import { escapeRegExp as escape } from "../support/expressions";
import { SYSTEM_POOL, WORKER_POOL, cluster } from "./support/args";
import { openSuite, type Declared, type Suite } from "./support/suite";

/** The engine's type token of a kind (`pulumi.dynamic.Resource` with the package's module). */
const token = (kind: Declared["kind"]) => `pulumi-nodejs:dynamic/vendor-container:${kind}`;

/**
 * The engine's line for one check failure: `<type> resource '<name>': property <property> value {<value>} has a
 * problem: <reason>`, or, for a failure of the whole resource (a nested path, a missing value: its reason names
 * it), `<type> resource '<name>' has a problem: <reason>`.
 */
const problemLine = (kind: Declared["kind"], name: string, failure: { property: string; reason: string }) =>
  failure.property === ""
    ? new RegExp(`${escape(`${token(kind)} resource '${name}' has a problem: ${failure.reason}`)}$`, "m")
    : new RegExp(
        `${escape(`${token(kind)} resource '${name}': property ${failure.property} value {`)}[^\\n]*` +
          `${escape(`} has a problem: ${failure.reason}`)}$`,
        "m",
      );

/** The corpus sets of the end-to-end run: creates (no `olds`), a few of each kind. */
const PICKED = [
  "Kaas with several problems at once",
  "Kaas nodeCidr in a public range",
  "Kaas autoscaling pool below minCount",
  "Kaas pool without instance",
  "Kaas upgrade date on February 30th",
  "Kaas timeout that is not a duration",
  "Kaas identity with an unknown field",
  "KaasBackup without kaasId",
  "KaasBackup unknown argument",
  "KaasBackup retention of zero days",
  "KaasBackup retention as a string",
  "KaasBackup tag with the reserved creation prefix",
  "Registry with the reserved admin name",
  "Registry without admin name",
  "Registry admin name with capitals and punctuation",
  "Registry unknown argument",
  "Registry billing period in the answer's spelling",
  "Registry vpcUri without subnetUri",
  "VolumeAttachment volume that is a bare id",
  "VolumeAttachment without nodeId",
  "VolumeAttachment pool name of the wrong type",
  "VolumeAttachment unknown argument",
  "VolumeAttachment adoptId of another attachment",
  "VolumeAttachment negative timeout",
];

function corpusSet(label: string): BadInput {
  const set = CORPUS.find((c) => c.label === label);
  if (!set) throw new Error(`no corpus set labelled "${label}"`);
  if (set.olds) throw new Error(`corpus set "${label}" is an update; only creates are previewed here`);
  return set;
}

describe("refusals at pulumi preview", () => {
  let s: Suite;
  let stack: Stack;

  /** The cluster the stack holds: HA on, Kubernetes 1.33.2. */
  const held = (overrides: Record<string, unknown> = {}) =>
    cluster({
      nodePools: [{ ...SYSTEM_POOL, nodes: 3 }, WORKER_POOL],
      ha: true,
      kubernetesVersion: "1.33.2",
      ...overrides,
    });

  beforeAll(async () => {
    s = await openSuite("refusals");
    stack = await s.stack("dev", s.program("refusals"));
    await s.declare(stack, [held()]);
    await stack.up();
  });
  afterAll(async () => {
    await s?.close();
  });

  /**
   * Previews `resources`, which must fail on `kind` `name` with exactly these check failures, each shown by the
   * engine, and without any request to the service.
   */
  async function expectRefused(
    resources: Declared[],
    kind: Declared["kind"],
    name: string,
    failures: { property: string; reason: string }[],
  ) {
    await s.declare(stack, resources);
    s.clearRequests();
    let output: string | undefined;
    try {
      await stack.preview();
    } catch (error) {
      output = String((error as Error).message);
    }
    expect(output).toBeDefined();
    for (const failure of failures) expect(output).toMatch(problemLine(kind, name, failure));
    // No other problem is reported. The CLI shows each failure twice (progress, then the diagnostics
    // summary) behind different prefixes: each is counted once, from the type on.
    const prefixes = [
      `${token(kind)} resource '${name}': property `,
      `${token(kind)} resource '${name}' has a problem: `,
    ];
    const shown = new Set(
      output!.split("\n").flatMap((line) => {
        const prefix = prefixes.find((p) => line.includes(p));
        return prefix === undefined ? [] : [line.slice(line.indexOf(prefix)).trim()];
      }),
    );
    expect(shown.size).toBe(failures.length);
    // No value the engine could not find (a nested path, a missing argument) is printed as `{<nil>}`.
    expect(output).not.toContain("{<nil>}");
    expect(s.requests()).toEqual([]);
  }

  it("refuses turning high availability off", async () => {
    await expectRefused([held({ ha: false })], "Kaas", "cluster", [{ property: "ha", reason: HA_REFUSED }]);
  });

  it("refuses a Kubernetes downgrade", async () => {
    await expectRefused([held({ kubernetesVersion: "1.32.5" })], "Kaas", "cluster", [
      {
        property: "kubernetesVersion",
        reason: "cannot go down from 1.33.2 to 1.32.5: the service does not downgrade clusters",
      },
    ]);
  });

  it.each([
    "Kaas nodeCidr with a prefix above 32",
    "Kaas autoscaling pool above maxCount",
    "Kaas unknown argument",
    ...PICKED,
  ])("refuses the corpus set: %s", async (label) => {
    const set = corpusSet(label);
    await expectRefused(
      [held(), { kind: set.kind, name: "bad", args: set.news }],
      set.kind,
      "bad",
      set.failures,
    );
  });

  it("left the cluster as it was; destroy leaves the service empty", async () => {
    s.clearRequests();
    await s.declare(stack, [held()]);
    await stack.preview({ expectNoChanges: true });
    expect(s.requests()).toEqual([]);
    const result = await stack.destroy();
    expect(result.summary.resourceChanges).toEqual({ delete: 2 });
    expect(s.mutations()).toEqual(["DELETE /kaas/kaas-0001"]);
    s.emulator.emulator.advanceClock(60_000);
    expect(s.emulator.emulator.state().kaas).toEqual([]);
  });
});
