/**
 * What the package promises across releases, checked against the code that keeps the promise: the
 * compatibility policy (docs/configuration.md) names the stable subpaths that state calls and the type tokens,
 * and those are what the package exports and registers; the changelog has a section for the version in
 * package.json; the template and the environments example depend on this version; docs/examples.md links the
 * example, the template and the docs command.
 */
import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { MODULE } from "../../provider/kinds";
import { KINDS } from "../support/kinds";

const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const PACKAGE = JSON.parse(read("package.json"));

/** The section of `file` under `## <title>`, up to the next `## ` heading. */
function section(file: string, title: string): string {
  const text = read(file);
  const start = text.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`${file} has no "## ${title}" section`);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The compatibility policy. */
const compatibility = () => section("docs/configuration.md", "Compatibility");

describe("the compatibility policy", () => {
  it("names the subpaths that serialized providers in state call, which the package exports", () => {
    const policy = compatibility();
    expect(policy).toContain("`pulumi-vendor-container/shells/<Kind>`");
    expect(policy).toContain("`pulumi-vendor-container/provider`");
    expect(Object.keys(PACKAGE.exports)).toEqual(expect.arrayContaining(["./shells/*", "./provider"]));
    // One shell per kind, each a module of its own (its subpath is what state holds).
    const shells = fs.readdirSync(path.join(ROOT, "sdk/shells")).map((f) => f.replace(/\.ts$/, ""));
    expect(shells.sort()).toEqual([...KINDS].sort());
    for (const kind of KINDS) expect(policy).toContain(`\`${kind}\``);
  });

  it("names the type tokens the resources register", () => {
    expect(compatibility()).toContain("`pulumi-nodejs:dynamic/vendor-container:<Kind>`");
    // A different module would give every resource of every stack a new type token, and Pulumi would
    // replace them all.
    expect(MODULE).toBe("vendor-container");
  });

  it("says how a breaking change ships: a major version, under Breaking in the changelog", () => {
    const policy = compatibility();
    expect(policy).toContain("meaning of an input");
    expect(policy).toContain("major version");
    expect(policy).toContain("[CHANGELOG.md](../CHANGELOG.md)");
    expect(policy).toContain("**Breaking**");
  });
});

