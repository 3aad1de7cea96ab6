/**
 * The citation grammar of docs/README.md, as a checker: finds every citation of the project's notes in a
 * source text and says which ones do not resolve to a document and heading in docs/.
 *
 * - `§N` or `§N.M` (after "spec", or bare): a heading of docs/service.md that carries that number. A `§` right
 *   after `RFC <number>` (within a few words, as in `RFC 6749 §5.1, §5.2`) cites that RFC and is skipped.
 * - `api-notes` / `wire notes` -> docs/wire.md; `dynamic-provider notes` / `engine notes` -> docs/engine.md.
 *   Followed by a quoted name (`api-notes "KaaS"`, also in parentheses), the name must be a heading of that
 *   document, or a heading followed by `: ` and words from under it (`"Known versions seen: 1.31.x ..."`).
 *   After a colon (`api-notes: "about one hour"`) the quotation is a quotation: only the document must exist.
 *
 * Comment leaders (`*`, `//`, `#`) at the start of continuation lines are skipped, so a quoted name broken
 * across two comment lines is read whole.
 */

/** The documents citations point to, by the name docs/README.md gives them. */
export type DocName = "service" | "wire" | "engine";

/** The file in docs/ of each document. */
export const DOC_FILES: Readonly<Record<DocName, string>> = {
  service: "docs/service.md",
  wire: "docs/wire.md",
  engine: "docs/engine.md",
};

/** The headings of one markdown document: their text, and the `§` numbers they carry. */
export interface DocHeadings {
  titles: ReadonlySet<string>;
  sections: ReadonlySet<string>;
}

/** One citation found in a source text. */
export interface Citation {
  line: number;
  doc: DocName;
  /** A `§` number (service) or a quoted heading (wire, engine); undefined when only the document is named. */
  target?: string;
  /** The citation in its canonical form: `§2.2`, `api-notes "KaaS"`, `api-notes: "about one hour"`, `api-notes`. */
  text: string;
}

/** One citation that does not resolve. */
export interface Unresolved {
  file: string;
  line: number;
  citation: string;
  reason: string;
}

const collapse = (s: string): string => s.replace(/\s+/g, " ").trim();

/** Headings of a markdown document, outside fenced code blocks. */
export function parseHeadings(markdown: string): DocHeadings {
  const titles = new Set<string>();
  const sections = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const title = collapse(heading[1]);
    titles.add(title);
    const number = /^§\s?(\d+(?:\.\d+)*)\b/.exec(title);
    if (number) sections.add(number[1]);
  }
  return { titles, sections };
}

/**
 * The text with each line break and the comment leader of the next line replaced by one space, and the line
 * number (1-based) of every character of the result.
 */
function joinLines(text: string): { flat: string; lineOf: number[] } {
  const out: string[] = [];
  const lineOf: number[] = [];
  const leader = /[ \t]*(?:\*(?!\/)|\/\/+|#+(?=[ \t]))?[ \t]*/y;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      leader.lastIndex = i + 1;
      const skipped = leader.exec(text);
      out.push(" ");
      lineOf.push(line - 1);
      i += skipped ? skipped[0].length : 0;
      continue;
    }
    out.push(text[i]);
    lineOf.push(line);
  }
  return { flat: out.join(""), lineOf };
}

const NOTE_NAMES: readonly [RegExp, DocName][] = [
  [/api-notes|wire notes/i, "wire"],
  [/dynamic-provider notes|engine notes/i, "engine"],
];

/** `§` numbers with the anchor that owns them: the nearest "spec" or "RFC <n>" before each. */
const SECTION = /§\s?(\d+(?:\.\d+)*)/g;
const ANCHOR = /\bspec(?:ification)?\b|\bRFC\s?\d+/gi;
/** How far after `RFC <n>` a `§` still belongs to the RFC: `RFC 6749 §5.1, §5.2` but not a later sentence. */
const RFC_REACH = 40;
/**
 * A notes name, then optionally a colon (a quotation follows) and a quoted name set off by a space or an
 * opening parenthesis: `api-notes "KaaS"`, `api-notes ("Errors")`, `api-notes: "about one hour"`. A quote
 * right after the name (`"... the api-notes", () =>`) ends a string literal and is not read.
 */
const NOTES =
  /\b(api-notes|wire notes|dynamic-provider notes|engine notes)(?:'s?)?(\s*:)?(?:(?:\s+|\s*\(\s*)"([^"]{1,160})")?/gi;

/** Every citation of the notes in `text`. */
export function findCitations(text: string): Citation[] {
  const { flat, lineOf } = joinLines(text);
  const found: Citation[] = [];

  const anchors = [...flat.matchAll(ANCHOR)].map((m) => ({
    end: m.index + m[0].length,
    rfc: /^RFC/i.test(m[0]),
  }));
  for (const m of flat.matchAll(SECTION)) {
    const owner = anchors.filter((a) => a.end <= m.index).pop();
    if (owner?.rfc && m.index - owner.end <= RFC_REACH) continue;
    found.push({ line: lineOf[m.index], doc: "service", target: m[1], text: collapse(m[0]) });
  }

  for (const m of flat.matchAll(NOTES)) {
    const doc = NOTE_NAMES.find(([name]) => name.test(m[1]))![1];
    const quotation = m[2] !== undefined;
    const target = !quotation && m[3] !== undefined ? collapse(m[3]) : undefined;
    const name = m[1];
    const text = target ? `${name} "${target}"` : quotation && m[3] ? `${name}: "${collapse(m[3])}"` : name;
    found.push({ line: lineOf[m.index], doc, target, text });
  }
  return found.sort((a, b) => a.line - b.line);
}

/** Whether `target` names a heading: exactly, or as `<heading>: <words quoted from under it>`. */
function namesHeading(target: string, titles: ReadonlySet<string>): boolean {
  if (titles.has(target)) return true;
  const colon = target.indexOf(": ");
  return colon > 0 && titles.has(target.slice(0, colon));
}

/**
 * The citations of `sources` (path -> text) that do not resolve in `docs` (document -> its markdown, or
 * undefined when the file is missing), in path and line order.
 */
export function unresolvedCitations(
  sources: ReadonlyMap<string, string>,
  docs: Readonly<Record<DocName, string | undefined>>,
): Unresolved[] {
  const headings = new Map<DocName, DocHeadings>();
  for (const [name, markdown] of Object.entries(docs) as [DocName, string | undefined][]) {
    if (markdown !== undefined) headings.set(name, parseHeadings(markdown));
  }
  const problems: Unresolved[] = [];
  for (const [file, text] of [...sources].sort(([a], [b]) => a.localeCompare(b))) {
    for (const citation of findCitations(text)) {
      const report = (reason: string) =>
        problems.push({ file, line: citation.line, citation: citation.text, reason });
      const doc = headings.get(citation.doc);
      if (!doc) {
        report(`${DOC_FILES[citation.doc]} does not exist`);
      } else if (citation.target === undefined) {
        continue;
      } else if (citation.doc === "service") {
        if (!doc.sections.has(citation.target))
          report(`${DOC_FILES.service} has no heading §${citation.target}`);
      } else if (!namesHeading(citation.target, doc.titles)) {
        report(`${DOC_FILES[citation.doc]} has no heading "${citation.target}"`);
      }
    }
  }
  return problems;
}

/** `file:line: citation: reason`, one line per problem. */
export function formatUnresolved(problems: readonly Unresolved[]): string[] {
  return problems.map((p) => `${p.file}:${p.line}: ${p.citation}: ${p.reason}`);
}
