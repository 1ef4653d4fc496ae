// Builds the reviewers' page into a static folder (default target/web/): a page binding
// crate (a cdylib whose lib.rs is one `equijson_page::bind!`; default: the project's own,
// crates/equijson-catalogue-page), built for wasm32 with wasm-bindgen's web glue, optimized by npm
// binaryen's wasm-opt, the page's own files and the PGlite runtime (JS, wasm and data)
// copied from node_modules, so nothing comes from a CDN. The folder is what a static host
// (GitHub Pages, an artifact of a pull request's CI job) serves as it is.
//
//   node build.mjs                          the project's page into target/web
//   node build.mjs --binding DIR|PACKAGE    the page for that binding crate (your DTOs)
//   node build.mjs --out DIR                into DIR (made or replaced; refuses a non-empty
//                                           folder that is not an earlier build)
//   node build.mjs --no-opt                 skip wasm-opt (faster, bigger; for development)
//
// --binding takes the crate's directory (with its Cargo.toml) or its package name, looked
// up with `cargo metadata` in the current directory's workspace, then in this repository's.
// Prints the gzip size of every file the page loads and fails when the page's wasm is over
// the 400 KiB (gzip) budget.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const cache = path.join(root, 'target', 'web-cache');
const WASM_BUDGET = 400 * 1024;
// The page's scripts import the binding as ./pkg/equijson_page.js whatever the crate's name.
const OUT_NAME = 'equijson_page';

const argv = process.argv.slice(2);
const option = (name, def) => {
  const i = argv.indexOf(name);
  if (i < 0) return def;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) fail(`${name} needs a value`);
  return v;
};
function fail(message) {
  console.error(`build.mjs: ${message}`);
  process.exit(2);
}
for (const [i, a] of argv.entries()) {
  const known = ['--binding', '--out', '--no-opt'];
  if (a.startsWith('--') && !known.includes(a)) fail(`unknown option ${a} (options: ${known.join(', ')})`);
  if (!a.startsWith('--') && !['--binding', '--out'].includes(argv[i - 1])) fail(`unexpected argument ${a}`);
}
const noOpt = argv.includes('--no-opt');
const out = path.resolve(option('--out', path.join(root, 'target', 'web')));
const binding = resolveBinding(option('--binding', path.join(root, 'crates', 'equijson-catalogue-page')));

/** The binding crate's directory and package name, from a directory or a package name. */
function resolveBinding(spec) {
  const dir = path.resolve(spec);
  if (fs.existsSync(path.join(dir, 'Cargo.toml'))) {
    const name = fs.readFileSync(path.join(dir, 'Cargo.toml'), 'utf8').match(/^name\s*=\s*"([^"]+)"/m)?.[1];
    if (!name) fail(`${path.join(dir, 'Cargo.toml')} has no package name`);
    return { dir, name };
  }
  if (/[/\\]/.test(spec)) fail(`--binding ${spec}: no Cargo.toml in ${dir}`);
  const seen = [];
  for (const cwd of [...new Set([process.cwd(), root])]) {
    let meta;
    try {
      meta = JSON.parse(
        execFileSync('cargo', ['metadata', '--no-deps', '--format-version', '1'], {
          cwd,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
          maxBuffer: 64 << 20,
        }),
      );
    } catch {
      continue;
    }
    const pkg = meta.packages.find((p) => p.name === spec);
    if (pkg) return { dir: path.dirname(pkg.manifest_path), name: pkg.name };
    seen.push(...meta.packages.map((p) => p.name));
  }
  fail(`--binding ${spec}: neither a crate directory nor a package of the workspace (packages: ${seen.join(', ')})`);
}

function run(cmd, args, opts = {}) {
  execFileSync(cmd, args, { stdio: 'inherit', ...opts });
}

// Replacing --out must not delete someone's files: only an earlier build (its sizes.json) or
// an empty folder is replaced.
if (fs.existsSync(out) && fs.readdirSync(out).length > 0 && !fs.existsSync(path.join(out, 'sizes.json')))
  fail(`--out ${out} is a non-empty folder that is not an earlier page build: not replacing it`);
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
fs.mkdirSync(cache, { recursive: true });

