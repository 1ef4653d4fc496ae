// The JS-engine oracle itself (web/src/jscanon.js), in Node's V8: it must reproduce the
// RFC 8785 vectors on its own, name the policy classes, and report a difference when the
// core's answer differs (so the page's "0 unexplained" can fail).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';
import { compareWithJs, jsCanonicalize, POLICY_PROBES } from '../src/jscanon.js';

const jcs = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'data', 'jcs');

test('reproduces the RFC 8785 vectors', () => {
  const names = fs.readdirSync(path.join(jcs, 'input'));
  assert.ok(names.length >= 6);
  for (const name of names) {
    const input = fs.readFileSync(path.join(jcs, 'input', name), 'utf8');
    const want = fs.readFileSync(path.join(jcs, 'output', name), 'utf8');
    assert.equal(jsCanonicalize(input).canonical, want, name);
  }
});

test('agrees, names policy classes, and reports differences', () => {
  assert.equal(compareWithJs('{"b":1.0,"a":[1e21]}', { ok: '{"a":[1e+21],"b":1}' }).verdict, 'agree');
  // A wrong core answer is a difference, whatever it is.
  assert.equal(compareWithJs('{"b":1.0,"a":[1e21]}', { ok: '{"a":[1e21],"b":1}' }).verdict, 'differ');
  // Both reject invalid JSON: agreement; the core rejecting valid JSON for no policy: differ.
  assert.equal(compareWithJs('[1,]', { error: { kind: 'TrailingComma' } }).verdict, 'agree');
  assert.equal(compareWithJs('[1]', { error: { kind: 'TrailingComma' } }).verdict, 'differ');
  assert.equal(compareWithJs('[1,]', { ok: '[1]' }).verdict, 'differ');
  // A policy kind the JS side cannot confirm is not taken on trust.
  assert.equal(compareWithJs('["x"]', { error: { kind: 'LoneSurrogate' } }).verdict, 'differ');
  assert.equal(compareWithJs('[1e300]', { error: { kind: 'NumberOutOfRange' } }).verdict, 'differ');
  for (const p of POLICY_PROBES) {
    const kind = {
      'duplicate-key': 'DuplicateKey',
      'lone-surrogate': 'LoneSurrogate',
      'number-beyond-double': 'NumberOutOfRange',
    }[p.expect];
    const r = compareWithJs(p.text, { error: { kind } });
    assert.deepEqual([r.verdict, r.policy], ['policy', p.expect], p.text);
  }
});

test('UTF-16 member order, not code points', () => {
  // U+1F602 (surrogates D83D DE02) sorts before U+FB33 in UTF-16 order.
  assert.equal(jsCanonicalize('{"\\ufb33":1,"\\ud83d\\ude02":2}').canonical, '{"\u{1F602}":2,"\uFB33":1}');
});
