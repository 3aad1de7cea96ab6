/**
 * Crash points through the real engine: a `pulumi` run killed at any point of an operation (SIGKILL of the CLI
 * and every process it started), then recovered as docs/creation-and-recovery.md says (`pulumi cancel --yes`, then the same
 * command again), must leave exactly one live object per declared resource, the one the stack's state names,
 * with no second create once one was applied and no live object that no stack tracks; `pulumi preview
 * --expect-no-changes` then finds nothing to do.
 *
 * The points are not written here: each operation first runs cleanly on one resource, and its request log
 * gives the points (support/crash-points.ts). Then one run makes the same change to one resource per point and
 * the emulator's holds stop each resource at its point; the run is killed once all are there, and one cancel
 * and one recovery serve them all, each resource checked against its own point. Points that wait behind held
 * ones (the engine deletes replaced objects only after every create of the run) are reached by a further run
 * on fresh resources.
 *
 * Operations: the create of each kind that creates (a KaasBackup under a cluster made before), a cluster's node
 * pool resize, its replacement by a changed nodeCidr and by `up --replace`, `pulumi destroy`, and a removal from
 * the program, each once, under the emulator's default readings or its strictest (`STRICT_WIRE`). Finding a
 * create's object again depends on how the service reads filters, so the creates are spread over both: the
 * cluster's under the default readings (and under the strictest as the create of `up --replace`), the backup's
 * under the strictest, the registry's under the default; the provider plugin's doors run every create under one
 * reading each (crash-points-python under the default, crash-points-yaml under the strictest), and the lookup
 * under every filter reading is the integration projects' (tests/integration/filter-readings-provider.test.ts).
 * The two replacements differ only in what tells the engine to replace (the diff, or `--replace`); the
 * provider's part, the create of the new cluster beside the old one, is the same, so one runs under each
 * reading. The resize, the removal and the destroy, which go by the id the state names, run under one each.
 *
 * Each operation and reading is a group with a stack and an emulator of its own, so that groups run side by
 * side (a few at a time) without seeing each other's requests; earlier resources stay in the stack and are
 * checked again after every recovery. A test fails once per group, naming every point that broke the
 * invariant. Every point is printed with its outcome; `CRASH_POINTS=<regular expression>` runs only the points
 * whose full name matches (`Kaas create: PUT /kaas/{new} applied, answer lost, reading default`), to replay one,
 * and Jest's `-t` with the name of its test runs only its group (`-t "reading default Kaas create"`).
 *
 * The machinery is shared with the provider plugin's suites (crash-points-python.e2e.test.ts,
 * crash-points-yaml.e2e.test.ts): support/crash-suite.ts. This file is the dynamic resources' door: the
 * JavaScript program `tests/e2e/programs/resources`, declared from stack config (`e2e:resources`).
 */
import { OPERATIONS, crashPointSuite, type Reading } from "./support/crash-suite";

/** The reading of each create on this door (the other operations say their own). */
const CREATE_READINGS: Record<string, Reading> = {
  "Kaas create": "default",
  "KaasBackup create": "strict",
  "Registry create": "default",
};

/** The program every group's stack runs, copied once. */
let dir: string;

crashPointSuite(
  {
    suite: "crash-points",
    describe: "",
    prepare: (s) => {
      dir = s.program("crash");
    },
    stack: async (s, name, emulator) => {
      const stack = await s.stack(name, dir, { "vendor:baseUrl": { value: emulator.url } });
      return { stack, dir, declare: (declared) => s.declare(stack, declared) };
    },
    // The CLI, the language host and the program, the dynamic provider's launcher and its Node.js process.
    minimumKilled: () => 3,
  },
  OPERATIONS.map((o) => (o.readings ? o : { ...o, readings: [CREATE_READINGS[o.title]] })),
);
