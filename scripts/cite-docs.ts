/**
 * Keeps the repository's comments citing its own documents.
 *
 * Run: `node --import tsx scripts/cite-docs.ts` (add `--check` to change nothing and exit 1 when a
 * file would change or a comment cannot be rewritten).
 *
 * In the comments of machines/ src/ server/ contract/ tests/ bench/ (and the prose of README.md
 * and the Markdown beside the code) it
 * - turns references to the outside documents the project started from (product-spec,
 *   server-contract, house-style, "the spec") into citations of docs/ sections, through
 *   scripts/spec-citations.json;
 * - removes references to issue numbers, which say where a line came from rather than why it is so.
 * Only comments change: the TypeScript parser finds them, so strings and code are never touched.
 * What it cannot rewrite safely it lists, with file and line, for a person to reword.
 * A second run changes nothing: its output contains none of the patterns it looks for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The folders whose comments are kept citing docs/, relative to the repository root. */
const COMMENT_FOLDERS = ['machines', 'src', 'server', 'contract', 'tests', 'bench'];
/** Single files at the root, read as Markdown prose or shell. */
const ROOT_FILES = ['README.md', '.ci/run', 'vite.config.ts', 'index.html'];

const CODE_EXT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const CSS_EXT = /\.css$/;
const MD_EXT = /\.md$/;

/** One comment (or prose block) of a file: where it starts and ends in the file's text. */
interface CommentSpan {
  start: number;
  end: number;
}

/** Something the codemod saw and could not rewrite. */
interface Leftover {
  file: string;
  line: number;
  text: string;
}

interface Citations {
  default: string;
  /** Sections whose parts are told in different docs/ sections: only there a name chooses the target. */
  split: string[];
  sections: Record<string, string>;
  named: Record<string, string>;
}
type CitationTable = Record<'product-spec' | 'server-contract' | 'house-style', Citations>;

// ---------------------------------------------------------------------------------------------
// Finding comments

/**
 * The comments of a TypeScript or JavaScript file, found by the TypeScript parser: the comment
 * trivia before every token (so comments inside JSX braces and before a closing brace count too),
 * never the text of a string, template or JSX text.
 */
function codeComments(fileName: string, text: string): CommentSpan[] {
  const kind = /\.tsx$|\.jsx$/.test(fileName) ? ts.ScriptKind.TSX : /\.[mc]?js$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Set<number>();
  const spans: CommentSpan[] = [];
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      spans.push({ start: r.pos, end: r.end });
    }
  };
  const visit = (node: ts.Node) => {
    // JSDoc nodes are the comments themselves, parsed: their text is already in a comment range.
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(sf);
    if (children.length === 0) {
      // A token: the trivia before it. JSX text has no trivia (a '//' in it is text).
      if (node.kind !== ts.SyntaxKind.JsxText && node.kind !== ts.SyntaxKind.JsxTextAllWhiteSpaces) {
        add(ts.getLeadingCommentRanges(text, node.pos));
      }
      // Comments later on the token's own line are its trailing comments, not the next token's leading ones.
      if (node.kind !== ts.SyntaxKind.EndOfFileToken) add(ts.getTrailingCommentRanges(text, node.end));
      return;
    }
    for (const child of children) visit(child);
  };
  add(ts.getLeadingCommentRanges(text, 0));
  visit(sf);
  spans.sort((a, b) => a.start - b.start);
  // Never two spans over one stretch of text.
  return spans.filter((s, i) => i === 0 || s.start >= spans[i - 1].end);
}

