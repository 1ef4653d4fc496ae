// Differential run of `equijson canon --lines --keep-going` against the JavaScript engine
// (JSON.parse + the JCS writer of web/src/jscanon.js): seeded documents rich in hard numbers
// (exact expansions of doubles, near-halfway decimals, huge exponents), escapes, surrogates
// and duplicate names, a quarter of them damaged. Every input must agree, be invalid for
// both, or be rejected by equijson for a policy the input really has (duplicate name,
// unpaired surrogate, overflow). Usage: node scripts/differential/canon.mjs SEED COUNT [BIN]

import { spawnSync } from 'node:child_process';
import { unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { jsCanonicalize } from '../../web/src/jscanon.js';

const seed0 = Number(process.argv[2] ?? 1);
const N = Number(process.argv[3] ?? 20000);
const bin = process.argv[4] ?? new URL('../../target/release/equijson', import.meta.url).pathname;
let s = (BigInt(seed0) * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
function rnd() {
  s ^= s << 13n;
  s &= 0xffffffffffffffffn;
  s ^= s >> 7n;
  s ^= s << 17n;
  s &= 0xffffffffffffffffn;
  return Number(s & 0xffffffffn) / 4294967296;
}
const ri = (n) => Math.floor(rnd() * n);
const pick = (a) => a[ri(a.length)];
const digits = (n, lead = false) => {
  let t = '';
  for (let i = 0; i < n; i++) t += String(i === 0 && lead ? 1 + ri(9) : ri(10));
  return t;
};

function exactDecimal(x) {
  // exact decimal expansion of a finite positive double, as digits + exponent text
  // use BigInt: x = m * 2^e
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  let e = Number((bits >> 52n) & 0x7ffn);
  let m = bits & ((1n << 52n) - 1n);
  if (e === 0) e = 1;
  else m |= 1n << 52n;
  e -= 1075;
  if (e >= 0) return (m << BigInt(e)).toString();
  // m / 2^-e = m*5^-e / 10^-e
  const num = (m * 5n ** BigInt(-e)).toString();
  return `${num}e-${-e}`;
}
function randDouble() {
  const b = new DataView(new ArrayBuffer(8));
  b.setUint32(0, Math.floor(rnd() * 2 ** 32));
  b.setUint32(4, Math.floor(rnd() * 2 ** 32));
  return b.getFloat64(0);
}
function number() {
  switch (ri(12)) {
    case 0:
      return String(ri(1e6) - 5e5);
    case 1: {
      const x = randDouble();
      return Number.isFinite(x) ? String(x) : '0';
    }
    case 2: {
      const x = Math.abs(randDouble());
      if (!Number.isFinite(x) || x === 0) return '1';
      const d = exactDecimal(x);
      return rnd() < 0.5 ? d : d.replace(/^(\d)/, '$1.').replace(/e-(\d+)$/, (_m, k) => `e-${Number(k)}`);
    }
    case 3: {
      // halfway-ish: exact decimal of midpoint between x and next
      const x = Math.abs(randDouble());
      if (!Number.isFinite(x) || x === 0) return '2';
      const d = exactDecimal(x);
      const tweak = pick([
        '5',
        '49999999999',
        '50000000001',
        '5000000000000000000000000000000001',
        '4999999999999999999999999999999',
      ]);
      const [mant, ex] = d.split('e');
      return mant + tweak + (ex ? `e${Number(ex) - tweak.length}` : `e-${tweak.length}`);
    }
    case 4:
      return (
        (rnd() < 0.3 ? '-' : '') +
        digits(1 + ri(40), true) +
        (rnd() < 0.5 ? `.${digits(1 + ri(40))}` : '') +
        (rnd() < 0.6 ? pick(['e', 'E']) + pick(['', '+', '-']) + String(ri(400)) : '')
      );
    case 5:
      return (
        (rnd() < 0.3 ? '-' : '') +
        '0.' +
        '0'.repeat(ri(400)) +
        digits(1 + ri(30), true) +
        (rnd() < 0.5 ? `e${pick(['', '+', '-'])}${ri(700)}` : '')
      );
    case 6:
      return digits(1 + ri(30), true) + '0'.repeat(ri(400)) + (rnd() < 0.5 ? `e-${ri(800)}` : '');
    case 7:
      return pick([
        '0',
        '-0',
        '0.0',
        '-0.0',
        '0e5',
        '-0e-5',
        '0E+0',
        '1e21',
        '1e-7',
        '1e-6',
        '5e-324',
        '4.9e-324',
        '2.4703282292062327e-324',
        '2.4703282292062328e-324',
        '1.7976931348623157e308',
        '1.7976931348623158e308',
        '1.7976931348623159e308',
        '9007199254740993',
        '1e400',
        '-1e400',
        '1e-400',
        '1.000000000000000000000000001e2',
        '0.1',
        '123e-20',
        '1e0000000000000000000001',
        '1e-0000000000000000000001',
        '100000000000000000000',
        '1000000000000000000000',
        '999999999999999999999',
        '0.000001',
        '0.0000001',
        '0.00000099999999999999999999',
      ]);
    case 8: {
      const x = randDouble();
      if (!Number.isFinite(x)) return '3';
      return x.toExponential(ri(21));
    }
    case 9: {
      const x = randDouble();
      if (!Number.isFinite(x)) return '4';
      return x.toPrecision(1 + ri(21)).replace(/^(-?)\./, '$10.');
    }
    case 10: {
      const m = digits(1 + ri(25), true);
      const e = ri(660) - 340;
      return `${m}e${e}`;
    }
    default:
      return `${(rnd() < 0.5 ? '-' : '') + digits(1 + ri(3), true)}.${digits(ri(20))}1e${ri(50) - 25}`;
  }
}
const CH = [
  'a',
  'b',
  'z',
  'A',
  '0',
  ' ',
  '"',
  '\\',
  '/',
  '\b',
  '\f',
  '\n',
  '\r',
  '\t',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u0080',
  'é',
  '\u07ff',
  '\u0800',
  '\u2028',
  '\u2029',
  '中',
  '\ud7ff',
  '\ue000',
  '\ufb33',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '\ufdd0',
  '\u{10000}',
  '\u{1f602}',
  '\u{10ffff}',
  '\ud800',
  '\udfff',
  '\udbff\udc00',
];
function str() {
  let t = '';
  const n = ri(8);
  for (let i = 0; i < n; i++) t += pick(CH);
  return t;
}
function renderStr(t) {
  let o = '"';
  for (const u of Array.from({ length: t.length }, (_, i) => t.charCodeAt(i))) {
    const c = String.fromCharCode(u);
    const esc = `\\u${u.toString(16).padStart(4, rnd() < 0.5 ? '0' : '0')}`;
    const escU = rnd() < 0.5 ? esc : esc.toUpperCase().replace('\\U', '\\u');
    if (u < 0x20 || c === '"' || c === '\\') {
      const named = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' }[c];
      o += named && rnd() < 0.6 ? named : escU;
    } else if (u >= 0xd800 && u <= 0xdfff) {
      o += escU; // surrogates always escaped (raw would not be valid UTF-8)
    } else if (c === '/' && rnd() < 0.3) o += '\\/';
    else o += rnd() < 0.2 ? escU : c;
  }
  return `${o}"`;
}
const WS = ['', '', '', ' ', '\t', '\r', '  '];
function val(d) {
  const k = ri(d > 3 ? 4 : 7);
  if (k === 0) return number();
  if (k === 1) return renderStr(str());
  if (k === 2) return pick(['true', 'false', 'null']);
  if (k === 3) return number();
  if (k === 4) {
    const n = ri(4);
    const a = [];
    for (let i = 0; i < n; i++) a.push(pick(WS) + val(d + 1) + pick(WS));
    return `[${a.join(',')}]`;
  }
  const n = ri(6);
  const m = [];
  const keys = [];
  for (let i = 0; i < n; i++) {
    const key = rnd() < 0.1 && keys.length ? pick(keys) : str();
    keys.push(key);
    m.push(`${pick(WS) + renderStr(key) + pick(WS)}:${pick(WS)}${val(d + 1)}`);
  }
  return `{${m.join(',')}}`;
}
function mutate(t) {
  const ops = ri(3);
  for (let i = 0; i < ops; i++) {
    const p = ri(t.length + 1);
    switch (ri(6)) {
      case 0:
        t = t.slice(0, p) + t.slice(p + 1);
        break;
      case 1:
        t =
          t.slice(0, p) +
          pick([
            '{',
            '}',
            '[',
            ']',
            ',',
            ':',
            '"',
            '\\',
            '-',
            '.',
            'e',
            '0',
            '+',
            ' ',
            '\f',
            '\v',
            '\u00a0',
            'x',
            'u',
            '/',
            '\\u',
            '\ud800',
          ]) +
          t.slice(p);
        break;
      case 2:
        t = t.slice(0, p) + t.slice(p, p + ri(5)).repeat(2) + t.slice(p + ri(5));
        break;
      default:
        break;
    }
  }
  return t;
}
function scanFlags(text) {
  // text is valid JSON: tokens are unambiguous.
  const f = { dup: false, lone: false, overflow: false };
  const re = /"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|[{}[\]:,]|true|false|null|\s+/gy;
  const stack = [];
  let prevStr = null;
  for (const m of text.matchAll(re)) {
    const t = m[0];
    if (t === '{') stack.push(new Set());
    else if (t === '[') stack.push(null);
    else if (t === '}' || t === ']') stack.pop();
    else if (t === ':') {
      const set = stack[stack.length - 1];
      if (set.has(prevStr)) f.dup = true;
      set.add(prevStr);
    } else if (t[0] === '"') {
      const s = JSON.parse(t);
      if (!s.isWellFormed()) f.lone = true;
      prevStr = s;
    } else if (/^-?\d/.test(t)) {
      if (!Number.isFinite(Number(t))) f.overflow = true;
    }
  }
  return f;
}
const cases = [];
for (let i = 0; i < N; i++) {
  let t = rnd() < 0.5 ? number() : val(0);
  if (rnd() < 0.25) t = mutate(t);
  if (rnd() < 0.2) t = pick(WS) + t + pick(WS);
  t = t.replace(/\n/g, ' ');
  cases.push(t);
}
const file = `${tmpdir()}/equijson-diff-${process.pid}-${seed0}.jsonl`;
// lone surrogates cannot be encoded raw in UTF-8 by Buffer (they become EF BF BD); those cases
// then test U+FFFD, which is fine as JS sees the same after re-decoding. Keep JS's view consistent:
const bytes = cases.map((c) => Buffer.from(c, 'utf8'));
const seen = bytes.map((b) => b.toString('utf8'));
writeFileSync(file, Buffer.concat(bytes.flatMap((b) => [b, Buffer.from('\n')])));
const r = spawnSync(bin, ['canon', '--lines', '--keep-going', file], { maxBuffer: 1 << 30 });
unlinkSync(file);
const errs = new Map();
for (const line of r.stderr.toString().split('\n')) {
  const m = /^[^:]+:(\d+):(\d+): error: (.*)$/s.exec(line);
  if (m) errs.set(Number(m[1]) - 1, { col: Number(m[2]), msg: m[3] });
  else if (line.trim()) console.log('STDERR?', line);
}
const outs = r.stdout.toString('utf8').split('\n');
outs.pop();
let oi = 0,
  bad = 0,
  agree = 0,
  pol = 0,
  bothErr = 0;
for (let i = 0; i < N; i++) {
  const text = seen[i];
  let js;
  try {
    js = jsCanonicalize(text);
  } catch (e) {
    js = { syntax: e.message };
  }
  const ours = errs.has(i) ? { err: errs.get(i) } : { out: outs[oi++] };
  if (js.syntax) {
    if (!ours.err) {
      bad++;
      console.log('ACCEPTED invalid', i, JSON.stringify(text), '->', ours.out, js.syntax);
    } else bothErr++;
    continue;
  }
  if (ours.err) {
    const msg = ours.err.msg;
    const f = scanFlags(text);
    const ok =
      (f.dup && /duplicate/.test(msg)) ||
      (f.lone && /surrogate/.test(msg)) ||
      (f.overflow && /range|overflow|Infinity/i.test(msg));
    if (ok) pol++;
    else {
      bad++;
      console.log('REJECTED valid', i, JSON.stringify(text), msg, JSON.stringify(js));
    }
    continue;
  }
  if (js.canonical === null || js.loneSurrogate) {
    bad++;
    console.log('ACCEPTED policy case', i, JSON.stringify(text), ours.out, JSON.stringify(js));
    continue;
  }
  if (js.canonical !== ours.out) {
    bad++;
    console.log(
      'DIFFER',
      i,
      JSON.stringify(text),
      '\n ours',
      JSON.stringify(ours.out),
      '\n js  ',
      JSON.stringify(js.canonical),
    );
  } else agree++;
}
console.log(`seed ${seed0}: ${N} cases, agree ${agree}, both-invalid ${bothErr}, policy ${pol}, BAD ${bad}`);
process.exitCode = bad === 0 ? 0 : 1;
