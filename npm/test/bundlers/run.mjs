// Builds tiny apps with real bundlers from the packed package and runs them: Node bundles
// with node (from a directory without node_modules, so the bundle must carry everything),
// browser bundles in headless Chromium, the Worker bundle in workerd. Each app canonicalizes
// and hashes the RFC 8785 vectors (tests/data/jcs); the results must be the vectors' outputs.
//
//   node npm/test/bundlers/run.mjs WORK
//
// WORK holds node_modules/equijson (the unpacked tarball; scripts/npm-bundlers.sh puts it
// there). Environment: EQUIJSON_REPO (the repository), EQUIJSON_NPM_MODULES (npm/node_modules,
// for playwright-core), CHROMIUM (default /usr/bin/chromium).

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import commonjs from '@rollup/plugin-commonjs';
import nodeResolve from '@rollup/plugin-node-resolve';
import * as esbuild from 'esbuild';
import { rollup } from 'rollup';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';

const here = dirname(fileURLToPath(import.meta.url));
const work = process.argv[2];
const repo = process.env.EQUIJSON_REPO;
if (!work || !repo || !existsSync(join(work, 'node_modules/equijson/package.json'))) {
  console.error(
    'usage: EQUIJSON_REPO=... EQUIJSON_NPM_MODULES=... node run.mjs WORK (WORK/node_modules/equijson installed)',
  );
  process.exit(2);
}
const app = join(work, 'app');
const outRoot = join(work, 'out');
rmSync(app, { recursive: true, force: true });
rmSync(outRoot, { recursive: true, force: true });
mkdirSync(app, { recursive: true });

// ---- the vectors and what each app must print ----------------------------------------------
const jcs = join(repo, 'tests/data/jcs');
const names = readdirSync(join(jcs, 'input'))
  .filter((f) => f.endsWith('.json'))
  .sort();
const inputs = names.map((f) => readFileSync(join(jcs, 'input', f), 'utf8'));
const want = names.map((f) => {
  const out = readFileSync(join(jcs, 'output', f));
  return [out.toString('utf8'), createHash('sha256').update(out).digest('hex')];
});
if (names.length < 6) throw new Error(`only ${names.length} RFC 8785 vectors in ${jcs}`);

// Every app computes this: canonical text (string in) and the hash (an ArrayBuffer in).
const compute = `(eq) => VECTORS.map((v) => [eq.canonicalize(v), eq.sha256Hex(new TextEncoder().encode(v).buffer)])`;
const files = {
  'vectors.mjs': `export const VECTORS = ${JSON.stringify(inputs)};\n`,
  'vectors.cjs': `module.exports = ${JSON.stringify(inputs)};\n`,
  // Node, ESM: the main entry, first call without init().
  'node.mjs': `import * as eq from 'equijson';\nimport { VECTORS } from './vectors.mjs';\nconsole.log(JSON.stringify((${compute})(eq)));\n`,
  // Node, CommonJS (the require condition).
  'node.cjs': `const eq = require('equijson');\nconst VECTORS = require('./vectors.cjs');\nconsole.log(JSON.stringify((${compute})(eq)));\n`,
  // Browsers: the main entry (embedded module), first call synchronous.
  'browser.mjs': `import * as eq from 'equijson';\nimport { VECTORS } from './vectors.mjs';\nwindow.result = (${compute})(eq);\n`,
  // Browsers: equijson/slim, the module a separate asset the bundler emits (new URL(..., import.meta.url)).
  'slim.mjs': `import * as eq from 'equijson/slim';\nimport { VECTORS } from './vectors.mjs';\neq.init().then(() => { window.result = (${compute})(eq); }, (e) => { window.result = String(e); });\n`,
  // Browsers, esbuild: equijson/slim with the asset imported through the file loader.
  'slim-esbuild.mjs': `import * as eq from 'equijson/slim';\nimport wasmUrl from 'equijson/equijson.wasm';\nimport { VECTORS } from './vectors.mjs';\neq.init(wasmUrl).then(() => { window.result = (${compute})(eq); }, (e) => { window.result = String(e); });\n`,
  // Cloudflare Workers: the workerd condition imports the module; fetch answers the results.
  'worker.mjs': `import * as eq from 'equijson';\nimport { VECTORS } from './vectors.mjs';\nexport default {\n  async fetch() {\n    try {\n      return Response.json((${compute})(eq));\n    } catch (e) {\n      return Response.json({ error: String(e), kind: e.kind });\n    }\n  },\n};\n`,
};
for (const [f, text] of Object.entries(files)) writeFileSync(join(app, f), text);
const page = (script) => `<!doctype html>\n<meta charset="utf-8">\n<script type="module" src="${script}"></script>\n`;

