// Web Worker: a real PostgreSQL (PGlite, compiled to WebAssembly) as the jsonb oracle.
// Each generated case is inserted as jsonb and read back as text; the equijson core's jsonb
// model predicts that text (or the server's error) without a server.

import { PGlite } from './pglite/index.js';
import init, { caseTexts, jsonbResult } from './pkg/equijson_page.js';
import { serveRuns } from './runs.js';

const ready = init();
let db = null;
let opening = null;
const { post, tick, current } = serveRuns(run, 'pg-error');

async function open(id) {
  if (db) return db;
  if (!opening) {
    opening = (async () => {
      const t0 = performance.now();
      post(id, { type: 'progress', phase: 'pg-boot', done: 0, total: 1 });
      const pg = await PGlite.create();
      const v = await pg.query("select version() as v, current_setting('server_version') as sv");
      post(id, {
        type: 'pg-ready',
        version: v.rows[0].v,
        serverVersion: v.rows[0].sv,
        bootMillis: Math.round(performance.now() - t0),
      });
      db = pg;
      return pg;
    })();
  }
  return opening;
}

async function run(id, { seed, cases, dto, size }) {
  await ready;
  const pg = await open(id);
  if (!current(id)) return;
  // One table per run, so a stopped run's last insert cannot land in the next run's table.
  const table = `cases_${id}`;
  await pg.exec(`drop table if exists ${table}; create table ${table} (i int primary key, doc jsonb)`);
  const out = { agree: 0, agreeErrors: 0, differ: [], total: cases, errorsByCode: {} };
  const predicted = new Map();
  const CHUNK = 100;
  const t0 = performance.now();
  for (let start = 0; start < cases; start += CHUNK) {
    const texts = caseTexts(seed, dto || undefined, size, start, Math.min(CHUNK, cases - start));
    for (let k = 0; k < texts.length; k++) {
      const i = start + k;
      const text = texts[k];
      const model = JSON.parse(jsonbResult(text));
      try {
        await pg.query(`insert into ${table} (i, doc) values ($1, $2::jsonb)`, [i, text]);
        if (model.ok !== undefined) predicted.set(i, { text, model });
        else record(out, i, text, model, { text: '(the server stored it)' });
      } catch (e) {
        const server = { code: e.code ?? null, message: e.message ?? String(e), detail: e.detail ?? null };
        if (model.error && model.error.code === server.code && model.error.message === server.message) {
          out.agreeErrors++;
          out.errorsByCode[server.code] = (out.errorsByCode[server.code] ?? 0) + 1;
        } else {
          record(out, i, text, model, { error: server });
        }
      }
    }
    post(id, { type: 'progress', phase: 'pg', done: Math.min(start + CHUNK, cases), total: cases });
    await tick();
    if (!current(id)) {
      await pg.exec(`drop table if exists ${table}`);
      post(id, { type: 'stopped', phase: 'pg' });
      return;
    }
  }
  // Read the stored documents back as text, as a client would.
  const rows = await pg.query(`select i, doc::text as t from ${table} order by i`);
  await pg.exec(`drop table ${table}`);
  for (const row of rows.rows) {
    const p = predicted.get(row.i);
    if (!p) continue;
    if (p.model.ok === row.t) out.agree++;
    else record(out, row.i, p.text, p.model, { text: row.t });
    predicted.delete(row.i);
  }
  for (const [i, p] of predicted) record(out, i, p.text, p.model, { error: { message: 'row missing after insert' } });
  out.millis = Math.round(performance.now() - t0);
  post(id, { type: 'pg', pg: out });
}

function record(out, i, text, model, server) {
  if (out.differ.length < 50) out.differ.push({ case: i, text, model, server });
  else out.differ.push({ case: i });
}
