// The package in headless Chromium: the browser entry (dist/browser, the module embedded
// and instantiated synchronously) loaded as native ESM through an import map from a local
// static server, checked on the RFC 8785 vectors and errors, and compared with Node.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join, normalize } from 'node:path';
import test from 'node:test';
import * as node from 'equijson';

const require = createRequire(import.meta.url);
const pkgDir = join(require.resolve('equijson/package.json'), '..');
const repo = process.env.EQUIJSON_REPO;
const modules = process.env.EQUIJSON_NPM_MODULES;
const { chromium } = createRequire(join(modules, 'x.js'))('playwright-core');

const PAGE = `<!doctype html>
<meta charset="utf-8">
<script type="importmap">{ "imports": { "equijson": "/pkg/dist/browser/index.mjs" } }</script>
<script type="module">
  import * as eq from 'equijson';
  window.equijson = eq;
  window.ready = true;
</script>`;

function serve() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204);
      return res.end();
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(PAGE);
    }
    if (url.pathname.startsWith('/pkg/')) {
      const file = normalize(join(pkgDir, url.pathname.slice(5)));
      if (file.startsWith(pkgDir)) {
        try {
          const body = readFileSync(file);
          const type = file.endsWith('.mjs') || file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream';
          res.writeHead(200, { 'content-type': type });
          return res.end(body);
        } catch {}
      }
    }
    res.writeHead(404);
    res.end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test('the package in headless Chromium', async () => {
  const server = await serve();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.ready === true, null, { timeout: 30000 });
    assert.deepEqual(problems, []);

    // The RFC 8785 vectors, plus generated documents, as strings and as bytes.
    const inputs = [];
    const dir = join(repo, 'tests/data/jcs');
    for (const f of readdirSync(join(dir, 'input')).sort()) {
      inputs.push({
        name: f,
        text: readFileSync(join(dir, 'input', f), 'utf8'),
        want: readFileSync(join(dir, 'output', f), 'utf8'),
      });
    }
    const docs = process.env.EQUIJSON_DOCS;
    for (const f of readdirSync(docs).sort().slice(0, 100)) {
      const text = readFileSync(join(docs, f), 'utf8');
      inputs.push({ name: f, text, want: node.canonicalize(text) });
    }
    // Escapes and non-ASCII at every offset of the SIMD blocks, records with repeated names.
    const { stringDocs, shapeDocs } = require('./strings.cjs');
    for (const [i, text] of [...stringDocs(18), ...shapeDocs(20)].entries()) {
      inputs.push({ name: `string case ${i}: ${text}`, text, want: node.canonicalizeValue(JSON.parse(text)) });
    }
    const got = await page.evaluate((inputs) => {
      const eq = window.equijson;
      const enc = new TextEncoder();
      const dec = new TextDecoder();
      return inputs.map(({ text }) => ({
        canon: eq.canonicalize(text),
        bytes: dec.decode(eq.canonicalizeBytes(enc.encode(text))),
        value: eq.canonicalizeValue(JSON.parse(text)),
        sha: eq.sha256Hex(text),
      }));
    }, inputs);
    assert.equal(got.length, inputs.length);
    inputs.forEach((inp, i) => {
      assert.equal(got[i].canon, inp.want, `${inp.name}: canonicalize in Chromium`);
      assert.equal(got[i].bytes, inp.want, `${inp.name}: canonicalizeBytes in Chromium`);
      assert.equal(got[i].value, inp.want, `${inp.name}: canonicalizeValue in Chromium`);
      assert.equal(got[i].sha, node.sha256Hex(inp.text), `${inp.name}: sha256Hex in Chromium`);
    });

    // Errors: kind, position, class; lone surrogates in the browser's own strings.
    const errors = await page.evaluate(() => {
      const eq = window.equijson;
      const out = [];
      for (const [text, fn] of [
        ['{"a":1,\n "a":2}', 'canonicalize'],
        ['[1,"x\uD800"]', 'canonicalize'],
        ['[NaN]', 'canonicalize'],
        ['[1e400]', 'canonicalize'],
      ]) {
        try {
          eq[fn](text);
          out.push(null);
        } catch (e) {
          out.push({
            isError: e instanceof Error,
            isEq: e instanceof eq.EquijsonError,
            kind: e.kind,
            line: e.line,
            column: e.column,
            message: e.message,
          });
        }
      }
      try {
        const o = {};
        o.o = o;
        eq.canonicalizeValue(o);
      } catch (e) {
        out.push({ isError: e instanceof Error, kind: e.kind, pointer: e.pointer });
      }
      try {
        eq.canonicalizeValue({ n: 1n });
      } catch (e) {
        out.push({ isError: e instanceof Error, kind: e.kind, pointer: e.pointer });
      }
      return out;
    });
    assert.deepEqual(errors, [
      { isError: true, isEq: true, kind: 'DuplicateKey', line: 2, column: 2, message: '2:2: duplicate object key "a"' },
      {
        isError: true,
        isEq: true,
        kind: 'LoneSurrogate',
        line: 1,
        column: 6,
        message: '1:6: unpaired surrogate U+D800',
      },
      {
        isError: true,
        isEq: true,
        kind: 'InvalidLiteral',
        line: 1,
        column: 2,
        message: '1:2: `NaN` is not a JSON value',
      },
      {
        isError: true,
        isEq: true,
        kind: 'NumberOutOfRange',
        line: 1,
        column: 2,
        message: '1:2: number out of range: it overflows a double to Infinity',
      },
      { isError: true, kind: 'Cycle', pointer: '/o' },
      { isError: true, kind: 'UnsupportedType', pointer: '/n' },
    ]);

    // A large document: memory growth between calls keeps the views right.
    const big = await page.evaluate(() => {
      const eq = window.equijson;
      const doc = JSON.stringify(Array.from({ length: 50000 }, (_, i) => ({ b: i, a: 'é😀'.repeat(i % 4) })));
      const c = eq.canonicalize(doc);
      return { same: c === eq.canonicalizeValue(JSON.parse(doc)), length: c.length };
    });
    assert.ok(big.same);
    assert.ok(big.length > 1e6);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    server.close();
  }
});