describe("the changelog", () => {
  const headings = [...read("CHANGELOG.md").matchAll(/^## (.+)$/gm)].map((m) => m[1]);

  it("has a section for the version in package.json, under the unreleased changes", () => {
    expect(headings[0]).toBe("Unreleased");
    expect(headings).toContain(PACKAGE.version);
  });

  it("lists releases newest first, each a version", () => {
    const versions = headings.slice(1);
    expect(versions.filter((v) => !/^\d+\.\d+\.\d+$/.test(v))).toEqual([]);
    const key = (v: string) =>
      v
        .split(".")
        .map((n) => n.padStart(6, "0"))
        .join(".");
    expect(versions.map(key)).toEqual([...versions.map(key)].sort().reverse());
  });

  it("bumps the version a breaking release needs: the minor while 0.x, the major from 1.0", () => {
    const text = read("CHANGELOG.md");
    const releases = headings.slice(1);
    const breaking = (version: string) => {
      const start = text.indexOf(`\n## ${version}\n`);
      const end = text.indexOf("\n## ", start + 1);
      return text.slice(start, end < 0 ? undefined : end).includes("\n### Breaking\n");
    };
    const bumps = releases.slice(0, -1).map((version, i) => {
      const [major, minor] = version.split(".").map(Number);
      const [prevMajor, prevMinor] = releases[i + 1].split(".").map(Number);
      const enough = prevMajor === 0 ? major > 0 || minor > prevMinor : major > prevMajor;
      return [version, breaking(version) ? enough : true];
    });
    expect(bumps).toEqual(releases.slice(0, -1).map((version) => [version, true]));
    expect(releases[0]).toBe(PACKAGE.version);
  });

  it("is part of the published package", () => {
    expect(PACKAGE.files).toContain("CHANGELOG.md");
  });
});

it("templates/kaas-typescript/package.json depends on this version of the package", () => {
  expect(JSON.parse(read("templates/kaas-typescript/package.json")).dependencies[PACKAGE.name]).toBe(
    `^${PACKAGE.version}`,
  );
});

it("the Python and Go templates ask for the generated SDKs of this version", () => {
  const [major, minor] = PACKAGE.version.split(".").map(Number);
  expect(read("templates/kaas-python/requirements.txt")).toBe(
    `pulumi>=3.272.0,<4.0.0\npulumi_vendor_container>=${PACKAGE.version},<${major}.${minor + 1}.0\n`,
  );
  expect(read("templates/kaas-go/go.mod")).toContain(
    `\tgithub.com/vendor-container/pulumi-vendor-container/sdk/go v${PACKAGE.version}\n`,
  );
});

it("the Python CI sample installs the release of this version: its plugin, its Python SDK and its policy pack", () => {
  const workflow = parseYaml(read("examples/ci-pipeline/workflow-python.yml"));
  const pack = JSON.parse(read("examples/ci-pipeline/python/policy-pack/package.json"));
  const lock = JSON.parse(read("examples/ci-pipeline/python/policy-pack/package-lock.json"));
  expect({
    plugin: workflow.env.VENDOR_CONTAINER_VERSION,
    sdk: /^pulumi-vendor-container==(.+)$/m.exec(read("examples/ci-pipeline/python/requirements.txt"))?.[1],
    pack: pack.dependencies[PACKAGE.name],
    locked: lock.packages["node_modules/pulumi-vendor-container"].version,
  }).toEqual({
    plugin: PACKAGE.version,
    sdk: PACKAGE.version,
    pack: PACKAGE.version,
    locked: PACKAGE.version,
  });
});

// The examples run from a checkout of this repository: they take the package from it, and their lockfiles
// (which `npm ci` installs from) record this version.
it.each([["examples/environments"], ["examples/ci-pipeline"]])(
  "%s depends on the package of this checkout, its lockfile at this version",
  (folder) => {
    expect(JSON.parse(read(`${folder}/package.json`)).dependencies[PACKAGE.name]).toBe("file:../..");
    const lock = JSON.parse(read(`${folder}/package-lock.json`));
    expect(lock.packages["node_modules/pulumi-vendor-container"]).toMatchObject({
      version: PACKAGE.version,
      resolved: "file:../..",
    });
  },
);

it("docs/examples.md links the environments example, the template and the docs command, which exist", () => {
  const text = read("docs/examples.md");
  expect(text.startsWith("# Environments, template and API reference\n")).toBe(true);
  expect(text).toContain("[`examples/environments`](../examples/environments)");
  expect(text).toContain("[`templates/kaas-typescript`](../templates/kaas-typescript)");
  expect(text).toContain("`npm run docs`");
  expect(fs.existsSync(path.join(ROOT, "examples/environments/environments.ts"))).toBe(true);
  expect(fs.existsSync(path.join(ROOT, "templates/kaas-typescript/Pulumi.yaml"))).toBe(true);
  expect(PACKAGE.scripts.docs).toBe("typedoc");
});

describe("the published metadata", () => {
  it("sets the @pulumi/pulumi floor at the newest SDK feature docs/engine.md says the package relies on", () => {
    const minor = (version: string) => Number(version.split(".")[1]);
    const since = [...read("docs/engine.md").matchAll(/Since SDK\s+3\.(\d+)/g)].map((m) => Number(m[1]));
    expect(since.sort((a, b) => a - b)).toEqual([139, 146, 216]);
    expect(PACKAGE.peerDependencies["@pulumi/pulumi"]).toBe(`^3.${Math.max(...since)}.0`);
    // The SDK the tests run is inside the range.
    const tested = PACKAGE.devDependencies["@pulumi/pulumi"];
    expect(tested).toMatch(/^3\.\d+\.\d+$/);
    expect(minor(tested)).toBeGreaterThanOrEqual(Math.max(...since));
  });

  it("declares the Node.js the package's own code needs, and docs/languages.md says what the SDK adds", () => {
    expect(PACKAGE.engines).toEqual({ node: ">=20" });
    const use = section("docs/languages.md", "Use it in a Pulumi program");
    expect(use).toContain("Node.js 20 or later");
    expect(use).toContain("`@pulumi/pulumi` 3.249 and later need Node.js 22");
  });

  it("names its keywords", () => {
    expect(PACKAGE.keywords).toEqual(expect.arrayContaining(["pulumi", "kubernetes", "pulumi-policy"]));
  });
});