/** The `/* ... *\/` comments of a CSS file. */
function cssComments(text: string): CommentSpan[] {
  return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** The prose of a Markdown file: everything outside fenced code blocks. */
function markdownProse(text: string): CommentSpan[] {
  const spans: CommentSpan[] = [];
  let start = 0;
  for (const m of text.matchAll(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm)) {
    spans.push({ start, end: m.index });
    start = m.index + m[0].length;
  }
  spans.push({ start, end: text.length });
  return spans.filter((s) => s.end > s.start);
}

/** The `#` comment lines of a shell script (not the shebang) and the `<!-- -->` of HTML. */
function hashComments(text: string): CommentSpan[] {
  return [...text.matchAll(/^[ \t]*#(?!!).*$/gm)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** The comments (or prose) of `file` by its kind; none for a kind it does not read. */
export function commentSpans(file: string, text: string): CommentSpan[] {
  if (CODE_EXT.test(file)) return codeComments(file, text);
  if (CSS_EXT.test(file)) return cssComments(text);
  if (MD_EXT.test(file)) return markdownProse(text);
  if (file.endsWith('.html')) return [...text.matchAll(/<!--[\s\S]*?-->/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  if (file.endsWith('.ci/run') || file.endsWith('.sh')) return hashComments(text);
  return [];
}

// ---------------------------------------------------------------------------------------------
// Patterns

/** Soft whitespace: spaces, or a line break with the next line's comment prefix (` * `, `// `, `# `). */
const WS = String.raw`(?:[ \t]|\r?\n[ \t]*(?:\*(?!\/)|\/\/|#)?[ \t]*)+`;
/** Optional soft whitespace. */
const WSO = `(?:${WS})?`;
const ISSUE_CORE = String.raw`(?:\b[Ii]ssues?${WS}#?\d+|(?<![\w&#])#\d{1,3}(?![\w]))`;
const ISSUE_TAIL = String.raw`(?:${WS}items?${WS}\d+(?:(?:${WSO},${WSO}|${WS}and${WS})\d+)*)?(?:${WS}follow-up${WS}\d+)?(?:${WSO}"[^"]*")?(?:${WS}\([^()]*\))?`;
/** An issue reference with what belongs to it: items, a quoted title, a parenthesised aside. */
const ISSUE = ISSUE_CORE + ISSUE_TAIL;
const DOC = String.raw`\b(?:(product-spec|server-contract|house[- ]style)(?:\.md)?|(\bspec)(?=${WS}\d))`;

/** Paths and documents a comment must not name (the repository stands alone). */
const OUTSIDE_PATTERNS: { name: string; re: RegExp }[] = [
  { name: 'an issue number', re: new RegExp(String.raw`\b[Ii]ssues?${WS}#?\d+|(?<![\w&#'"])#\d{1,3}\b(?![\w-])(?=[\s,;:).]|$)`) },
  { name: 'a path outside the repository', re: /\.\.\/shared\b|\/work\/(?:wt|main|prompts)\b/ },
  { name: 'an outside document', re: /\bproduct-spec\b|\bserver-contract\b|\bhouse[- ]style\b|\bDEVELOPERS\.md\b/i },
];

// ---------------------------------------------------------------------------------------------
// Rewriting

function loadCitations(): CitationTable {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'scripts/spec-citations.json'), 'utf8')) as CitationTable;
}

/** Keeps a line break of `original` (with its comment prefix) in `replacement`, so lines keep their length. */
function keepBreak(original: string, replacement: string): string {
  const br = /\r?\n[ \t]*(?:\*(?!\/)|\/\/|#)?[ \t]*/.exec(original);
  if (!br) return replacement;
  const i = replacement.lastIndexOf(' ');
  return i < 0 ? replacement : replacement.slice(0, i) + br[0] + replacement.slice(i + 1);
}

interface Item {
  num: string | null;
  names: string[];
}

/** Reads the section list after a document name: `section 4 "Session"`, `sections 2 Events tab / Tasks tab, 5, 8`. */
function readSections(text: string, from: number, known: string[]): { end: number; items: Item[] } {
  const ws = new RegExp(`^${WS}`);
  let i = from;
  const skipWs = (j: number) => {
    const m = ws.exec(text.slice(j));
    return m ? j + m[0].length : j;
  };
  const items: Item[] = [];
  let j = skipWs(i);
  const sec = /^(?:sections?|§)/i.exec(text.slice(j));
  if (sec) j = skipWs(j + sec[0].length);
  const readName = (k: number): { end: number; name: string } | null => {
    const rest = text.slice(k);
    const q = /^["“]([^"”]{1,70})["”]/.exec(rest);
    if (q) return { end: k + q[0].length, name: q[1].replace(new RegExp(WS, 'g'), ' ') };
    // A short capitalised name that ends where the reference does (`3 Event,`, `7 Task pool)`).
    const other = new RegExp(String.raw`^[A-Z][\w&'-]*(?:${WS}[A-Za-z][\w&'-]*){0,3}(?=${WSO}[,;)])`).exec(rest);
    if (other && !/\n/.test(other[0])) return { end: k + other[0].length, name: other[0] };
    // A known name in parentheses: `4 (Clan roles)`.
    const p = /^\(([^()\n]{1,40})\)/.exec(rest);
    if (p && known.includes(p[1].toLowerCase())) return { end: k + p[0].length, name: p[1] };
    // An unquoted name is taken only when it is one the table knows, longest first.
    const flat = rest.slice(0, 80).replace(new RegExp(WS, 'g'), ' ');
    for (const n of known) {
      if (flat.toLowerCase().startsWith(n) && !/[\w]/.test(flat.charAt(n.length)) && /[A-Z]/.test(flat.charAt(0))) {
        // Map the flat length back onto the text (soft whitespace may be longer).
        let end = k;
        let seen = 0;
        while (seen < n.length && end < text.length) {
          const m = ws.exec(text.slice(end));
          if (m && m.index === 0) {
            end += m[0].length;
            seen += 1;
          } else {
            end += 1;
            seen += 1;
          }
        }
        return { end, name: n };
      }
    }
    return null;
  };
  for (;;) {
    const num = /^\d+(?:\.\d+)*/.exec(text.slice(j));
    const item: Item = { num: null, names: [] };
    let k = j;
    if (num) {
      item.num = num[0];
      k = j + num[0].length;
      // A range `4-6` stands for every section in it.
      const range = /^[-–](\d+)\b/.exec(text.slice(k));
      if (range && Number(range[1]) > Number(num[0]) && Number(range[1]) - Number(num[0]) < 10) {
        for (let n = Number(num[0]); n < Number(range[1]); n += 1) items.push({ num: String(n), names: [] });
        item.num = range[1];
        k += range[0].length;
      }
    }
    const first = readName(num ? skipWs(k) : k);
    if (first) {
      item.names.push(first.name);
      k = first.end;
      for (;;) {
        const slash = new RegExp(`^${WSO}/${WSO}`).exec(text.slice(k));
        const next = slash ? readName(k + slash[0].length) : null;
        if (!slash || !next) break;
        item.names.push(next.name);
        k = next.end;
      }
    }
    if (!item.num && item.names.length === 0) break;
    items.push(item);
    i = k;
    const more = new RegExp(`^(?:${WSO},${WSO}|${WS}and${WS})(?:sections?${WS})?(?=\\d)`).exec(text.slice(k));
    if (!more) break;
    j = k + more[0].length;
  }
  return { end: items.length ? i : from, items };
}

/** The target of a subsection name: the whole name if the table knows it, else its longest known opening words. */
function nameTarget(table: Citations, name: string): string | undefined {
  const words = name.toLowerCase().replace(/^the /, '').split(/\s+/);
  for (let n = words.length; n > 0; n -= 1) {
    const t = table.named[words.slice(0, n).join(' ')];
    if (t) return t;
  }
  return undefined;
}

/** The citation text for the items of one reference: `docs/a.md §1, §2; docs/b.md §3`. */
function cite(table: Citations, items: Item[]): string {
  const targets: string[] = [];
  for (const item of items) {
    const byName = !item.num || table.split.includes(item.num.split('.')[0]);
    const named = byName ? item.names.map((n) => nameTarget(table, n)).filter((t): t is string => t !== undefined) : [];
    const found = named.length ? named : [(item.num && table.sections[item.num.split('.')[0]]) || table.default];
    for (const target of found) if (!targets.includes(target)) targets.push(target);
  }
  if (targets.length === 0) return table.default;
  const byFile = new Map<string, string[]>();
  for (const t of targets) {
    const [file, sec] = t.split(' ');
    const list = byFile.get(file) ?? [];
    if (sec && !list.includes(sec)) list.push(sec);
    byFile.set(file, list);
  }
  for (const list of byFile.values()) list.sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  return [...byFile].map(([file, secs]) => (secs.length ? `${file} ${secs.join(', ')}` : file)).join('; ');
}

/** Rewrites the references to outside documents in one comment. */
function rewriteDocRefs(text: string, tables: CitationTable, fileDoc: keyof CitationTable | null): string {
  // A bare `section 8` later in a comment that named a document is a section of that document.
  const re = new RegExp(`(?:${DOC}('s)?|\\b(sections?)(?=${WS}\\d))`, 'gi');
  let out = '';
  let last = 0;
  let lastDoc: keyof CitationTable | null = fileDoc;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[4] && !lastDoc) continue;
    const docName = m[4] ? lastDoc! : ((m[1] ?? 'product-spec').toLowerCase().replace(' ', '-') as keyof CitationTable);
    lastDoc = docName;
    const table = tables[docName];
    const known = Object.keys(table.named).sort((a, b) => b.length - a.length);
    const afterDoc = m[4] ? m.index : m.index + m[0].length;
    const { end, items } = readSections(text, afterDoc, known);
    let replacement = cite(table, items);
    if (m[2] === undefined && !items.length && /^\s+intro\b/.test(text.slice(afterDoc))) {
      out += text.slice(last, m.index) + replacement;
      last = afterDoc + /^\s+intro\b/.exec(text.slice(afterDoc))![0].length;
      re.lastIndex = last;
      continue;
    }
    if (m[3] && !items.length) replacement = `${replacement}'s`;
    out += text.slice(last, m.index) + keepBreak(text.slice(m.index, end), replacement);
    last = end;
    re.lastIndex = end;
  }
  out += text.slice(last);
  // Two references next to each other that land on the same section: once is enough.
  out = out.replace(/(docs\/[a-z-]+\.md(?: §\d+)?)(?:, |; | and )\1(?![\d,])/g, '$1');
  // "the spec" used as a word: the product's rules, told in docs/.
  out = out
    .replace(/\b([Tt])he spec's\b/g, '$1he documented')
    .replace(/\b([Tt]he )?spec (texts?|messages?|values?|rules?|info texts|validation texts|shape|wording|note|error)\b/g, (_s, the: string | undefined, noun: string) => `${the ?? ''}documented ${noun}`)
    .replace(/\b(by|in|from|of|than|as) the spec\b(?!')/g, '$1 the docs')
    .replace(/\bthe spec\b(?!['-])/g, 'the docs');
  return out;
}

/** Removes issue references from the parenthesised asides of one comment and from its line starts. */
function removeIssueRefs(text: string): string {
  const issueSeg = new RegExp(String.raw`(^|${WSO}[;,]${WSO})${ISSUE}(?:(?:${WSO}[:\u2014-]|${WS}(?=[a-z]))[^;()]*(?:\([^()]*\)[^;()]*)*)?(?=${WSO}(?:[;,]|$))`, 'g');
  // Parenthesised asides (one level of nesting inside).
  let out = text.replace(/([ \t]*)\(((?:[^()]|\([^()]*\))*)\)/g, (whole, lead: string, inner: string) => {
    if (!new RegExp(ISSUE_CORE).test(inner)) return whole;
    let kept = inner.replace(issueSeg, (_s, sep: string) => (sep ? '' : '\u0000'));
    kept = kept.replace(/^\u0000(?:\s*[;,]\s*)?/, '').replace(/\u0000/g, '');
    kept = kept.replace(new RegExp(`^${WSO}[;,]${WSO}`), '');
    if (new RegExp(ISSUE_CORE).test(kept)) return whole;
    return kept.trim() === '' ? '' : `${lead}(${kept})`;
  });
  // At the start of a comment line: "Issue #14 (first load): the router ..." → "The router ...".
  out = out.replace(
    new RegExp(String.raw`((?:^|\n)[ \t]*(?:\/\*\*?|\*(?!\/)|\/\/|#|<!--)?[ \t]*)${ISSUE}${WSO}[:\u2014-]${WSO}(\w)`, 'g'),
    (_s, lead: string, ch: string) => lead + ch.toUpperCase(),
  );
  // "(...) (issue 12)" leaves nothing before a colon: ": " stays as it was.
  return out;
}

/**
 * The whole rewrite of one comment. `fileDoc` is the document the file's comments name most, which
 * a bare `section 8` in a comment that names none refers to.
 */
export function rewriteComment(text: string, tables: CitationTable = loadCitations(), fileDoc: keyof CitationTable | null = null): string {
  return removeIssueRefs(rewriteDocRefs(text, tables, fileDoc));
}

/** The outside document a file names most often (product-spec or server-contract), or null. */
function mostNamedDoc(text: string): keyof CitationTable | null {
  const ps = (text.match(/product-spec/gi) ?? []).length;
  const sc = (text.match(/server-contract/gi) ?? []).length;
  if (ps === 0 && sc === 0) return null;
  return ps >= sc ? 'product-spec' : 'server-contract';
}

/** What in one comment still names an issue, an outside path or an outside document. */
export function outsideReferences(comment: string): string[] {
  return OUTSIDE_PATTERNS.filter((p) => p.re.test(comment)).map((p) => p.name);
}

// ---------------------------------------------------------------------------------------------
// Files

/** Every file the rule covers, relative to the repository root. */
export function coveredFiles(root = ROOT): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && !e.name.startsWith('.')) walk(rel);
      } else if (CODE_EXT.test(e.name) || CSS_EXT.test(e.name) || MD_EXT.test(e.name)) {
        files.push(rel);
      }
    }
  };
  for (const d of COMMENT_FOLDERS) if (fs.existsSync(path.join(root, d))) walk(d);
  for (const f of ROOT_FILES) if (fs.existsSync(path.join(root, f))) files.push(f);
  return files;
}

const PREFILTER = /product-spec|server-contract|house[- ]style|\bspec\b|issues?\s+(?:\*\s*)?#?\d|\(#\d{1,3}\)|DEVELOPERS\.md|\.\.\/shared|\/work\//i;

/** Rewrites one file's comments; answers the new text, how many comments changed, and what is left. */
function rewriteFile(file: string, text: string, tables: CitationTable): { text: string; changed: number; leftovers: Leftover[] } {
  if (!PREFILTER.test(text)) return { text, changed: 0, leftovers: [] };
  const spans = commentSpans(file, text);
  const fileDoc = mostNamedDoc(text);
  let out = '';
  let last = 0;
  let changed = 0;
  const leftovers: Leftover[] = [];
  for (const s of spans) {
    const before = text.slice(s.start, s.end);
    const after = PREFILTER.test(before) || (fileDoc && /\bsections? \d/.test(before)) ? rewriteComment(before, tables, fileDoc) : before;
    if (after !== before) changed += 1;
    const base = out + text.slice(last, s.start);
    out = base + after;
    last = s.end;
    for (const name of outsideReferences(after)) {
      for (const p of OUTSIDE_PATTERNS.filter((q) => q.name === name)) {
        const g = new RegExp(p.re.source, p.re.flags.includes('g') ? p.re.flags : `${p.re.flags}g`);
        for (const m of after.matchAll(g)) {
          const line = (base + after.slice(0, m.index)).split('\n').length;
          const lineText = after.slice(0, m.index).split('\n').pop()! + after.slice(m.index).split('\n')[0];
          leftovers.push({ file, line, text: `${name}: ${lineText.trim().slice(0, 140)}` });
        }
      }
    }
  }
  out += text.slice(last);
  return { text: out, changed, leftovers };
}

function main(): void {
  // A reader that stops early (`| head`) is not an error.
  process.stdout.on('error', () => {});
  const check = process.argv.includes('--check');
  const tables = loadCitations();
  const started = Date.now();
  let files = 0;
  let comments = 0;
  const leftovers: Leftover[] = [];
  for (const file of coveredFiles()) {
    const abs = path.join(ROOT, file);
    const text = fs.readFileSync(abs, 'utf8');
    const r = rewriteFile(file, text, tables);
    leftovers.push(...r.leftovers);
    if (r.text !== text) {
      files += 1;
      comments += r.changed;
      if (!check) fs.writeFileSync(abs, r.text);
    }
  }
  const verb = check ? 'would change' : 'changed';
  console.log(`cite-docs: ${verb} ${comments} comments in ${files} files (${Date.now() - started} ms)`);
  if (leftovers.length) {
    console.log(`cite-docs: ${leftovers.length} references left for a person to reword:`);
    for (const l of leftovers) console.log(`  ${l.file}:${l.line}  ${l.text}`);
  }
  if (check && (files > 0 || leftovers.length > 0)) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
