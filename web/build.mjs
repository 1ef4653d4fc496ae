// Builds the reviewers' page into target/web/: the equijson-wasm binding (wasm-pack,
// --target web), optimized by npm binaryen's wasm-opt, the page's own files and the PGlite
// runtime (JS, wasm and data) copied from node_modules, so nothing comes from a CDN.
//
//   node build.mjs            build (wasm-opt result cached by input hash)
//   node build.mjs --no-opt   skip wasm-opt (faster, bigger; for development)
//
// Prints the gzip size of every file the page loads and fails when the page's wasm is
// over the 400 KiB (gzip) budget.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const out = path.join(root, 'target', 'web');
const cache = path.join(root, 'target', 'web-cache');
const WASM_BUDGET = 400 * 1024;
const noOpt = process.argv.includes('--no-opt');

function run(cmd, args, opts = {}) {
  execFileSync(cmd, args, { stdio: 'inherit', ...opts });
}

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
fs.mkdirSync(cache, { recursive: true });

// 1. The binding, for browsers (ES module + wasm).
run('wasm-pack', [
  'build',
  path.join(root, 'crates', 'equijson-wasm'),
  '--target',
  'web',
  '--release',
  '--no-typescript',
  '--no-pack',
  '--out-dir',
  path.join(out, 'pkg'),
  '--',
  '--locked',
]);
fs.rmSync(path.join(out, 'pkg', '.gitignore'), { force: true });

// 2. wasm-opt -Oz from npm binaryen (Debian's is too old for current wasm-bindgen).
const wasm = path.join(out, 'pkg', 'equijson_wasm_bg.wasm');
if (!noOpt) {
  const hash = createHash('sha256').update(fs.readFileSync(wasm)).digest('hex');
  const cached = path.join(cache, `${hash}.wasm`);
  if (fs.existsSync(cached)) {
    fs.copyFileSync(cached, wasm);
    console.log(`wasm-opt: cached result for ${hash.slice(0, 12)}`);
  } else {
    const bin = path.join(here, 'node_modules', '.bin', 'wasm-opt');
    if (!fs.existsSync(bin)) throw new Error('web/node_modules/.bin/wasm-opt missing: run `npm ci` in web/');
    const before = fs.statSync(wasm).size;
    run(bin, ['-Oz', '--strip-debug', '--strip-producers', wasm, '-o', `${wasm}.opt`]);
    fs.renameSync(`${wasm}.opt`, wasm);
    for (const f of fs.readdirSync(cache)) fs.rmSync(path.join(cache, f));
    fs.copyFileSync(wasm, cached);
    console.log(`wasm-opt -Oz: ${before} -> ${fs.statSync(wasm).size} bytes`);
  }
}

// 3. The page.
for (const f of fs.readdirSync(path.join(here, 'src'))) {
  fs.copyFileSync(path.join(here, 'src', f), path.join(out, f));
}

// 4. PGlite's browser runtime: its ES modules, the Postgres wasm and its data file.
const pgSrc = path.join(here, 'node_modules', '@electric-sql', 'pglite', 'dist');
if (!fs.existsSync(pgSrc)) throw new Error('PGlite missing: run `npm ci` in web/');
const pgOut = path.join(out, 'pglite');
fs.mkdirSync(pgOut);
for (const f of fs.readdirSync(pgSrc)) {
  if (/\.(js|wasm|data)$/.test(f)) fs.copyFileSync(path.join(pgSrc, f), path.join(pgOut, f));
}
fs.cpSync(path.join(pgSrc, 'fs'), path.join(pgOut, 'fs'), {
  recursive: true,
  filter: (p) => fs.statSync(p).isDirectory() || p.endsWith('.js'),
});
const pgVersion = JSON.parse(fs.readFileSync(path.join(pgSrc, '..', 'package.json'), 'utf8')).version;

// 5. Sizes.
const gz = (p) => zlib.gzipSync(fs.readFileSync(p), { level: 9 }).length;
const wasmGzip = gz(wasm);
const sizes = {
  wasm: { bytes: fs.statSync(wasm).size, gzip: wasmGzip, budget: WASM_BUDGET },
  page: {},
  pglite: { version: pgVersion, gzip: 0, bytes: 0 },
};
for (const f of [
  'index.html',
  'app.js',
  'style.css',
  'props-worker.js',
  'pg-worker.js',
  'runs.js',
  'jscanon.js',
  'pkg/equijson_wasm.js',
]) {
  sizes.page[f] = gz(path.join(out, f));
}
for (const f of ['pglite.wasm', 'pglite.data']) {
  sizes.pglite.bytes += fs.statSync(path.join(pgOut, f)).size;
  sizes.pglite.gzip += gz(path.join(pgOut, f));
}
fs.writeFileSync(path.join(out, 'sizes.json'), JSON.stringify(sizes, null, 2));
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`equijson wasm: ${kib(sizes.wasm.bytes)}, ${kib(wasmGzip)} gzip (budget ${kib(WASM_BUDGET)})`);
console.log(`page scripts and styles: ${kib(Object.values(sizes.page).reduce((a, b) => a + b, 0))} gzip`);
console.log(`PGlite ${pgVersion} wasm + data: ${kib(sizes.pglite.bytes)}, ${kib(sizes.pglite.gzip)} gzip`);
console.log(`built ${path.relative(process.cwd(), out) || '.'}`);
if (wasmGzip > WASM_BUDGET) {
  console.error(`error: the page's wasm is ${kib(wasmGzip)} gzip, over the ${kib(WASM_BUDGET)} budget`);
  process.exit(1);
}
