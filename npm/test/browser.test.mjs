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

const NONCE = 'equijson-test';
const cspPage = (entry) => `<!doctype html>
<meta charset="utf-8">
<script type="importmap" nonce="${NONCE}">{ "imports": { "equijson": "/pkg/dist/${entry}" } }</script>
<script type="module" nonce="${NONCE}">
  import * as eq from 'equijson';
  window.equijson = eq;
  window.ready = true;
</script>`;

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

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
    // A page under a Content-Security-Policy: `?wasm=1` allows 'wasm-unsafe-eval'.
    if (url.pathname === '/csp' || url.pathname === '/slim') {
      const entry = url.pathname === '/slim' ? 'slim/index.mjs' : 'browser/index.mjs';
      const csp = `default-src 'self'; script-src 'self' 'nonce-${NONCE}'${url.searchParams.get('wasm') ? " 'wasm-unsafe-eval'" : ''}`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp });
      return res.end(cspPage(entry));
    }
    if (url.pathname.startsWith('/pkg/')) {
      const file = normalize(join(pkgDir, url.pathname.slice(5)));
      if (file.startsWith(pkgDir)) {
        try {
          const body = readFileSync(file);
          const type =
            file.endsWith('.mjs') || file.endsWith('.js')
              ? 'text/javascript'
              : file.endsWith('.wasm')
                ? 'application/wasm'
                : 'application/octet-stream';
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

test('Chromium: a CSP without wasm-unsafe-eval gives an EquijsonError that says what to add; init() ahead; equijson/slim', async () => {
  const server = await serve();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const base = `http://127.0.0.1:${server.address().port}`;
  /** Opens `path` in a fresh page; its equijson module once loaded. */
  async function open(path) {
    const page = await browser.newPage();
    await page.goto(base + path);
    await page.waitForFunction(() => window.ready === true, null, { timeout: 30000 });
    return page;
  }
  try {
    // Blocked: the first call and init() both say what to add, as an EquijsonError.
    const blocked = await open('/csp');
    const got = await blocked.evaluate(async () => {
      const eq = window.equijson;
      const describe = (e) => ({
        isEq: e instanceof eq.EquijsonError,
        name: e.name,
        kind: e.kind,
        message: e.message,
        cause: e.cause?.name,
      });
      const out = [];
      try {
        eq.canonicalize('[1]');
        out.push('no error');
      } catch (e) {
        out.push(describe(e));
      }
      try {
        await eq.init();
        out.push('no error');
      } catch (e) {
        out.push(describe(e));
      }
      return out;
    });
    for (const e of got) {
      assert.equal(typeof e, 'object', String(e));
      assert.equal(e.isEq, true);
      assert.equal(e.name, 'EquijsonError');
      assert.equal(e.kind, 'WasmBlocked');
      assert.equal(e.cause, 'CompileError');
      assert.ok(
        e.message.startsWith(
          "the page's Content-Security-Policy forbids compiling WebAssembly: add 'wasm-unsafe-eval' to its script-src directive",
        ),
        e.message,
      );
    }
    await blocked.close();

    // The same page with 'wasm-unsafe-eval': init() ahead of time, then the first call.
    const allowed = await open('/csp?wasm=1');
    const ok = await allowed.evaluate(async () => {
      const eq = window.equijson;
      await eq.init();
      return eq.canonicalize('{"b":[1.0,1e21],"a":"\\u00e9"}');
    });
    assert.equal(ok, '{"a":"é","b":[1,1e+21]}');
    await allowed.close();

    // equijson/slim: NotInitialized before init(); init() fetches dist/equijson.wasm next to it.
    const slim = await open('/slim?wasm=1');
    const s = await slim.evaluate(async () => {
      const eq = window.equijson;
      const out = [];
      try {
        eq.sha256Hex('[1]');
      } catch (e) {
        out.push([e instanceof eq.EquijsonError, e.kind]);
      }
      try {
        await eq.init('/pkg/dist/nowhere.wasm');
      } catch (e) {
        out.push([e instanceof eq.EquijsonError, e.kind, e.message.replace(location.origin, 'ORIGIN')]);
      }
      await eq.init();
      out.push(eq.sha256Hex(new TextEncoder().encode('{"b":1,"a":2}').buffer));
      return out;
    });
    assert.deepEqual(s, [
      [true, 'NotInitialized'],
      [
        true,
        'NotInitialized',
        'could not load ORIGIN/pkg/dist/nowhere.wasm: HTTP 404; serve dist/equijson.wasm there, or pass its URL, its bytes or a WebAssembly.Module to init()',
      ],
      node.sha256Hex('{"a":2,"b":1}'),
    ]);
    await slim.close();
  } finally {
    await browser.close();
    server.close();
  }
});