// ---- the builds --------------------------------------------------------------------------------
const builds = [];
/** Registers a build: `make(outDir)` builds into outDir; `kind` says how to run it. */
function add(name, kind, make, entry) {
  builds.push({ name, kind, make, entry });
}

const quiet = { logLevel: 'silent' };
add(
  'esbuild node cjs (require)',
  'node',
  (o) =>
    esbuild.build({
      ...quiet,
      entryPoints: [join(app, 'node.cjs')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: join(o, 'main.cjs'),
    }),
  'main.cjs',
);
add(
  'esbuild node esm (import)',
  'node',
  (o) =>
    esbuild.build({
      ...quiet,
      entryPoints: [join(app, 'node.mjs')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: join(o, 'main.mjs'),
    }),
  'main.mjs',
);
add('esbuild browser', 'browser', (o) => {
  writeFileSync(join(o, 'index.html'), page('./main.js'));
  return esbuild.build({
    ...quiet,
    entryPoints: [join(app, 'browser.mjs')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    outfile: join(o, 'main.js'),
  });
});
add('esbuild browser, equijson/slim + file loader', 'browser', (o) => {
  writeFileSync(join(o, 'index.html'), page('./main.js'));
  return esbuild.build({
    ...quiet,
    entryPoints: [join(app, 'slim-esbuild.mjs')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    outfile: join(o, 'main.js'),
    loader: { '.wasm': 'file' },
  });
});

function pack(config) {
  return new Promise((resolve, reject) => {
    webpack({ mode: 'production', ...config }, (err, stats) => {
      if (err) return reject(err);
      if (stats.hasErrors()) return reject(new Error(stats.toString('errors-only')));
      resolve(stats);
    });
  });
}
add(
  'webpack target node20',
  'node',
  (o) => pack({ target: 'node20', entry: join(app, 'node.mjs'), output: { path: o, filename: 'main.js' } }),
  'main.js',
);
add('webpack web', 'browser', (o) => {
  writeFileSync(join(o, 'index.html'), page('./main.js'));
  return pack({
    target: 'web',
    entry: join(app, 'browser.mjs'),
    output: { path: o, filename: 'main.js' },
    performance: { hints: false },
  });
});
add('webpack web, equijson/slim (asset emitted)', 'browser', (o) => {
  writeFileSync(join(o, 'index.html'), page('./main.js'));
  return pack({ target: 'web', entry: join(app, 'slim.mjs'), output: { path: o, filename: 'main.js' } });
});

add(
  'Vite SSR noExternal',
  'node',
  (o) =>
    viteBuild({
      ...quiet,
      configFile: false,
      root: app,
      ssr: { noExternal: true },
      build: {
        ssr: join(app, 'node.mjs'),
        outDir: o,
        emptyOutDir: true,
        rollupOptions: { output: { entryFileNames: 'main.mjs' } },
      },
    }),
  'main.mjs',
);
add('Vite client', 'browser', (o) => {
  writeFileSync(join(app, 'vite-inline.html'), page('./browser.mjs'));
  return viteBuild({
    ...quiet,
    configFile: false,
    root: app,
    base: './',
    build: { outDir: o, emptyOutDir: true, rollupOptions: { input: join(app, 'vite-inline.html') } },
  }).then(() => {
    copyFileSync(join(o, 'vite-inline.html'), join(o, 'index.html'));
  });
});
add('Vite client, equijson/slim (asset emitted)', 'browser', (o) => {
  writeFileSync(join(app, 'vite.html'), page('./slim.mjs'));
  return viteBuild({
    ...quiet,
    configFile: false,
    root: app,
    base: './',
    build: { outDir: o, emptyOutDir: true, rollupOptions: { input: join(app, 'vite.html') } },
  }).then(() => {
    copyFileSync(join(o, 'vite.html'), join(o, 'index.html'));
  });
});

async function roll(input, file, resolveOptions) {
  const bundle = await rollup({ input, onwarn: () => {}, plugins: [nodeResolve(resolveOptions), commonjs()] });
  await bundle.write({ file, format: 'es' });
  await bundle.close();
}
add(
  'Rollup node (node-resolve exportConditions node, commonjs)',
  'node',
  (o) => roll(join(app, 'node.mjs'), join(o, 'main.mjs'), { exportConditions: ['node'], preferBuiltins: true }),
  'main.mjs',
);
add('Rollup browser', 'browser', (o) => {
  writeFileSync(join(o, 'index.html'), page('./main.js'));
  return roll(join(app, 'browser.mjs'), join(o, 'main.js'), { browser: true });
});

// Workers: what Wrangler does (esbuild with the workerd condition, .wasm imports kept as
// modules), then workerd with both files as modules.
const workerBuild = (conditions) => (o) =>
  esbuild.build({
    ...quiet,
    entryPoints: [join(app, 'worker.mjs')],
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    conditions,
    mainFields: ['module', 'main'],
    outfile: join(o, 'worker.mjs'),
    loader: { '.wasm': 'copy' },
    assetNames: '[name]',
  });
add(
  'esbuild for workerd (conditions workerd, worker, browser)',
  'workerd',
  workerBuild(['workerd', 'worker', 'browser']),
);
add(
  'esbuild for workerd without the workerd condition (must fail clearly)',
  'workerd-blocked',
  workerBuild(['worker', 'browser']),
);

// ---- running them ------------------------------------------------------------------------------
function check(got) {
  const text = JSON.stringify(got);
  if (text !== JSON.stringify(want))
    throw new Error(`got ${text.slice(0, 600)}\nwant ${JSON.stringify(want).slice(0, 600)}`);
}

function runNode(dir, entry) {
  // A copy in a directory with no node_modules above it: the bundle alone.
  const alone = mkdtempSync(join(tmpdir(), 'equijson-bundle-'));
  cpSync(dir, alone, { recursive: true });
  const r = spawnSync(process.execPath, [join(alone, entry)], { cwd: alone, encoding: 'utf8' });
  rmSync(alone, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`node exited ${r.status}: ${r.stderr}`);
  check(JSON.parse(r.stdout));
}

function serve(dirs) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204);
      return res.end();
    }
    const [, which, ...rest] = url.pathname.split('/');
    const base = dirs[which];
    const file = base && normalize(join(base, rest.join('/') || 'index.html'));
    if (file?.startsWith(base) && existsSync(file)) {
      const type = /\.m?js$/.test(file)
        ? 'text/javascript'
        : file.endsWith('.wasm')
          ? 'application/wasm'
          : file.endsWith('.html')
            ? 'text/html; charset=utf-8'
            : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type });
      return res.end(readFileSync(file));
    }
    res.writeHead(404);
    res.end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function runBrowsers(list) {
  const dirs = Object.fromEntries(list.map((b, i) => [`b${i}`, b.dir]));
  const server = await serve(dirs);
  const { chromium } = createRequire(join(process.env.EQUIJSON_NPM_MODULES, 'x.js'))('playwright-core');
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
    for (const [i, b] of list.entries()) {
      await attempt(`${b.name} (Chromium)`, () => runPage(browser, server, i, b));
    }
  } finally {
    await browser.close();
    server.close();
  }
}

