// The API tests, run once through `require('equijson')` (require.test.cjs) and once
// through `import 'equijson'` (import.test.mjs), against the installed tarball.
// EQUIJSON_REPO points at the repository (tests/data).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const repo = process.env.EQUIJSON_REPO;
if (!repo) throw new Error('EQUIJSON_REPO must name the repository root');
const data = (...p) => path.join(repo, 'tests', 'data', ...p);
const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Rows of tests/data/errors.tsv: input bytes, options, kind, offset, line, column, display. */
function errorRows() {
  const rows = [];
  for (const line of fs.readFileSync(data('errors.tsv'), 'utf8').split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const [input, opts, kind, offset, ln, col, display] = line.split('\t');
    rows.push({
      source: input,
      bytes: unescapeTsv(input),
      options: tsvOptions(opts),
      kind: kind.replace(/\(.*$/s, ''),
      offset: Number(offset),
      line: Number(ln),
      column: Number(col),
      display: display || undefined,
    });
  }
  return rows;
}

/** The table's notation: `\xHH` one raw byte, `\u{H..}` one character as UTF-8. */
function unescapeTsv(s) {
  const out = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length; ) {
    const byte = /^\\x([0-9A-Fa-f]{2})/.exec(s.slice(i));
    const char = byte ? null : /^\\u\{([0-9A-Fa-f]+)\}/.exec(s.slice(i));
    if (byte) {
      out.push(parseInt(byte[1], 16));
      i += byte[0].length;
    } else if (char) {
      out.push(...enc.encode(String.fromCodePoint(parseInt(char[1], 16))));
      i += char[0].length;
    } else {
      const cp = s.codePointAt(i);
      const ch = String.fromCodePoint(cp);
      out.push(...enc.encode(ch));
      i += ch.length;
    }
  }
  return Uint8Array.from(out);
}

function tsvOptions(s) {
  const o = {};
  if (s === 'default') return o;
  for (const part of s.split(',')) {
    if (part === 'reject-negative-zero') o.rejectNegativeZero = true;
    else if (part === 'reject-inexact') o.rejectInexact = true;
    else if (part === 'reject-noncharacters') o.rejectNoncharacters = true;
    else if (part.startsWith('max-depth=')) o.maxDepth = Number(part.slice('max-depth='.length));
    else throw new Error(`errors.tsv: unknown option ${part}`);
  }
  return o;
}

function vectors() {
  const dir = data('jcs', 'input');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({
      name: f,
      input: fs.readFileSync(path.join(dir, f)),
      output: fs.readFileSync(data('jcs', 'output', f)),
      outhex: fs.readFileSync(data('jcs', 'outhex', f.replace(/\.json$/, '.txt')), 'utf8'),
    }));
}

/** Calls `fn`, which must throw an EquijsonError; returns it. */
function rejects(lib, fn, what) {
  let caught;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught, `${what}: expected an error`);
  assert.ok(caught instanceof Error, `${what}: not an Error: ${caught}`);
  assert.ok(caught instanceof lib.EquijsonError, `${what}: not an EquijsonError: ${caught}`);
  assert.equal(caught.name, 'EquijsonError');
  return caught;
}

