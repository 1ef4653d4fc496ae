// What the first call costs on the main thread in headless Chromium: with the module
// compiled on that call (the default), and after `await init()` compiled it ahead. Each
// sample is a fresh page (a fresh module); medians of N samples.
//
//   just npm-pack && node npm/bench/first-call.mjs [N]
//
// Uses the unpacked package in target/npm/package and playwright-core from npm/node_modules.

import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = join(root, 'target/npm/package');
const n = Number(process.argv[2] || 15);
const { chromium } = createRequire(join(root, 'npm/node_modules/x.js'))('playwright-core');

const PAGE = `<!doctype html><meta charset="utf-8">
<script type="importmap">{ "imports": { "equijson": "/pkg/dist/browser/index.mjs" } }</script>
<script type="module">import * as eq from 'equijson'; window.eq = eq; window.ready = true;</script>`;

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html' });
    return res.end(PAGE);
  }
  const file = normalize(join(pkg, url.pathname.replace(/^\/pkg\//, '')));
  try {
    const body = readFileSync(file);
    res.writeHead(200, { 'content-type': file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript' });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const sync = [];
const ahead = [];
const initMs = [];
for (let i = 0; i < n; i++) {
  for (const mode of ['sync', 'ahead']) {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.ready === true);
    const r = await page.evaluate(async (mode) => {
      let init = 0;
      if (mode === 'ahead') {
        const t = performance.now();
        await window.eq.init();
        init = performance.now() - t;
      }
      const t = performance.now();
      window.eq.canonicalize('{"b":1,"a":[1.0,"x"]}');
      return { first: performance.now() - t, init };
    }, mode);
    if (mode === 'sync') sync.push(r.first);
    else {
      ahead.push(r.first);
      initMs.push(r.init);
    }
    await page.close();
  }
}
await browser.close();
server.close();
const f = (x) => x.toFixed(2);
console.log(`first call, module compiled on it: median ${f(median(sync))} ms (n=${n})`);
console.log(
  `first call after await init():   median ${f(median(ahead))} ms; init() itself (asynchronous) ${f(median(initMs))} ms`,
);
