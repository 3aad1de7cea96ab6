/**
 * Every relative link of README.md, CONTRIBUTING.md and the pages under docs/ resolves: its file is in the
 * repository, and its `#anchor`, when it has one, is a heading of that file as GitHub names it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

/** The repository's files: tracked, and new ones git does not ignore (so a link to dist/ or .tools/ fails). */
const FILES = new Set(
  execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter((file) => file !== "" && fs.existsSync(path.join(ROOT, file))),
);
const FOLDERS = new Set(
  [...FILES].flatMap((file) =>
    file
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  ),
);

/** The documents whose links are checked. */
const DOCUMENTS = [...FILES]
  .filter((file) => file === "README.md" || file === "CONTRIBUTING.md" || /^docs\/.*\.md$/.test(file))
  .sort();

/** Markdown outside fenced code blocks, with inline code spans blanked out. */
function prose(markdown: string): string[] {
  let fence = false;
  return markdown.split("\n").map((line) => {
    if (/^\s*```/.test(line)) {
      fence = !fence;
      return "";
    }
    return fence ? "" : line.replace(/`[^`]*`/g, (code) => " ".repeat(code.length));
  });
}

/**
 * GitHub's anchor of a heading (github-slugger): its text as rendered, lower-cased, without what is neither a
 * letter, a digit, a mark, `_`, `-` nor a space, spaces turned into `-`; a repeated one gets `-1`, `-2`, ...
 */
function slugs(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) fence = !fence;
    const heading = fence ? null : /^#{1,6} +(.*?) *#* *$/.exec(line);
    if (!heading) continue;
    const text = heading[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/[`*]/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(text) ?? 0;
    seen.set(text, count + 1);
    result.add(count === 0 ? text : `${text}-${count}`);
  }
  return result;
}

/** The relative links of a document that do not resolve, as `file:line: target (why)`. */
function brokenLinks(document: string): string[] {
  const broken: string[] = [];
  prose(fs.readFileSync(path.join(ROOT, document), "utf8")).forEach((line, i) => {
    for (const [, target] of line.matchAll(/\]\(<?([^)\s>]+)>?(?: "[^"]*")?\)/g)) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
      const [file, anchor] = target.split("#", 2);
      const resolved =
        file === "" ? document : path.posix.normalize(path.posix.join(path.posix.dirname(document), file));
      const where = `${document}:${i + 1}: ${target}`;
      if (!FILES.has(resolved) && !FOLDERS.has(resolved.replace(/\/$/, "")))
        broken.push(`${where} (no such file)`);
      else if (anchor !== undefined && !slugs(fs.readFileSync(path.join(ROOT, resolved), "utf8")).has(anchor))
        broken.push(`${where} (no heading with that anchor)`);
    }
  });
  return broken;
}

describe("relative links", () => {
  it("are checked in the README, CONTRIBUTING.md and every page of docs/", () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(["README.md", "CONTRIBUTING.md", "docs/README.md"]));
    expect(DOCUMENTS.filter((file) => file.startsWith("docs/")).length).toBeGreaterThan(10);
  });

  it.each(DOCUMENTS)("in %s all resolve", (document) => {
    expect(brokenLinks(document)).toEqual([]);
  });

  it("name the anchors GitHub gives headings", () => {
    const markdown = [
      "# Every language: the provider plugin",
      "## State backends, shared state and locks",
      "### Secrets and the engine's logs",
      "## §4.1 KaaS endpoints",
      "## `vendor:limits` at preview",
      "## Tests",
      "## Tests",
      "```sh",
      "# not a heading",
      "```",
    ].join("\n");
    expect([...slugs(markdown)]).toEqual([
      "every-language-the-provider-plugin",
      "state-backends-shared-state-and-locks",
      "secrets-and-the-engines-logs",
      "41-kaas-endpoints",
      "vendorlimits-at-preview",
      "tests",
      "tests-1",
    ]);
  });
});
