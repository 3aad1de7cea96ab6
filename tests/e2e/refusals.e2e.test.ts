/**
 * Refusals at `pulumi preview` through the real engine, one preview for each way the engine renders them: two
 * changes the service cannot make (turning HA off, a downgrade), each a failure of its property that `check`
 * finds from the old inputs the engine keeps in the state; a cluster with several problems at once, whose nested
 * paths and missing value go as failures of the whole resource naming them, next to a failure of its property;
 * and one set of the bad-input corpus for each other kind, a failure of its property through that kind's class.
 * Each preview fails with the engine's check-failure lines and the provider's reasons, exactly those, never a
 * `{<nil>}` value, and the emulator sees no request at all: `check` decides before anything reaches the service.
 * Every set of the corpus, with its exact failures and no request, is the integration project's
 * (tests/integration/reliability-bad-input.test.ts).
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

/**
 * The corpus sets previewed here: the Kaas set with failures of both forms, and for each other kind a failure of
 * a property, whose value the engine finds in the inputs that kind's class sent.
 */
const PICKED = [
  "Kaas with several problems at once",
  "KaasBackup retention of zero days",
  "Registry with the reserved admin name",
  "VolumeAttachment adoptId of another attachment",
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

  it("refuses turning high availability off and a Kubernetes downgrade, from the state's old inputs", async () => {
    await expectRefused([held({ ha: false, kubernetesVersion: "1.32.5" })], "Kaas", "cluster", [
      {
        property: "kubernetesVersion",
        reason: "cannot go down from 1.33.2 to 1.32.5: the service does not downgrade clusters",
      },
      { property: "ha", reason: HA_REFUSED },
    ]);
  });

  it.each(PICKED)("refuses the corpus set: %s", async (label) => {
    const set = corpusSet(label);
    await expectRefused(
      [held(), { kind: set.kind, name: "bad", args: set.news }],
      set.kind,
      "bad",
      set.failures,
    );
  });
});
