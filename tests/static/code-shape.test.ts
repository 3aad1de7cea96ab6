/**
 * The code-shape ceilings of the package's sources (scripts/code-shape.mjs measures them on the syntax tree):
 * how many type assertions they make, and in how many files outside its own folders each measured kind is
 * named. A change may lower a figure, never raise it above its ceiling.
 */
import { ROOT, runCommand } from "../support/command";

/** The figures `node scripts/code-shape.mjs --json` prints. */
interface CodeShape {
  files: number;
  assertions: string[];
  naming: Record<string, string[]>;
}

const CEILINGS = { assertions: 30, naming: { KaasBackup: 7, VolumeAttachment: 6 } };

let shape: CodeShape;

beforeAll(async () => {
  const { code, output } = await runCommand(process.execPath, [`${ROOT}/scripts/code-shape.mjs`, "--json"]);
  expect({ code, output: code === 0 ? "" : output }).toEqual({ code: 0, output: "" });
  shape = JSON.parse(output) as CodeShape;
});

it("reads every source folder", () => {
  expect(shape.files).toBeGreaterThan(150);
});

it(`makes at most ${CEILINGS.assertions} type assertions (\`as const\` aside)`, () => {
  expect({ count: shape.assertions.length, places: shape.assertions }).toEqual({
    count: Math.min(shape.assertions.length, CEILINGS.assertions),
    places: shape.assertions,
  });
});

it.each(Object.entries(CEILINGS.naming))(
  "names %s in at most %d files outside its own folders",
  (kind, ceiling) => {
    const files = shape.naming[kind] ?? [];
    expect({ count: files.length, files }).toEqual({ count: Math.min(files.length, ceiling), files });
  },
);
