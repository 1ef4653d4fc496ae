// equijson_canonical(jsonb) on PostgreSQL 18 in WebAssembly (PGlite), in Node.
//
// Oracles: the edge-case table tests/data/sql-canonical.tsv (checked against the Rust core by
// crates/equijson-pg/tests/sql_canonical.rs), the RFC 8785 vectors' published outputs, and
// the JS engine's own Number.prototype.toString over the ECMAScript number KAT stream.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const KAT_DOUBLES = Number(process.env.KAT_DOUBLES ?? 20000);
let failures = 0;
const fail = (msg) => {
  failures += 1;
  if (failures <= 10) console.error(`FAIL ${msg}`);
};

const db = new PGlite();
const version = (await db.query('select version() as v')).rows[0].v;
console.log(`server: ${version}`);
await db.exec(readFileSync(join(root, 'crates/equijson-pg/sql/equijson_canonical.sql'), 'utf8'));
// Installing twice replaces the functions (install-sql is idempotent).
await db.exec(readFileSync(join(root, 'crates/equijson-pg/sql/equijson_canonical.sql'), 'utf8'));

async function canon(text) {
  try {
    const r = await db.query('select public.equijson_canonical($1::text::jsonb) as c', [text]);
    return r.rows[0].c;
  } catch (e) {
    return `!${e.code}`;
  }
}

// 1. The edge-case table.
const table = readFileSync(join(root, 'tests/data/sql-canonical.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => l.split('\t'));
for (const [name, input, expected] of table) {
  const got = await canon(input);
  if (got !== expected)
    fail(`table ${name}: got ${JSON.stringify(got).slice(0, 200)} want ${JSON.stringify(expected).slice(0, 200)}`);
}
console.log(`edge-case table: ${table.length} rows`);

// 2. RFC 8785 vectors.
const jcs = join(root, 'tests/data/jcs');
const names = readdirSync(join(jcs, 'input')).sort();
for (const n of names) {
  const got = await canon(readFileSync(join(jcs, 'input', n), 'utf8'));
  const want = readFileSync(join(jcs, 'output', n), 'utf8');
  if (got !== want) fail(`vector ${n}`);
}
console.log(`RFC 8785 vectors: ${names.length}`);

// 3. The KAT stream, expected = this JS engine's Number.prototype.toString.
function* kat() {
  const statics = readFileSync(join(jcs, 'numgen-static-u64.txt'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((h) => BigInt(`0x${h}`));
  yield* statics;
  for (let i = 0n; i < 2000n; i += 1n) yield 0x0010000000000000n + i;
  let block = Buffer.alloc(32);
  for (;;) {
    block = createHash('sha256').update(block).digest();
    for (let i = 0; i < 4; i += 1) yield block.readBigUInt64LE(i * 8);
  }
}
const view = new DataView(new ArrayBuffer(8));
const doubles = [];
for (const bits of kat()) {
  if (doubles.length >= KAT_DOUBLES) break;
  view.setBigUint64(0, bits);
  const f = view.getFloat64(0);
  if (Number.isFinite(f) && f !== 0) doubles.push(f);
}
// Zeros of the static list are finite: the KAT writes them too.
// 500 doubles per array take the split path (hundreds of changed numbers), 16 per array the
// padding path (at most 32 changed numbers).
for (const per of [500, 16]) {
  for (let i = 0; i < doubles.length; i += per) {
    const chunk = doubles.slice(i, i + per);
    const input = `[${chunk.map((f) => `${String(f)},${f.toPrecision(17)}`).join(',')}]`;
    const want = `[${chunk.map((f) => `${String(f)},${String(f)}`).join(',')}]`;
    const got = await canon(input);
    if (got !== want) {
      const g = got.slice(1, -1).split(',');
      const w = want.slice(1, -1).split(',');
      const k = g.findIndex((x, j) => x !== w[j]);
      fail(`KAT (${per} per array) near double ${i}: got ${g[k]} want ${w[k]}`);
    }
  }
}
console.log(
  `number KAT: ${doubles.length} doubles, two spellings each, 500 and 16 per array, against Number.prototype.toString`,
);

await db.close();
if (failures > 0) {
  console.error(`${failures} failures`);
  process.exit(1);
}
console.log('ok: equijson_canonical agrees on PGlite');