/** Opens build `b` (served under /b<i>/) in a fresh page; its result must be the vectors'. */
async function runPage(browser, server, i, b) {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.goto(`http://127.0.0.1:${server.address().port}/b${i}/`);
  try {
    await page.waitForFunction(() => window.result !== undefined, null, { timeout: 30000 });
  } catch {
    throw new Error(`no result in Chromium (${problems.join('; ')})`);
  }
  const got = await page.evaluate(() => window.result);
  await page.close();
  if (problems.length) throw new Error(problems.join('; '));
  check(got);
  console.log(`ok   ${b.name} (Chromium)`);
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function runWorkerd(ok, blocked) {
  const ports = [await freePort(), await freePort()];
  // embed paths are relative to the config file.
  const worker = (b) => {
    const d = relative(outRoot, b.dir);
    const wasm = existsSync(join(b.dir, 'equijson.wasm'))
      ? `, (name = "equijson.wasm", wasm = embed "${d}/equijson.wasm")`
      : '';
    return `(modules = [(name = "worker.mjs", esModule = embed "${d}/worker.mjs")${wasm}], compatibilityDate = "2026-11-01")`;
  };
  const config = join(outRoot, 'workerd.capnp');
  writeFileSync(
    config,
    `using Workerd = import "/workerd/workerd.capnp";\nconst config :Workerd.Config = (\n  services = [(name = "ok", worker = ${worker(ok)}), (name = "blocked", worker = ${worker(blocked)})],\n  sockets = [(name = "a", address = "127.0.0.1:${ports[0]}", http = (), service = "ok"), (name = "b", address = "127.0.0.1:${ports[1]}", http = (), service = "blocked")],\n);\n`,
  );
  const bin = join(here, 'node_modules/.bin/workerd');
  const child = spawn(bin, ['serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  try {
    const get = async (port) => {
      for (let i = 0; i < 200; i++) {
        try {
          return await (await fetch(`http://127.0.0.1:${port}/`)).json();
        } catch {
          if (child.exitCode !== null) throw new Error(`workerd exited ${child.exitCode}: ${stderr}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      throw new Error(`workerd did not answer on ${port}: ${stderr}`);
    };
    await attempt(`${ok.name} (workerd)`, async () => {
      check(await get(ports[0]));
      console.log(`ok   ${ok.name} (workerd)`);
    });
    await attempt(`${blocked.name} (workerd)`, async () => {
      const err = await get(ports[1]);
      if (err.kind !== 'WasmBlocked' || !err.error.includes('"workerd" export condition')) {
        throw new Error(`want a WasmBlocked EquijsonError naming the workerd condition, got ${JSON.stringify(err)}`);
      }
      console.log(`ok   ${blocked.name} (workerd: ${err.error})`);
    });
  } finally {
    child.kill('SIGTERM');
  }
}

// Every build runs even when one fails; all failures are listed at the end.
const started = Date.now();
const failures = [];
async function attempt(name, f) {
  try {
    await f();
  } catch (e) {
    failures.push(name);
    console.log(`FAIL ${name}: ${e.message}`);
  }
}
const browsers = [];
const workers = {};
for (const [i, b] of builds.entries()) {
  b.dir = join(outRoot, String(i));
  mkdirSync(b.dir, { recursive: true });
  await attempt(b.name, async () => {
    const t = Date.now();
    try {
      await b.make(b.dir);
    } catch (e) {
      throw new Error(`the build failed: ${e.stack || e}`);
    }
    const ms = Date.now() - t;
    if (b.kind === 'node') {
      runNode(b.dir, b.entry);
      console.log(`ok   ${b.name} (node; built in ${ms} ms)`);
    } else if (b.kind === 'browser') {
      browsers.push(b);
    } else {
      workers[b.kind] = b;
    }
  });
}
await attempt('the browser bundles', () => runBrowsers(browsers));
await attempt('the Worker bundles', () => runWorkerd(workers.workerd, workers['workerd-blocked']));
const secs = ((Date.now() - started) / 1000).toFixed(1);
if (failures.length > 0) {
  console.error(`npm-bundlers: ${failures.length} failed: ${failures.join('; ')} (${secs} s)`);
  process.exit(1);
}
console.log(`npm-bundlers: ${builds.length} builds ran and printed the RFC 8785 vectors' outputs (${secs} s)`);