// 1. The binding, for browsers (ES module + wasm): cargo builds the cdylib for wasm32, the
// wasm-bindgen CLI (the version of the crate in Cargo.lock, installed by scripts/setup.sh)
// writes the `--target web` glue. This is what `wasm-pack build --target web` runs, without
// installing wasm-pack.
console.log(`binding: ${binding.name} (${path.relative(process.cwd(), binding.dir) || '.'})`);
const manifest = path.join(binding.dir, 'Cargo.toml');
const messages = execFileSync(
  'cargo',
  [
    'build',
    '--lib',
    '--release',
    '--locked',
    '--target',
    'wasm32-unknown-unknown',
    '--message-format=json-render-diagnostics',
    '--manifest-path',
    manifest,
    '-p',
    binding.name,
  ],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 256 << 20 },
);
// The module is the cdylib artifact cargo reports for the binding's own manifest.
let built;
for (const line of messages.split('\n')) {
  if (!line.startsWith('{')) continue;
  const m = JSON.parse(line);
  if (m.reason !== 'compiler-artifact' || path.resolve(m.manifest_path) !== path.resolve(manifest)) continue;
  if (!m.target.crate_types.includes('cdylib')) continue;
  built = m.filenames.find((f) => f.endsWith('.wasm'));
}
if (!built) fail(`${binding.name} built no .wasm: is it a cdylib crate (crate-type = ["cdylib"])?`);
run('wasm-bindgen', [
  '--target',
  'web',
  '--no-typescript',
  '--out-name',
  OUT_NAME,
  '--out-dir',
  path.join(out, 'pkg'),
  built,
]);

// 2. wasm-opt -Oz from npm binaryen (Debian's is too old for current wasm-bindgen).
const wasm = path.join(out, 'pkg', `${OUT_NAME}_bg.wasm`);
if (!noOpt) {
  const hash = createHash('sha256').update(fs.readFileSync(wasm)).digest('hex');
  const cached = path.join(cache, `${hash}.wasm`);
  if (fs.existsSync(cached)) {
    fs.copyFileSync(cached, wasm);
    const now = new Date();
    fs.utimesSync(cached, now, now);
    console.log(`wasm-opt: cached result for ${hash.slice(0, 12)}`);
  } else {
    const bin = path.join(here, 'node_modules', '.bin', 'wasm-opt');
    if (!fs.existsSync(bin)) throw new Error('web/node_modules/.bin/wasm-opt missing: run `npm ci` in web/');
    const before = fs.statSync(wasm).size;
    run(bin, ['-Oz', '--strip-debug', '--strip-producers', wasm, '-o', `${wasm}.opt`]);
    fs.renameSync(`${wasm}.opt`, wasm);
    // Keep the newest few (the project's page and a binding or two built alternately).
    const old = fs
      .readdirSync(cache)
      .map((f) => path.join(cache, f))
      .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
    for (const f of old.slice(3)) fs.rmSync(f);
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
  binding: binding.name,
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
  `pkg/${OUT_NAME}.js`,
]) {
  sizes.page[f] = gz(path.join(out, f));
}
for (const f of ['pglite.wasm', 'pglite.data']) {
  sizes.pglite.bytes += fs.statSync(path.join(pgOut, f)).size;
  sizes.pglite.gzip += gz(path.join(pgOut, f));
}
fs.writeFileSync(path.join(out, 'sizes.json'), JSON.stringify(sizes, null, 2));
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(
  `page wasm (${binding.name}): ${kib(sizes.wasm.bytes)}, ${kib(wasmGzip)} gzip (budget ${kib(WASM_BUDGET)})`,
);
console.log(`page scripts and styles: ${kib(Object.values(sizes.page).reduce((a, b) => a + b, 0))} gzip`);
console.log(`PGlite ${pgVersion} wasm + data: ${kib(sizes.pglite.bytes)}, ${kib(sizes.pglite.gzip)} gzip`);
console.log(`built ${path.relative(process.cwd(), out) || '.'} (a static folder: serve or publish it as it is)`);
if (wasmGzip > WASM_BUDGET) {
  console.error(`error: the page's wasm is ${kib(wasmGzip)} gzip, over the ${kib(WASM_BUDGET)} budget`);
  process.exit(1);
}
