// `--reject-inexact --reject-negative-zero` against exact BigInt decimal arithmetic, and the
// default output against the JavaScript engine's Number#toString, on seeded number texts.
// Usage: node scripts/differential/inexact.mjs SEED COUNT [BIN]

import { spawnSync } from 'node:child_process';
import { unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

const seed0 = Number(process.argv[2] ?? 1),
  N = Number(process.argv[3] ?? 20000);
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
function randDouble() {
  const b = new DataView(new ArrayBuffer(8));
  b.setUint32(0, Math.floor(rnd() * 2 ** 32));
  b.setUint32(4, Math.floor(rnd() * 2 ** 32));
  return b.getFloat64(0);
}
function exactDecimal(x) {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  let e = Number((bits >> 52n) & 0x7ffn);
  let m = bits & ((1n << 52n) - 1n);
  if (e === 0) e = 1;
  else m |= 1n << 52n;
  e -= 1075;
  if (e >= 0) return (m << BigInt(e)).toString();
  return `${(m * 5n ** BigInt(-e)).toString()}e-${-e}`;
}
function number() {
  const sign = rnd() < 0.3 ? '-' : '';
  switch (ri(9)) {
    case 0: {
      const x = randDouble();
      return Number.isFinite(x) ? String(x) : '1';
    }
    case 1: {
      const x = Math.abs(randDouble());
      return Number.isFinite(x) && x ? sign + exactDecimal(x) : '2';
    }
    case 2:
      return (
        sign +
        digits(1 + ri(25), true) +
        (rnd() < 0.5 ? `.${digits(1 + ri(25))}` : '') +
        (rnd() < 0.6 ? pick(['e', 'E']) + pick(['', '+', '-']) + ri(340) : '')
      );
    case 3:
      return (
        sign +
        '0.' +
        '0'.repeat(ri(30)) +
        digits(1 + ri(20), true) +
        '0'.repeat(ri(5)) +
        (rnd() < 0.5 ? `e${pick(['', '+', '-'])}${ri(400)}` : '')
      );
    case 4:
      return (
        sign +
        pick([
          '0',
          '0.0',
          '0e5',
          '0.000e-7',
          '1e-400',
          '5e-325',
          '1e-324',
          '2e-324',
          '3e-324',
          '1e23',
          '99999999999999991611392',
          '9007199254740993',
          '9007199254740992',
          '1.000000000000000000000000001e2',
          '0.1',
          '2.50',
          '1e300',
          '123456789012345678901234567890',
          '1e21',
          '100000000000000000000000',
          '1.7976931348623157e308',
          '5e-324',
          '4.9406564584124654e-324',
          '0.30000000000000004',
          '0.3000000000000000444',
          `1${'0'.repeat(30)}e-30`,
        ])
      );
    case 5: {
      const x = randDouble();
      return Number.isFinite(x) ? x.toExponential(ri(21)) : '3';
    }
    case 6: {
      const x = randDouble();
      return Number.isFinite(x) ? x.toPrecision(1 + ri(21)) : '4';
    }
    case 7:
      return sign + digits(1 + ri(17), true) + '0'.repeat(ri(30)) + (rnd() < 0.5 ? `e${ri(60) - 30}` : '');
    default: {
      const x = randDouble();
      if (!Number.isFinite(x)) return '5';
      const t = String(x);
      return t.includes('e')
        ? t.replace('e', `${'0'.repeat(ri(4))}e`)
        : t + (t.includes('.') ? '' : '.') + '0'.repeat(1 + ri(3));
    }
  }
}
// exact decimal value as [sign, BigInt mantissa, exponent] normalized
function dec(t) {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(t);
  if (!m) throw new Error(`bad ${t}`);
  let mant = BigInt(m[2] + (m[3] ?? ''));
  let e = BigInt(m[4] ?? 0) - BigInt((m[3] ?? '').length);
  if (mant === 0n) return '0';
  while (mant % 10n === 0n) {
    mant /= 10n;
    e += 1n;
  }
  return `${m[1]}${mant}e${e}`;
}
const cases = [];
for (let i = 0; i < N; i++) cases.push(number().replace(/^(-?)\./, '$10.'));
const file = `${tmpdir()}/equijson-num-${process.pid}-${seed0}.jsonl`;
writeFileSync(file, `${cases.join('\n')}\n`);
function run(args) {
  const r = spawnSync(bin, ['canon', '--lines', '--keep-going', ...args, file], { maxBuffer: 1 << 30 });
  const errs = new Map();
  for (const line of r.stderr.toString().split('\n')) {
    const m = /^[^:]+:(\d+):(\d+): error: (.*)$/s.exec(line);
    if (m) errs.set(Number(m[1]) - 1, m[3]);
  }
  const outs = r.stdout.toString().split('\n');
  outs.pop();
  let oi = 0;
  return cases.map((_, i) => (errs.has(i) ? { err: errs.get(i) } : { out: outs[oi++] }));
}
const plain = run([]),
  strict = run(['--reject-inexact', '--reject-negative-zero']);
unlinkSync(file);
let bad = 0,
  rej = 0,
  nz = 0;
for (let i = 0; i < N; i++) {
  const t = cases[i],
    p = plain[i],
    q = strict[i];
  const js = JSON.parse(t);
  const jsOut = Number.isFinite(js) ? JSON.stringify(js) : null;
  if (jsOut === null) {
    if (!p.err || !/range/.test(p.err)) {
      bad++;
      console.log('overflow?', t, p);
    }
    continue;
  }
  if (p.err || p.out !== jsOut) {
    bad++;
    console.log('DIFFER', t, p, jsOut);
    continue;
  }
  const negZero = t.startsWith('-') && jsOut === '0';
  const exact =
    dec(t) === dec(jsOut) || (dec(t) === '0' && jsOut === '0') || (t.startsWith('-') && dec(t.slice(1)) === '0');
  if (negZero) {
    nz++;
    if (!q.err || !/negative zero|inexact/.test(q.err)) {
      bad++;
      console.log('NEGZERO not rejected', t, q);
    }
    continue;
  }
  if (exact) {
    if (q.err || q.out !== jsOut) {
      bad++;
      console.log('EXACT rejected', t, q, dec(t), dec(jsOut));
    }
  } else {
    rej++;
    if (!q.err || !/inexact/.test(q.err)) {
      bad++;
      console.log('INEXACT accepted', t, q, dec(t), dec(jsOut));
    }
  }
}
console.log(`seed ${seed0}: ${N} numbers, inexact ${rej}, negzero ${nz}, BAD ${bad}`);
process.exitCode = bad === 0 ? 0 : 1;
