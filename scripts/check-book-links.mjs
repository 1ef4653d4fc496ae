#!/usr/bin/env node
// Checks the internal links of the book (docs/src), the front page (README.md), CHANGELOG.md
// and the other READMEs: every relative link (and every link into this repository's GitHub
// tree) names a file that exists, and every `#anchor` is a heading of its target (ids as
// mdBook and GitHub make them; with --html, also an id in the page mdBook built). Every page
// under docs/src is listed in SUMMARY.md. Every `just RECIPE` in code names a recipe of the
// justfile.
//
// Usage: node scripts/check-book-links.mjs [--html BUILT_BOOK_DIR] [ROOT]
//   ROOT: the repository (default: the current directory); BUILT_BOOK_DIR: `mdbook build`'s
//   output (e.g. target/book), checked when given.
// Exit 0 when everything resolves, 1 with one line per problem otherwise.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
const htmlAt = args.indexOf('--html');
const htmlDir = htmlAt < 0 ? null : resolve(args.splice(htmlAt, 2)[1] ?? '');
const root = resolve(args[0] ?? '.');
const REPO_TREE = /^https:\/\/github\.com\/equijson\/equijson\/(?:blob|tree)\/main\/([^#?]*)(#.*)?$/;

/** Every `.md` file under `dir`, recursively. */
function markdownFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...markdownFiles(path));
    else if (entry.name.endsWith('.md')) out.push(path);
  }
  return out.sort();
}

/** The text outside fenced code blocks, line by line (code lines become empty lines). */
function proseLines(text) {
  let fence = null;
  return text.split('\n').map((line) => {
    const m = /^\s*(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (fence === null) fence = m[1];
      else if (m[1].startsWith(fence)) fence = null;
      return '';
    }
    return fence === null ? line : '';
  });
}

/** A line without its inline code spans (links inside code are not links). */
function withoutCode(line) {
  return line.replace(/(`+)[\s\S]*?\1/g, (s) => ' '.repeat(s.length));
}

/** The heading's id, as mdBook's `id_from_content` / `normalize_id` make it. */
function headingId(text) {
  const content = text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links: their text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .replace(/[`*]/g, '') // code and emphasis markers
    .trim();
  let id = '';
  for (const ch of content) {
    if (/[\p{L}\p{N}_-]/u.test(ch)) id += ch.length === 1 ? ch.toLowerCase() : ch;
    else if (/\s/u.test(ch)) id += '-';
  }
  return id;
}

const anchorsCache = new Map();
/** The ids of the headings of a markdown file (duplicates get -1, -2, ... as in mdBook). */
function anchorsOf(file) {
  if (anchorsCache.has(file)) return anchorsCache.get(file);
  const seen = new Map();
  const ids = new Set();
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = headingId(m[2]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    for (const m of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) ids.add(m[1]);
  }
  anchorsCache.set(file, ids);
  return ids;
}

const files = [
  ...markdownFiles(join(root, 'docs', 'src')),
  join(root, 'README.md'),
  join(root, 'CHANGELOG.md'),
  join(root, 'npm', 'README.md'),
  join(root, 'web', 'README.md'),
  ...readdirSync(join(root, 'crates'))
    .map((c) => join(root, 'crates', c, 'README.md'))
    .filter((p) => existsSync(p)),
].filter((p) => existsSync(p));

const bookSrc = join(root, 'docs', 'src');
const problems = [];
let checked = 0;
for (const file of files) {
  const lines = proseLines(readFileSync(file, 'utf8'));
  lines.forEach((raw, i) => {
    const line = withoutCode(raw);
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      let target = m[1];
      const inRepo = REPO_TREE.exec(target);
      if (inRepo) target = relative(dirname(file), join(root, inRepo[1])) + (inRepo[2] ?? '');
      else if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, ...
      checked += 1;
      const where = `${relative(root, file)}:${i + 1}`;
      const hash = target.indexOf('#');
      const pathPart = hash < 0 ? target : target.slice(0, hash);
      const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
      const dest = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
      if (!existsSync(dest)) {
        problems.push(`${where}: link to ${target}: ${relative(root, dest)} does not exist`);
        continue;
      }
      if (anchor !== null) {
        if (statSync(dest).isDirectory() || !dest.endsWith('.md')) {
          problems.push(`${where}: link to ${target}: an anchor into a file that is not markdown`);
        } else if (!anchorsOf(dest).has(anchor)) {
          problems.push(`${where}: link to ${target}: ${relative(root, dest)} has no heading with id "${anchor}"`);
        } else if (htmlDir !== null && dest.startsWith(bookSrc)) {
          const page = join(htmlDir, relative(bookSrc, dest).replace(/\.md$/, '.html'));
          if (!existsSync(page)) {
            problems.push(`${where}: link to ${target}: the built book has no ${relative(root, page)}`);
          } else if (!readFileSync(page, 'utf8').includes(`id="${anchor}"`)) {
            problems.push(`${where}: link to ${target}: ${relative(root, page)} has no id "${anchor}"`);
          }
        }
      }
    }
  });
}

// SUMMARY.md lists every page, and only pages that exist.
const src = join(root, 'docs', 'src');
const summary = join(src, 'SUMMARY.md');
const listed = new Set();
for (const line of proseLines(readFileSync(summary, 'utf8'))) {
  for (const m of line.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)) listed.add(resolve(src, m[1]));
}
for (const page of markdownFiles(src)) {
  if (page !== summary && !listed.has(page)) {
    problems.push(`docs/src/SUMMARY.md: ${relative(root, page)} is not listed (an orphan page)`);
  }
}

// `just RECIPE` in code spans and code blocks names a recipe (`just --summary`; without
// `just` on PATH, the justfile's recipe lines).
function recipes() {
  try {
    return new Set(execFileSync('just', ['--summary'], { cwd: root, encoding: 'utf8' }).split(/\s+/));
  } catch {
    const names = new Set();
    for (const line of readFileSync(join(root, 'justfile'), 'utf8').split('\n')) {
      const m =
        /^@?([A-Za-z][A-Za-z0-9_-]*)(?:\s[^:=]*)?:(?!=)/.exec(line) ?? /^alias\s+([A-Za-z0-9_-]+)\s*:=/.exec(line);
      if (m) names.add(m[1]);
    }
    return names;
  }
}
const known = recipes();
let justRefs = 0;
for (const file of files) {
  let fence = null;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const f = /^\s*(`{3,}|~{3,})/.exec(line);
      if (f) {
        fence = fence === null ? f[1] : f[1].startsWith(fence) ? null : fence;
        return;
      }
      const code = fence !== null ? [line] : [...line.matchAll(/(`+)([\s\S]*?)\1/g)].map((c) => c[2]);
      for (const c of code) {
        for (const m of c.matchAll(/(?:^|[\s;&|(])just\s+([a-z][a-z0-9_-]*)/g)) {
          justRefs += 1;
          if (!known.has(m[1])) {
            problems.push(`${relative(root, file)}:${i + 1}: \`just ${m[1]}\`: no such recipe in the justfile`);
          }
        }
      }
    });
}

if (problems.length > 0) {
  for (const p of problems) console.error(`check-book-links: ${p}`);
  console.error(
    `check-book-links: ${problems.length} problems (${checked} internal links, ${justRefs} recipes checked)`,
  );
  process.exit(1);
}
console.log(
  `check-book-links: ${checked} internal links in ${files.length} files resolve` +
    `${htmlDir === null ? '' : ' (also in the built book)'}; ${justRefs} \`just\` recipes named exist`,
);
