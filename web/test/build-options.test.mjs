// web/build.mjs's options, refused before anything is built: an unknown option, a binding
// that is neither a crate directory nor a package, and an --out folder that holds files
// other than an earlier build (which must not be deleted).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

const build = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'build.mjs');
const run = (...args) => spawnSync(process.execPath, [build, ...args], { encoding: 'utf8' });

test('an unknown option is refused with the known ones', () => {
  const r = run('--bindings', 'x');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option --bindings \(options: --binding, --out, --no-opt\)/);
});

test('a binding that is no crate directory and no package is refused with the packages', () => {
  const r = run('--binding', 'no-such-page-crate');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--binding no-such-page-crate: neither a crate directory nor a package/);
  assert.match(r.stderr, /equijson-example-page/);
  const dir = run('--binding', './crates/no-such-dir');
  assert.equal(dir.status, 2);
  assert.match(dir.stderr, /no Cargo\.toml in /);
});

test('--out never replaces a folder of other files', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'page-out-'));
  const keep = path.join(out, 'notes.txt');
  fs.writeFileSync(keep, 'mine');
  try {
    const r = run('--out', out);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /is a non-empty folder that is not an earlier page build: not replacing it/);
    assert.equal(fs.readFileSync(keep, 'utf8'), 'mine');
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});