module.exports = function suite(lib, label) {
  const { canonicalize, canonicalizeBytes, canonicalizeValue, sha256Hex } = lib;

  test(`${label}: exports`, () => {
    for (const name of [
      'canonicalize',
      'canonicalizeBytes',
      'canonicalizeValue',
      'sha256Hex',
      'releaseMemory',
      'init',
      'initSync',
    ]) {
      assert.equal(typeof lib[name], 'function', name);
    }
    assert.equal(typeof lib.EquijsonError, 'function');
  });

  test(`${label}: RFC 8785 vectors through every entry point`, () => {
    const vs = vectors();
    assert.ok(vs.length >= 6, 'the six RFC 8785 vectors');
    for (const v of vs) {
      const want = v.output.toString('utf8');
      // The outhex files hold the same bytes in hex: the vectors are consistent.
      const hex = v.outhex.trim().split(/\s+/).join('').toLowerCase();
      assert.equal(hex, v.output.toString('hex'), `${v.name}: outhex`);
      assert.equal(canonicalize(v.input.toString('utf8')), want, `${v.name}: canonicalize`);
      assert.deepEqual(Buffer.from(canonicalizeBytes(v.input)), v.output, `${v.name}: canonicalizeBytes`);
      assert.deepEqual(
        Buffer.from(canonicalizeBytes(new Uint8Array(v.input).buffer)),
        v.output,
        `${v.name}: ArrayBuffer`,
      );
      assert.equal(canonicalizeValue(JSON.parse(v.input.toString('utf8'))), want, `${v.name}: canonicalizeValue`);
      const sha = crypto.createHash('sha256').update(v.output).digest('hex');
      assert.equal(sha256Hex(v.input.toString('utf8')), sha, `${v.name}: sha256Hex(string)`);
      assert.equal(sha256Hex(v.input), sha, `${v.name}: sha256Hex(bytes)`);
      // Canonical text is a fixed point.
      assert.equal(canonicalize(want), want, `${v.name}: idempotent`);
    }
  });

  test(`${label}: every row of tests/data/errors.tsv, as bytes and as a string`, () => {
    const rows = errorRows();
    assert.ok(rows.length > 250, `only ${rows.length} rows`);
    const kinds = new Set();
    let strings = 0;
    for (const r of rows) {
      const what = `errors.tsv ${JSON.stringify(r.source)}`;
      const e = rejects(lib, () => canonicalizeBytes(r.bytes, r.options), what);
      assert.equal(e.kind, r.kind, `${what}: kind (${e.message})`);
      assert.equal(e.offset, r.offset, `${what}: offset`);
      assert.equal(e.line, r.line, `${what}: line`);
      assert.equal(e.column, r.column, `${what}: column`);
      if (r.display !== undefined) assert.equal(e.message, r.display, `${what}: message`);
      assert.equal(e.message, `${r.line}:${r.column}: ${e.reason}`, `${what}: message form`);
      kinds.add(e.kind);
      let text;
      try {
        text = fatal.decode(r.bytes);
      } catch {
        continue; // not UTF-8: no JavaScript string has these bytes
      }
      strings++;
      const s = rejects(lib, () => canonicalize(text, r.options), `${what} (string)`);
      assert.equal(s.kind, r.kind, `${what} (string): kind (${s.message})`);
      assert.equal(s.offset, r.offset, `${what} (string): offset`);
      assert.equal(s.line, r.line, `${what} (string): line`);
      assert.equal(s.column, r.column, `${what} (string): column`);
      assert.equal(s.message, e.message, `${what} (string): message`);
      // The UTF-16 index names the same place as the byte offset.
      assert.equal(Buffer.byteLength(text.slice(0, s.index)), Math.min(r.offset, r.bytes.length), `${what}: index`);
      const h = rejects(lib, () => sha256Hex(text, r.options), `${what} (sha256Hex)`);
      assert.equal(h.kind, r.kind);
    }
    assert.ok(strings > 200, `only ${strings} rows as strings`);
    for (const k of [
      'UnexpectedEof',
      'UnexpectedCharacter',
      'TrailingCharacters',
      'TrailingComma',
      'InvalidUtf8',
      'ByteOrderMark',
      'ControlCharacterInString',
      'InvalidEscape',
      'LoneSurrogate',
      'Noncharacter',
      'InvalidNumber',
      'InvalidLiteral',
      'NumberOutOfRange',
      'NegativeZero',
      'InexactNumber',
      'DuplicateKey',
      'NestingTooDeep',
    ]) {
      assert.ok(kinds.has(k), `no row of errors.tsv produced ${k}`);
    }
  });

  test(`${label}: options`, () => {
    assert.equal(canonicalize('[-0, 9007199254740993, "\uFFFF"]'), '[0,9007199254740992,"\uFFFF"]');
    assert.equal(rejects(lib, () => canonicalize('[-0]', { rejectNegativeZero: true }), '-0').kind, 'NegativeZero');
    assert.equal(
      rejects(lib, () => canonicalize('9007199254740993', { rejectInexact: true }), 'inexact').kind,
      'InexactNumber',
    );
    assert.equal(canonicalize('[0.1, 2.50, 1e300]', { rejectInexact: true }), '[0.1,2.5,1e+300]');
    assert.equal(
      rejects(lib, () => canonicalize('"\uFDD0"', { rejectNoncharacters: true }), 'nonchar').kind,
      'Noncharacter',
    );
    const deep = '['.repeat(10001) + ']'.repeat(10001);
    assert.equal(rejects(lib, () => canonicalize(deep), 'depth').kind, 'NestingTooDeep');
    assert.equal(canonicalize(deep, { maxDepth: 10001 }), deep);
    assert.equal(rejects(lib, () => canonicalize('[[]]', { maxDepth: 1 }), 'depth 1').kind, 'NestingTooDeep');
    // The next call without options is back to the defaults.
    assert.equal(canonicalize('[-0]'), '[0]');
    assert.throws(() => canonicalize('1', { rejectNegativeZeros: true }), TypeError);
    assert.throws(() => canonicalize('1', { maxDepth: -1 }), RangeError);
    assert.throws(() => canonicalize('1', { maxDepth: 1.5 }), RangeError);
    assert.throws(() => canonicalize('1', 'strict'), TypeError);
  });

  test(`${label}: argument types`, () => {
    assert.throws(() => canonicalize(Buffer.from('1')), TypeError);
    assert.throws(() => canonicalize(1), TypeError);
    assert.throws(() => canonicalize(), TypeError);
    assert.throws(() => canonicalizeBytes('1'), TypeError);
    assert.throws(() => sha256Hex(1), TypeError);
    assert.ok(canonicalizeBytes(Buffer.from('[1.0]')) instanceof Uint8Array);
  });

  test(`${label}: lone surrogates in JavaScript strings`, () => {
    const cases = [
      // [text, kind, line, column, index]
      ['"\uD800"', 'LoneSurrogate', 1, 2, 1],
      ['"\uDC00"', 'LoneSurrogate', 1, 2, 1],
      ['"a\uDC00\uD800b"', 'LoneSurrogate', 1, 3, 2], // a reversed pair: both unpaired
      ['"\uD83D\uDE02\uD83D"', 'LoneSurrogate', 1, 3, 3], // after a valid pair (one character)
      ['{"\uD800": 1}', 'LoneSurrogate', 1, 3, 2], // in a member name
      ['[1,\n 2,\n "x\uDBFF"]', 'LoneSurrogate', 3, 4, 11],
      ['\uD800', 'LoneSurrogate', 1, 1, 0], // outside any string
      ['"abc', 'UnexpectedEof', 1, 5, 4], // (control: a plain error)
      // The first error in document order wins, as in the core.
      ['[1,]\uD800', 'TrailingComma', 1, 3, 2],
      ['{"a":1,"a":2, "\uD800":3}', 'DuplicateKey', 1, 8, 7],
      ['["\u0001", "\uD800"]', 'ControlCharacterInString', 1, 3, 2],
    ];
    for (const [text, kind, line, column, index] of cases) {
      const what = JSON.stringify(text);
      for (const fn of [canonicalize, sha256Hex]) {
        const e = rejects(lib, () => fn(text), what);
        assert.equal(e.kind, kind, `${what}: ${e.message}`);
        assert.equal(e.line, line, `${what}: line`);
        assert.equal(e.column, column, `${what}: column`);
        assert.equal(e.index, index, `${what}: index`);
        assert.equal(e.offset, Buffer.byteLength(text.slice(0, index)), `${what}: offset`);
        if (kind === 'LoneSurrogate') {
          const unit = text.charCodeAt(index).toString(16).toUpperCase();
          assert.equal(e.reason, `unpaired surrogate U+${unit}`);
          assert.equal(e.message, `${line}:${column}: unpaired surrogate U+${unit}`);
        }
      }
    }
    // A real U+FFFD (what encodeInto makes of an unpaired surrogate) is just a character;
    // next to an unpaired surrogate, the surrogate is found.
    assert.equal(canonicalize('["\uFFFD", "\\ufffd"]'), '["\uFFFD","\uFFFD"]');
    assert.equal(rejects(lib, () => canonicalize('["\uFFFD", "\uD800"]'), 'fffd').index, 7);
    assert.equal(rejects(lib, () => canonicalize('["\uD800", "\uFFFD"]'), 'fffd').index, 2);
    // Escaped lone surrogates are the core's error; escaped pairs and raw pairs are fine.
    assert.equal(rejects(lib, () => canonicalize('"\\ud800"'), 'escaped').kind, 'LoneSurrogate');
    assert.equal(canonicalize('"\\ud83d\\ude02 \uD83D\uDE02"'), '"\uD83D\uDE02 \uD83D\uDE02"');
    // The same rule for values: strings and member names.
    const v = rejects(lib, () => canonicalizeValue({ a: ['ok', 'x\uD800'] }), 'value');
    assert.equal(v.kind, 'LoneSurrogate');
    assert.equal(v.pointer, '/a/1');
    assert.equal(v.line, undefined);
    const k = rejects(lib, () => canonicalizeValue({ '\uDFFF': 1 }), 'key');
    assert.equal(k.kind, 'LoneSurrogate');
    assert.equal(k.pointer, '/\uDFFF');
  });

  test(`${label}: member order is by UTF-16 code units`, () => {
    // U+1F602 (surrogates D83D DE02) sorts before U+FB33; by code points it would be after.
    const text = '{"\uFB33":1,"\uD83D\uDE02":2,"\u00E9":3,"a":4,"":5}';
    const want = '{"":5,"a":4,"\u00E9":3,"\uD83D\uDE02":2,"\uFB33":1}';
    assert.equal(canonicalize(text), want);
    assert.equal(canonicalizeValue(JSON.parse(text)), want);
  });

  test(`${label}: canonicalizeValue`, () => {
    assert.equal(
      canonicalizeValue({ b: [1.0, 1e21, 1e-7, -0, 0.1 + 0.2], a: 'é\n"' }),
      '{"a":"é\\n\\"","b":[1,1e+21,1e-7,0,0.30000000000000004]}',
    );
    assert.equal(canonicalizeValue(null), 'null');
    assert.equal(canonicalizeValue('x'), '"x"');
    assert.equal(canonicalizeValue(true), 'true');
    assert.equal(canonicalizeValue([]), '[]');
    // undefined: members omitted, array elements null (as JSON.stringify); not at the top.
    assert.equal(canonicalizeValue({ a: undefined, b: [undefined, 1], c: 2 }), '{"b":[null,1],"c":2}');
    // biome-ignore lint/suspicious/noSparseArray: a hole must canonicalize as null, as in JSON.stringify
    assert.equal(canonicalizeValue([1, , 3]), '[1,null,3]');
    assert.equal(rejects(lib, () => canonicalizeValue(undefined), 'undefined').kind, 'UnsupportedType');
    // toJSON, with the key as JSON.stringify passes it; Date; boxed primitives.
    const seen = [];
    const t = {
      toJSON(key) {
        seen.push(key);
        return { z: 1, y: [key] };
      },
    };
    assert.equal(canonicalizeValue({ k: t, arr: [t] }), '{"arr":[{"y":["0"],"z":1}],"k":{"y":["k"],"z":1}}');
    assert.deepEqual(seen, ['0', 'k']);
    assert.equal(canonicalizeValue(new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 6))), '"2020-01-02T03:04:05.006Z"');
    assert.equal(canonicalizeValue({ d: { toJSON: () => undefined }, e: 1 }), '{"e":1}');
    assert.equal(canonicalizeValue([Object(1), Object('s'), Object(false)]), '[1,"s",false]');
    // Only own enumerable string keys; symbol keys are ignored like JSON.stringify does.
    const proto = { inherited: 1 };
    const o = Object.create(proto);
    o.own = 2;
    Object.defineProperty(o, 'hidden', { value: 3, enumerable: false });
    o[Symbol('s')] = 4;
    assert.equal(canonicalizeValue(o), '{"own":2}');
    // What has no JSON form throws, with a pointer.
    const bad = [
      [{ a: [1, NaN] }, 'NonFiniteNumber', '/a/1'],
      [{ a: Infinity }, 'NonFiniteNumber', '/a'],
      [[-Infinity], 'NonFiniteNumber', '/0'],
      [{ n: 10n }, 'UnsupportedType', '/n'],
      [[Object(10n)], 'UnsupportedType', '/0'],
      [{ f() {} }, 'UnsupportedType', '/f'],
      [[() => 1], 'UnsupportedType', '/0'],
      [{ s: Symbol('x') }, 'UnsupportedType', '/s'],
      [[Symbol('x')], 'UnsupportedType', '/0'],
      [{ m: new Map([[1, 2]]) }, 'UnsupportedType', '/m'],
      [{ s: new Set([1]) }, 'UnsupportedType', '/s'],
      [{ 'a/b~c': [NaN] }, 'NonFiniteNumber', '/a~1b~0c/0'],
      [NaN, 'NonFiniteNumber', ''],
    ];
    for (const [value, kind, pointer] of bad) {
      const e = rejects(lib, () => canonicalizeValue(value), `${kind} at ${pointer}`);
      assert.equal(e.kind, kind, e.message);
      assert.equal(e.pointer, pointer, e.message);
      assert.equal(e.message, `at ${JSON.stringify(pointer)}: ${e.reason}`);
    }
    // Cycles throw; the same object twice (not a cycle) does not.
    const cyc = { a: [] };
    cyc.a.push({ back: cyc });
    const c = rejects(lib, () => canonicalizeValue(cyc), 'cycle');
    assert.equal(c.kind, 'Cycle');
    assert.equal(c.pointer, '/a/0/back');
    const shared = { x: 1 };
    assert.equal(canonicalizeValue([shared, { y: shared }]), '[{"x":1},{"y":{"x":1}}]');
    // Options.
    assert.equal(rejects(lib, () => canonicalizeValue([0, -0], { rejectNegativeZero: true }), '-0').pointer, '/1');
    assert.equal(
      rejects(lib, () => canonicalizeValue({ k: '\uFFFE' }, { rejectNoncharacters: true }), 'nc').kind,
      'Noncharacter',
    );
    assert.equal(
      rejects(lib, () => canonicalizeValue({ '\uD83F\uDFFF': 1 }, { rejectNoncharacters: true }), 'nc key').kind,
      'Noncharacter',
    );
    assert.equal(canonicalizeValue({ k: '\uFFFE' }), '{"k":"\uFFFE"}');
    // Deep values: an explicit stack, no recursion; the limit as for text.
    let deep = [];
    for (let i = 0; i < 9999; i++) deep = [deep];
    assert.equal(canonicalizeValue(deep), '['.repeat(10000) + ']'.repeat(10000));
    deep = [deep];
    assert.equal(rejects(lib, () => canonicalizeValue(deep), 'deep').kind, 'NestingTooDeep');
    let deeper = deep;
    for (let i = 0; i < 100000; i++) deeper = { a: deeper };
    assert.equal(canonicalizeValue(deeper, { maxDepth: 200000 }).length, 2 * 10001 + 100000 * 6);
  });

  test(`${label}: values and bytes from another realm (vm context, iframe, test runner)`, () => {
    const vm = require('node:vm');
    const other = (src) => vm.runInNewContext(src);
    // Boxed primitives are unwrapped as JSON.stringify does; before, they were taken for
    // plain objects ({} and {"0":"s"}).
    const boxed = other('[new Number(5), new String("s"), new Boolean(false), {a: new Number(-0)}, [new String("é")]]');
    assert.equal(canonicalizeValue(boxed), '[5,"s",false,{"a":0},["é"]]');
    assert.equal(canonicalizeValue(boxed), canonicalizeValue(JSON.parse(JSON.stringify(boxed))));
    // ToNumber / ToString as JSON.stringify: overridden valueOf / toString count.
    const n = other('Object.assign(new Number(3), { valueOf: () => 7 })');
    const s = other('Object.assign(new String("a"), { toString: () => "t", valueOf: () => "v" })');
    assert.equal(canonicalizeValue([n, s]), JSON.stringify([n, s]));
    // What throws here throws from any realm.
    for (const [src, kind, pointer] of [
      ['({ m: new Map([[1, 2]]) })', 'UnsupportedType', '/m'],
      ['[new Set()]', 'UnsupportedType', '/0'],
      ['[Object(1n)]', 'UnsupportedType', '/0'],
    ]) {
      const e = rejects(lib, () => canonicalizeValue(other(src)), src);
      assert.equal(e.kind, kind, src);
      assert.equal(e.pointer, pointer, src);
    }
    // A tag alone does not make a boxed primitive or a Map.
    assert.equal(canonicalizeValue({ [Symbol.toStringTag]: 'Number', a: 1 }), '{"a":1}');
    assert.equal(canonicalizeValue(other('({ [Symbol.toStringTag]: "Map", a: 1 })')), '{"a":1}');
    assert.equal(
      canonicalizeValue(other('[new Date(0), [1, , 3], new Uint8Array([1, 2])]')),
      '["1970-01-01T00:00:00.000Z",[1,null,3],{"0":1,"1":2}]',
    );
    // Bytes: another realm's Uint8Array and ArrayBuffer are accepted like this realm's.
    const u8 = other(
      'new Uint8Array([0x7b, 0x22, 0x62, 0x22, 0x3a, 0x31, 0x2e, 0x30, 0x2c, 0x22, 0x61, 0x22, 0x3a, 0x32, 0x7d])',
    );
    assert.equal(Buffer.from(canonicalizeBytes(u8)).toString(), '{"a":2,"b":1}');
    assert.equal(Buffer.from(canonicalizeBytes(u8.buffer)).toString(), '{"a":2,"b":1}');
    assert.equal(sha256Hex(u8), sha256Hex('{"a":2,"b":1}'));
    // Other views are still refused, from any realm.
    assert.throws(() => canonicalizeBytes(other('new Uint16Array(2)')), TypeError);
    assert.throws(() => canonicalizeBytes({ byteLength: 2, buffer: u8.buffer }), TypeError);
  });

  test(`${label}: agrees with JSON.parse + canonicalizeValue on generated documents`, () => {
    const dir = process.env.EQUIJSON_DOCS;
    assert.ok(dir, 'EQUIJSON_DOCS must name the generated documents');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
    assert.ok(files.length >= 100);
    let compared = 0;
    for (const f of files) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      const canon = canonicalize(text);
      // JSON.parse keeps the last of duplicate names (generated documents have none) and
      // reads numbers as doubles, as RFC 8785 does: the same canonical form.
      assert.equal(canonicalizeValue(JSON.parse(text)), canon, f);
      assert.equal(canonicalize(canon), canon, `${f}: idempotent`);
      compared++;
    }
    assert.equal(compared, files.length);
  });

  test(`${label}: escapes, non-ASCII and string errors at every offset; repeated shapes`, () => {
    const { stringDocs, stringErrors, shapeDocs } = require('./strings.cjs');
    let n = 0;
    for (const text of [...stringDocs(), ...shapeDocs()]) {
      const want = canonicalizeValue(JSON.parse(text));
      assert.equal(canonicalize(text), want, text);
      assert.equal(Buffer.from(canonicalizeBytes(Buffer.from(text))).toString('utf8'), want, text);
      n++;
    }
    assert.ok(n > 30000, `${n} documents`);
    for (const { text, index, kind } of stringErrors()) {
      assert.throws(
        () => canonicalize(text),
        (e) => e.kind === kind && e.index === index,
        JSON.stringify(text),
      );
    }
  });

  test(`${label}: large documents and buffer reuse`, () => {
    const big = JSON.stringify(
      Array.from({ length: 20000 }, (_, i) => ({ [`k${i % 7}`]: 'é\uD83D\uDE02'.repeat(i % 5), i })),
    );
    const want = canonicalizeValue(JSON.parse(big));
    assert.equal(canonicalize(big), want);
    assert.equal(canonicalize('[1]'), '[1]'); // a short one after a long one
    lib.releaseMemory();
    assert.equal(canonicalize(big), want);
    assert.equal(Buffer.from(canonicalizeBytes(Buffer.from(big))).toString('utf8'), want);
  });
};
