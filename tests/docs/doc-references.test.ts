/**
 * Every citation of the project's notes in the code (`spec §4.1`, `api-notes "KaaS"`, `dynamic-provider notes
 * "Closure serialization"`, ...) resolves to a document and a heading in docs/, by the grammar of
 * docs/README.md (implemented in support/doc-references.ts). The fixtures below show the check can fail.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  DOC_FILES,
  type DocName,
  findCitations,
  formatUnresolved,
  parseHeadings,
  unresolvedCitations,
} from "./support/doc-references";

const ROOT = path.resolve(__dirname, "../..");

/** Extensions of the sources scanned; extensionless tracked files are scanned when they start with `#!`. */
const SOURCE_EXTENSIONS = new Set([".ts", ".js", ".mjs", ".cjs", ".sh", ".md", ".yaml", ".yml"]);
/** This check's own files, whose fixtures and grammar examples are not citations. */
const SELF = new Set(["tests/docs/doc-references.test.ts", "tests/docs/support/doc-references.ts"]);

function trackedSources(): Map<string, string> {
  const listed = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0");
  const sources = new Map<string, string>();
  for (const file of listed) {
    if (!file || SELF.has(file) || /^(node_modules|dist|docs\/api)\//.test(file)) continue;
    const absolute = path.join(ROOT, file);
    if (!fs.existsSync(absolute) || !fs.statSync(absolute).isFile()) continue;
    const extension = path.extname(file);
    if (!SOURCE_EXTENSIONS.has(extension)) {
      if (extension !== "") continue;
      const text = fs.readFileSync(absolute, "utf8");
      if (text.startsWith("#!")) sources.set(file, text);
      continue;
    }
    sources.set(file, fs.readFileSync(absolute, "utf8"));
  }
  return sources;
}

function readDocs(): Record<DocName, string | undefined> {
  const read = (file: string) => {
    const absolute = path.join(ROOT, file);
    return fs.existsSync(absolute) ? fs.readFileSync(absolute, "utf8") : undefined;
  };
  return { service: read(DOC_FILES.service), wire: read(DOC_FILES.wire), engine: read(DOC_FILES.engine) };
}

describe("the code's citations of the notes", () => {
  const sources = trackedSources();

  it("all resolve to a document and heading in docs/", () => {
    expect(formatUnresolved(unresolvedCitations(sources, readDocs()))).toEqual([]);
  });

  it("are found for each of the three documents, so the check above is not vacuous", () => {
    const counts: Record<DocName, number> = { service: 0, wire: 0, engine: 0 };
    for (const text of sources.values()) for (const citation of findCitations(text)) counts[citation.doc]++;
    expect(counts.service).toBeGreaterThanOrEqual(50);
    expect(counts.wire).toBeGreaterThanOrEqual(30);
    expect(counts.engine).toBeGreaterThanOrEqual(5);
  });

  it("point to documents that git tracks, outside the API reference folder typedoc writes", () => {
    const tracked = execFileSync("git", ["ls-files", "docs"], { cwd: ROOT, encoding: "utf8" }).split("\n");
    for (const file of [...Object.values(DOC_FILES), "docs/README.md"]) expect(tracked).toContain(file);
    expect(tracked.filter((file) => file.startsWith("docs/api/"))).toEqual([]);
  });
});

describe("the citation check on fixtures", () => {
  const docs: Record<DocName, string> = {
    service: "# Service\n\n## §2 Resources\n\n### §2.2 Insert body\n\n## §9 Versioning\n",
    wire: "# Wire\n\n## KaaS\n\n### Known versions seen\n\n## What the published interface does not show\n",
    engine: "# Engine\n\n### check\n\n## Closure serialization\n\n```md\n## Not a heading\n```\n",
  };
  const check = (text: string, given: Record<DocName, string | undefined> = docs) =>
    formatUnresolved(unresolvedCitations(new Map([["fixture.ts", text]]), given));

  it("reports a section number the service document has no heading for, with file and line", () => {
    expect(check("// one\n// spec §2.2, §12 and §9.\n")).toEqual([
      "fixture.ts:2: §12: docs/service.md has no heading §12",
    ]);
  });

  it("reports both ends of a section range that do not exist", () => {
    expect(check("/** spec §2.2-§2.5 */")).toEqual([
      "fixture.ts:1: §2.5: docs/service.md has no heading §2.5",
    ]);
  });

  it("reports a quoted heading the wire or engine document does not have", () => {
    expect(check('// api-notes "Kaas": wrong case\n/** dynamic-provider notes ("Closures") */')).toEqual([
      'fixture.ts:1: api-notes "Kaas": docs/wire.md has no heading "Kaas"',
      'fixture.ts:2: dynamic-provider notes "Closures": docs/engine.md has no heading "Closures"',
    ]);
  });

  it("does not count a heading inside a fenced code block", () => {
    expect(check('// engine notes "Not a heading"')).toEqual([
      'fixture.ts:1: engine notes "Not a heading": docs/engine.md has no heading "Not a heading"',
    ]);
  });

  it("reports every citation of a document that is missing", () => {
    expect(check('// wire notes\n// api-notes "KaaS"\n// spec §2', { ...docs, wire: undefined })).toEqual([
      "fixture.ts:1: wire notes: docs/wire.md does not exist",
      'fixture.ts:2: api-notes "KaaS": docs/wire.md does not exist',
    ]);
  });

  it("resolves a heading broken across comment lines and reports it at its first line", () => {
    const text = ' * x\n * (api-notes "What the\n * published interface does not show").\n';
    expect(findCitations(text)).toEqual([
      {
        line: 2,
        doc: "wire",
        target: "What the published interface does not show",
        text: 'api-notes "What the published interface does not show"',
      },
    ]);
    expect(check(text)).toEqual([]);
    expect(check(text.replace("published", "documented"))).toEqual([
      'fixture.ts:2: api-notes "What the documented interface does not show": docs/wire.md has no heading ' +
        '"What the documented interface does not show"',
    ]);
  });

  it('accepts "<heading>: <words from under it>" and reads a colon before the quote as a quotation', () => {
    expect(check('// api-notes "Known versions seen: 1.31.x to 1.34.x"')).toEqual([]);
    expect(check('// api-notes: "about one hour"; dynamic-provider notes: "check"')).toEqual([]);
    expect(findCitations('// api-notes: "about one hour"')).toEqual([
      { line: 1, doc: "wire", target: undefined, text: 'api-notes: "about one hour"' },
    ]);
  });

  it("skips sections of RFCs and a quote that closes a string literal", () => {
    expect(check("// RFC 6749 §4.4, §5.1; then spec §9 and RFC 9110 §5.6.7")).toEqual([]);
    expect(check("// The RFC 9457 members are read. Much later, a bare section: §12")).toEqual([
      "fixture.ts:1: §12: docs/service.md has no heading §12",
    ]);
    expect(findCitations('it("partitions the states of the api-notes", () => "x");')).toEqual([
      { line: 1, doc: "wire", target: undefined, text: "api-notes" },
    ]);
  });

  it("reads section numbers from headings only", () => {
    const headings = parseHeadings("## §4.1 KaaS endpoints\nText about §7.\n### §4.4 Pagination\n");
    expect([...headings.sections]).toEqual(["4.1", "4.4"]);
    expect([...headings.titles]).toEqual(["§4.1 KaaS endpoints", "§4.4 Pagination"]);
  });
});
