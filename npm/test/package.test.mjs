// The installed package as a whole: entry points, the `bin`, agreement with the native
// CLI on generated documents and on errors. Environment: EQUIJSON_REPO (repository),
// EQUIJSON_NATIVE (the native `equijson` binary), EQUIJSON_DOCS (generated documents).

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { gzipSync } from 'node:zlib';
import esmDefault, * as esm from 'equijson';

const require = createRequire(import.meta.url);
const cjs = require('equijson');
const native = process.env.EQUIJSON_NATIVE;
const docs = process.env.EQUIJSON_DOCS;
const repo = process.env.EQUIJSON_REPO;
const pkgDir = join(require.resolve('equijson/package.json'), '..');
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const bin = join(pkgDir, pkg.bin.equijson);
const docFiles = readdirSync(docs)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => join(docs, f));

/** Runs a command; its exit status, stdout (Buffer) and stderr (string). */
function run(cmd, args, input) {
  const r = spawnSync(cmd, args, { input, maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

test('ESM and CommonJS share one instance in Node', () => {
  assert.equal(esm.canonicalize, cjs.canonicalize);
  assert.equal(esm.EquijsonError, cjs.EquijsonError);
  assert.equal(esmDefault.canonicalize, cjs.canonicalize);
  try {
    cjs.canonicalize('[1,]');
    assert.fail('no error');
  } catch (e) {
    assert.ok(e instanceof esm.EquijsonError);
  }
});

test('a trap in the module (an allocation beyond what wasm32 addresses) leaves the package usable', () => {
  const text = '{"b":1,"a":["é😀", 1.0]}';
  assert.equal(cjs.canonicalize(text), '{"a":["é😀",1],"b":1}');
  // The same module instance the package uses (the glue is cached by its path).
  const glue = require(join(pkgDir, 'dist/glue.cjs'));
  assert.throws(() => glue.inputBuffer(0xfffffff0), WebAssembly.RuntimeError);
  assert.equal(cjs.canonicalize(text), '{"a":["é😀",1],"b":1}');
  assert.equal(cjs.canonicalize(text.repeat(1).padEnd(5000, ' ')), '{"a":["é😀",1],"b":1}');
  assert.equal(cjs.sha256Hex(text), cjs.sha256Hex('{"a":["é😀",1],"b":1}'));
  assert.throws(() => cjs.canonicalize('[1,]'), cjs.EquijsonError);
});

/** Runs an ES module's text in a fresh Node process from the scratch project; its stdout. */
function node(source) {
  const dir = mkdtempSync(join(pkgDir, '..', '..', 'node-'));
  const file = join(dir, 'main.mjs');
  writeFileSync(file, source);
  const r = run(process.execPath, [file]);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.toString();
}

test('the Node entry reads no file: no fs, path or __dirname in what it loads', () => {
  for (const f of ['dist/node/index.cjs', 'dist/node/wasm.cjs', 'dist/glue.cjs']) {
    const text = readFileSync(join(pkgDir, f), 'utf8');
    for (const s of ["require('fs')", "require('path')", '__dirname', 'import.meta']) {
      assert.ok(!text.includes(s), `${f} contains ${s}`);
    }
  }
});

test('init() ahead of time, initSync(module | bytes), in fresh processes', () => {
  const wasmFile = join(pkgDir, 'dist/equijson.wasm');
  const out = node(`
    import { init, initSync, canonicalize } from 'equijson';
    await init();
    await init(); // a second call does nothing
    console.log(canonicalize('{"b":1,"a":[1.0]}'));
  `);
  assert.equal(out, '{"a":[1],"b":1}\n');
  const sync = node(`
    import { readFileSync } from 'node:fs';
    import { initSync, sha256Hex } from 'equijson';
    initSync(new WebAssembly.Module(readFileSync(${JSON.stringify(wasmFile)})));
    console.log(sha256Hex(new TextEncoder().encode('{"b":1,"a":2}').buffer));
  `);
  assert.equal(sync, `${cjs.sha256Hex('{"a":2,"b":1}')}\n`);
  // Not a module and not bytes: a TypeError that says what it takes.
  const bad = node(`
    import { initSync, init } from 'equijson';
    try { initSync('x'); } catch (e) { console.log(e.name, e.message); }
    try { await init(42); } catch (e) { console.log(e.name, e.message); }
  `);
  assert.equal(
    bad,
    'TypeError initSync: expected a WebAssembly.Module, an ArrayBuffer or a typed array, got string\nTypeError init: expected a WebAssembly.Module, bytes, a Response, a URL or a string, got number\n',
  );
});

test('equijson/slim in Node: a clear error before init(), then the module read from its file', () => {
  const out = node(`
    import * as slim from 'equijson/slim';
    try { slim.canonicalize('[1]'); } catch (e) {
      console.log(e instanceof slim.EquijsonError, e.kind, e.message);
    }
    await slim.init();
    console.log(slim.canonicalize('{"b":1,"a":[1.0]}'));
  `);
  assert.equal(
    out,
    'true NotInitialized equijson/slim loads equijson.wasm asynchronously: call `await init()` (or init(url | bytes | WebAssembly.Module), or initSync(bytes | WebAssembly.Module)) before the first call\n{"a":[1],"b":1}\n',
  );
  const missing = node(`
    import * as slim from 'equijson/slim';
    try { await slim.init(new URL('./nowhere/equijson.wasm', import.meta.url)); } catch (e) { console.log(e.code); }
    slim.initSync(await import('node:fs').then((fs) => fs.readFileSync(new URL(import.meta.resolve('equijson/equijson.wasm')))));
    console.log(slim.canonicalize('[2.50]'));
  `);
  assert.equal(missing, 'ENOENT\n[2.5]\n');
});

test('package.json: exports, types, bin, files, version of the workspace', () => {
  const dot = pkg.exports['.'];
  assert.equal(dot.node.import.default, './dist/node/index.mjs');
  assert.equal(dot.node.require.default, './dist/node/index.cjs');
  assert.equal(dot.default.default, './dist/browser/index.mjs');
  assert.equal(dot.workerd.default, './dist/workerd/index.mjs');
  assert.deepEqual(
    Object.keys(dot),
    ['workerd', 'node', 'import', 'default'],
    'the condition order: workerd, then node, then the rest',
  );
  assert.equal(pkg.exports['./slim'].default, './dist/slim/index.mjs');
  assert.equal(pkg.exports['./equijson.wasm'], './dist/equijson.wasm');
  for (const f of [
    dot.node.import.types,
    dot.node.require.types,
    dot.default.types,
    dot.node.import.default,
    dot.node.require.default,
    dot.default.default,
    dot.workerd.default,
    pkg.exports['./slim'].types,
    pkg.exports['./slim'].default,
    pkg.bin.equijson,
    './dist/equijson.wasm',
  ]) {
    assert.ok(statSync(join(pkgDir, f)).isFile(), f);
  }
  // The licence the "license" field names travels with the package, as the repository has it.
  assert.equal(pkg.license, 'MIT OR Apache-2.0');
  for (const licence of ['LICENSE-MIT', 'LICENSE-APACHE']) {
    assert.equal(readFileSync(join(pkgDir, licence), 'utf8'), readFileSync(join(repo, licence), 'utf8'), licence);
  }
  const types = readFileSync(join(pkgDir, 'dist/index.d.mts'), 'utf8');
  for (const name of ['canonicalize', 'canonicalizeBytes', 'canonicalizeValue', 'sha256Hex', 'EquijsonError']) {
    assert.match(types, new RegExp(`export declare (function|class) ${name}\\b`));
  }
  const cargo = readFileSync(join(repo, 'Cargo.toml'), 'utf8');
  const version = /\[workspace\.package\][^[]*?\nversion = "([^"]+)"/.exec(cargo)[1];
  assert.equal(pkg.version, version, 'npm version = workspace version');
  assert.ok(!JSON.stringify(pkg).includes('devDependencies'), 'no devDependencies in the published manifest');
});

test('the TypeScript declarations type-check for node16 (ESM and CommonJS) and bundler resolution', () => {
  const scratch = join(pkgDir, '..', '..');
  const dir = mkdtempSync(join(scratch, 'types-'));
  const body = (imp) => `${imp}
const a: string = canonicalize('{"b":1}', { rejectNegativeZero: true, maxDepth: 10 });
const b: Uint8Array = canonicalizeBytes(new Uint8Array([49]));
const c: string = canonicalizeValue({ x: [1, 'y'] });
const d: string = sha256Hex(new Uint8Array([49]));
try { canonicalize('['); } catch (e) {
  if (e instanceof EquijsonError) {
    const k: string = e.kind; const l: number | undefined = e.line; const p: string | undefined = e.pointer;
    console.log(k, l, p, e.column, e.offset, e.index, e.reason, a, b, c, d);
  }
}
// @ts-expect-error: the text must be a string
canonicalize(42);
// @ts-expect-error: unknown option
canonicalize('1', { rejectNegativeZeros: true });
`;
  writeFileSync(
    join(dir, 'esm.mts'),
    body(
      "import { canonicalize, canonicalizeBytes, canonicalizeValue, sha256Hex, EquijsonError } from 'equijson';\nimport equijson from 'equijson';\nequijson.canonicalize('1');",
    ),
  );
  writeFileSync(
    join(dir, 'cjs.cts'),
    body("import { canonicalize, canonicalizeBytes, canonicalizeValue, sha256Hex, EquijsonError } from 'equijson';"),
  );
  writeFileSync(
    join(dir, 'bundler.ts'),
    body("import { canonicalize, canonicalizeBytes, canonicalizeValue, sha256Hex, EquijsonError } from 'equijson';"),
  );
  const tsc = join(process.env.EQUIJSON_NPM_MODULES, '.bin', 'tsc');
  const common = ['--noEmit', '--strict', '--target', 'es2022', '--lib', 'es2022,dom'];
  const node16 = run(tsc, [
    ...common,
    '--module',
    'node16',
    '--moduleResolution',
    'node16',
    join(dir, 'esm.mts'),
    join(dir, 'cjs.cts'),
  ]);
  assert.equal(node16.status, 0, node16.stdout.toString() + node16.stderr);
  const bundler = run(tsc, [...common, '--module', 'esnext', '--moduleResolution', 'bundler', join(dir, 'bundler.ts')]);
  assert.equal(bundler.status, 0, bundler.stdout.toString() + bundler.stderr);
});

test('type tests (test/types): bytes as ArrayBuffer, init() and initSync() sources, no DOM lib', () => {
  const types = new URL('./types/', import.meta.url).pathname;
  const tsc = join(process.env.EQUIJSON_NPM_MODULES, '.bin', 'tsc');
  const base = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler'];
  const dom = run(tsc, [...base, '--lib', 'es2022,dom', join(types, 'bytes.ts'), join(types, 'init.ts')]);
  assert.equal(dom.status, 0, dom.stdout.toString() + dom.stderr);
  const node16 = run(tsc, [
    ...base.slice(0, -4),
    '--module',
    'node16',
    '--moduleResolution',
    'node16',
    '--lib',
    'es2022,dom',
    join(types, 'bytes.ts'),
  ]);
  assert.equal(node16.status, 0, node16.stdout.toString() + node16.stderr);
  const bare = run(tsc, [...base, '--lib', 'es2022', join(types, 'no-dom.ts')]);
  assert.equal(bare.status, 0, bare.stdout.toString() + bare.stderr);
});

test('the wasm is within its budget of 64 KiB gzip and is the one the browser entry embeds', () => {
  const wasm = readFileSync(join(pkgDir, 'dist/equijson.wasm'));
  const gz = gzipSync(wasm, { level: 9 }).length;
  assert.ok(gz <= 64 * 1024, `${gz} bytes gzip`);
  const embedded = readFileSync(join(pkgDir, 'dist/browser/wasm.mjs'), 'utf8');
  const b64 = /base64 = '([A-Za-z0-9+/=]+)'/.exec(embedded)[1];
  assert.ok(Buffer.from(b64, 'base64').equals(wasm));
  assert.ok(
    Buffer.from(require(join(pkgDir, 'dist/node/wasm.cjs')), 'base64').equals(wasm),
    'the Node entry embeds the same module',
  );
  // Only the canonicalizer: no decode, props or catalogue code made it in.
  const text = wasm.toString('latin1');
  for (const s of ['ledger-entry', 'drive-policy', 'round-trip', 'error-split']) {
    assert.ok(!text.includes(s), `the wasm contains ${s}`);
  }
});

test('agrees with the native CLI on generated documents (library and bin)', () => {
  assert.ok(docFiles.length >= 100, `${docFiles.length} documents`);
  // Native: one canonical document per line, in argument order.
  const nat = execFileSync(native, ['canon', ...docFiles], { maxBuffer: 1 << 28 });
  const natLines = nat.toString('utf8').split('\n');
  assert.equal(natLines.length, docFiles.length + 1);
  const npmOut = run(process.execPath, [bin, ...docFiles]);
  assert.equal(npmOut.status, 0, npmOut.stderr);
  assert.ok(npmOut.stdout.equals(nat), 'the bin writes the same bytes as the native CLI');
  let nonAscii = 0;
  docFiles.forEach((f, i) => {
    const text = readFileSync(f, 'utf8');
    assert.equal(cjs.canonicalize(text), natLines[i], f);
    assert.deepEqual(Buffer.from(cjs.canonicalizeBytes(readFileSync(f))).toString('utf8'), natLines[i], f);
    if (/[^\p{ASCII}]/u.test(natLines[i])) nonAscii++;
  });
  assert.ok(nonAscii > docFiles.length / 4, 'the documents exercise non-ASCII text');
  // One document: no trailing newline, like the native CLI.
  const one = run(process.execPath, [bin, docFiles[0]]);
  assert.ok(one.stdout.equals(execFileSync(native, ['canon', docFiles[0]])));
});

test('the bin: errors, exit codes and messages as the native CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'equijson-bin-'));
  const files = [];
  // A few rows of errors.tsv spread over the kinds, written as files.
  const rows = readFileSync(join(repo, 'tests/data/errors.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));
  rows.forEach((line, i) => {
    const [input, opts] = line.split('\t');
    if (opts !== 'default' || i % 4 !== 0 || /\\x|\\u\{/.test(input)) return;
    const f = join(dir, `bad-${i}.json`);
    writeFileSync(f, input);
    files.push(f);
  });
  assert.ok(files.length >= 20);
  const good = docFiles.slice(0, 3);
  const args = [good[0], ...files, good[1]];
  const nat = run(native, ['canon', ...args]);
  const ours = run(process.execPath, [bin, ...args]);
  assert.equal(nat.status, 1);
  assert.equal(ours.status, 1);
  // The one intended difference: the JSON Lines hint names this command (no `canon`).
  const two = run(process.execPath, [bin], '{"a":1}\n{"b":2}\n');
  assert.equal(two.status, 1);
  assert.equal(
    two.stderr,
    '<stdin>:2:1: error: trailing characters after the JSON value\n<stdin>: hint: a second JSON value follows the first; for JSON Lines (one document per line) use `equijson --lines`\n',
  );
  assert.equal(
    ours.stderr.toString().replaceAll('`equijson --lines`', '`equijson canon --lines`'),
    nat.stderr.toString(),
    'the same FILE:LINE:COL: error: MESSAGE lines',
  );
  assert.ok(ours.stdout.equals(nat.stdout), 'failing files give empty lines');
  // --check prints nothing; options are passed on.
  const chk = run(process.execPath, [bin, '--check', ...good]);
  assert.equal(chk.status, 0);
  assert.equal(chk.stdout.length, 0);
  assert.equal(run(process.execPath, [bin, '--reject-negative-zero'], '[-0]').status, 1);
  assert.equal(run(process.execPath, [bin], '[-0]').stdout.toString(), '[0]');
  assert.equal(run(process.execPath, [bin, '--max-depth', '1'], '[[1]]').status, 1);
  assert.equal(run(process.execPath, [bin, '--max-depth=2'], '[[1]]').stdout.toString(), '[[1]]');
  // stdin, `-`, usage and I/O errors.
  const stdin = run(process.execPath, [bin, '-'], '{"b":1,"a":2}');
  assert.equal(stdin.stdout.toString(), '{"a":2,"b":1}');
  const bad = run(process.execPath, [bin], '{"a":1,\n"a":2}');
  assert.equal(bad.stderr, '<stdin>:2:1: error: duplicate object key "a"\n');
  assert.equal(run(process.execPath, [bin, join(dir, 'missing.json')]).status, 2);
  assert.equal(run(process.execPath, [bin, '--frobnicate']).status, 2);
  assert.equal(run(process.execPath, [bin, '-', '-']).status, 2);
  assert.equal(run(process.execPath, [bin, '--max-depth', 'x']).status, 2);
  const help = run(process.execPath, [bin, '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout.toString(), /Exit codes:/);
  // Invalid UTF-8 in a file: the bytes path reports it like the native CLI.
  const raw = join(dir, 'latin1.json');
  writeFileSync(raw, Buffer.from([0x22, 0xe9, 0x22]));
  const r1 = run(process.execPath, [bin, raw]);
  const r2 = run(native, ['canon', raw]);
  assert.equal(r1.status, 1);
  assert.equal(r1.stderr, r2.stderr);
});

/** Runs the native `equijson canon ARGS` and the bin with ARGS on the same input; both results. */
function both(args, input) {
  return [run(native, ['canon', ...args], input), run(process.execPath, [bin, ...args], input)];
}

/** Asserts that the bin and the native CLI give the same exit code, output and messages. */
function sameAsNative(args, input, what) {
  const [nat, ours] = both(args, input);
  assert.equal(ours.status, nat.status, `${what}: exit code (${ours.stderr})`);
  assert.equal(ours.stderr, nat.stderr, `${what}: messages`);
  assert.ok(ours.stdout.equals(nat.stdout), `${what}: output\n${ours.stdout}\nnative:\n${nat.stdout}`);
  return ours;
}

test('the bin: --lines and --keep-going as the native CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'equijson-lines-'));
  // The generated documents, one per line (their canonical forms, as the native CLI writes
  // them), some lines ending in \r\n.
  const natLines = execFileSync(native, ['canon', ...docFiles.slice(0, 100)], { maxBuffer: 1 << 28 }).toString('utf8');
  const stream = natLines
    .split('\n')
    .filter((l) => l !== '')
    .map((l, i) => (i % 3 === 0 ? `${l}\r` : l))
    .join('\n');
  const good = join(dir, 'good.jsonl');
  writeFileSync(good, stream);
  const out = sameAsNative(['--lines', good], undefined, 'generated documents, some lines ending in \\r\\n');
  assert.equal(out.status, 0);
  assert.equal(
    out.stdout.toString('utf8'),
    `${natLines
      .split('\n')
      .filter((l) => l !== '')
      .join('\n')}\n`,
  );
  // Invalid lines of every sort: line numbers of the file, columns within the line.
  const bad = [
    '{"b":1,"a":[1.0]}',
    '', // a blank line is an invalid document
    '{"a":1,"a":2}',
    '  [1,\r\rx]',
    '"\\ud800"',
    '{"x":{"y":[{"k":1,"k":2}]}}',
    '1e400',
    '-0',
    '9007199254740993',
    '[1]  [2]',
    '"\uffff"',
    '\ufeff{}',
    '[[[1]]]',
    '"é😀 \u0001"',
    '{"z":1}',
  ].join('\n');
  const file = join(dir, 'bad.jsonl');
  writeFileSync(file, Buffer.concat([Buffer.from(bad), Buffer.from([0x0a, 0x22, 0xff, 0x22, 0x0a, 0x0d])]));
  for (const opts of [
    [],
    ['--reject-negative-zero', '--reject-inexact', '--reject-noncharacters', '--max-depth', '2'],
  ]) {
    for (const mode of [[], ['--keep-going'], ['--check'], ['--check', '--keep-going']]) {
      const args = ['--lines', ...mode, ...opts];
      const r = sameAsNative([...args, file], undefined, args.join(' '));
      assert.equal(r.status, 1);
      // From standard input: the same, named <stdin>.
      sameAsNative(args, readFileSync(file), `${args.join(' ')} <stdin>`);
    }
  }
  const kept = sameAsNative(['--lines', '--keep-going', file], undefined, 'keep-going');
  assert.equal(kept.stderr.split('\n').filter((l) => l).length, 11, kept.stderr);
  assert.match(kept.stderr, /bad\.jsonl:2:1: error: unexpected end of input/);
  assert.match(kept.stderr, /bad\.jsonl:6:19: error: duplicate object key "k" at "\/x\/y\/0\/k"/);
  // Several files, a missing one, a directory: each reported, the run goes on.
  sameAsNative(['--lines', good, join(dir, 'missing.jsonl'), dir, good], undefined, 'several files');
  sameAsNative(['--lines', '--keep-going', file, good], undefined, 'several files, keep going');
  sameAsNative(['--lines', file, good], undefined, 'the first invalid line ends the whole run');
  // Edge cases of the stream: empty, one newline, no final newline, a final lone \r.
  for (const input of ['', '\n', '[1]', '[1]\n', '[1]\r\n', '[1]\r', '[1]\n\r', '\r\n[1]']) {
    sameAsNative(['--lines'], input, JSON.stringify(input));
    sameAsNative(['--lines', '--keep-going'], input, JSON.stringify(input));
  }
  // Usage: --keep-going needs --lines; neither takes a value.
  for (const args of [['--keep-going'], ['--lines=1'], ['--keep-going=x', '--lines']]) {
    const [nat, ours] = both(args); // no input: usage errors end the run before reading
    assert.equal(nat.status, 2);
    assert.equal(ours.status, 2, args.join(' '));
    assert.equal(ours.stderr.split('\n')[0], nat.stderr.split('\n')[0], args.join(' '));
  }
  // A reader that stops early ends the run quietly.
  const many = join(dir, 'many.jsonl');
  writeFileSync(many, '{"b":1,"a":2}\n'.repeat(200000));
  const head = spawnSync('bash', [
    '-c',
    `set -o pipefail; "${process.execPath}" "${bin}" --lines "${many}" | head -c 10`,
  ]);
  assert.equal(head.stdout.toString(), '{"a":2,"b"');
  assert.equal(head.stderr.toString(), '');
  assert.equal(head.status, 0);
});

test('the bin: I/O and usage errors worded as the native CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'equijson-io-'));
  const ok = join(dir, 'ok.json');
  writeFileSync(ok, '[1.0]');
  // A file over the 4 GiB - 1 limit of one document is refused from its size (a sparse
  // file: nothing is written to disk), exit 1, before anything is read.
  const big = join(dir, 'big.json');
  writeFileSync(big, '');
  truncateSync(big, 5_000_000_000);
  for (const args of [
    [join(dir, 'missing.json')],
    [dir],
    [ok, join(dir, 'missing.json'), ok],
    ['--check', dir],
    ['--', '-x'],
    [big],
    [ok, big, ok],
  ]) {
    sameAsNative(args, undefined, args.join(' '));
  }
  // Standard output that cannot be written: exit 2, the same message.
  for (const args of [[ok], ['--lines', ok]]) {
    const cmd = (exe) => spawnSync('bash', ['-c', `"$@" > /dev/full`, 'sh', ...exe, ...args]);
    const n = cmd([native, 'canon']);
    const o = cmd([process.execPath, bin]);
    assert.equal(n.status, 2);
    assert.equal(o.status, 2, args.join(' '));
    assert.equal(o.stderr.toString(), n.stderr.toString(), args.join(' '));
  }
  const refused = run(process.execPath, [bin, big]);
  assert.equal(refused.status, 1);
  assert.match(
    refused.stderr,
    /big\.json: error: input too large: 5000000000 bytes is more than the 4294967295-byte limit/,
  );
  // Usage errors: the same first line (the rest names the command, which differs).
  for (const args of [
    ['--frobnicate'],
    ['--max-depth'],
    ['--max-depth', 'x'],
    ['--max-depth='],
    ['--max-depth', '99999999999999999999'],
    ['--check=1'],
  ]) {
    const [nat, ours] = both(args); // no input: usage errors end the run before reading
    assert.equal(ours.status, 2, args.join(' '));
    assert.equal(nat.status, 2, args.join(' '));
    assert.equal(ours.stderr.split('\n')[0], nat.stderr.split('\n')[0], args.join(' '));
    assert.match(ours.stderr, /For more information, try '--help'\.\n$/);
  }
  // --reject-inexact judges decimals, as its help says: 0.1, 2.50 and 1e23 pass.
  assert.equal(
    sameAsNative(['--reject-inexact'], '[0.1,2.50,1e23]', 'inexact: pass').stdout.toString(),
    '[0.1,2.5,1e+23]',
  );
  for (const n of ['9007199254740993', '1e-400', '0.1000000000000000055511151231257827021181583404541015625']) {
    assert.equal(sameAsNative(['--reject-inexact'], n, n).status, 1);
  }
  assert.match(run(process.execPath, [bin, '--help']).stdout.toString(), /0\.1, 2\.50\s+and 1e23 pass/);
  // --max-depth: what the native CLI accepts (up to 2^64 - 1, a leading +) works alike.
  for (const depth of ['0', '1', '+2', '4294967296', '18446744073709551615']) {
    sameAsNative(['--max-depth', depth], '[[1]]', `--max-depth ${depth}`);
    sameAsNative([`--max-depth=${depth}`], '1', `--max-depth=${depth}`);
  }
});
