// Web Worker: a real PostgreSQL (PGlite, compiled to WebAssembly) as the jsonb oracle.
// Each generated case is inserted as jsonb and read back as text; the equijson core's jsonb
// model predicts that text (or the server's error) without a server.

import init, { caseTexts, jsonbResult } from './pkg/equijson_wasm.js';
import { PGlite } from './pglite/index.js';

const ready = init();
let db = null;
let stopped = false;

const tick = () => new Promise((r) => setTimeout(r, 0));

self.onmessage = async (ev) => {
  const msg = ev.data;
  if (msg.cmd === 'stop') {
    stopped = true;
    return;
  }
  if (msg.cmd !== 'run') return;
  stopped = false;
  try {
    await run(msg);
  } catch (e) {
    self.postMessage({ type: 'pg-error', message: String(e && e.message ? e.message : e) });
  }
};

async function open() {
  if (db) return db;
  const t0 = performance.now();
  self.postMessage({ type: 'progress', phase: 'pg-boot', done: 0, total: 1 });
  db = await PGlite.create();
  const v = await db.query("select version() as v, current_setting('server_version') as sv");
  self.postMessage({
    type: 'pg-ready',
    version: v.rows[0].v,
    serverVersion: v.rows[0].sv,
    bootMillis: Math.round(performance.now() - t0),
  });
  return db;
}

async function run({ seed, cases, dto, size }) {
  await ready;
  const pg = await open();
  await pg.exec('drop table if exists cases; create table cases (i int primary key, doc jsonb)');
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
        await pg.query('insert into cases (i, doc) values ($1, $2::jsonb)', [i, text]);
        if (model.ok !== undefined) predicted.set(i, { text, model });
        else record(out, i, text, model, { error: null, text: '(inserted)' });
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
    self.postMessage({ type: 'progress', phase: 'pg', done: Math.min(start + CHUNK, cases), total: cases });
    await tick();
    if (stopped) {
      self.postMessage({ type: 'stopped', phase: 'pg' });
      return;
    }
  }
  // Read the stored documents back as text, as a client would.
  const rows = await pg.query('select i, doc::text as t from cases order by i');
  for (const row of rows.rows) {
    const p = predicted.get(row.i);
    if (!p) continue;
    if (p.model.ok === row.t) out.agree++;
    else record(out, row.i, p.text, p.model, { text: row.t });
    predicted.delete(row.i);
  }
  for (const [i, p] of predicted) record(out, i, p.text, p.model, { text: null, error: { message: 'row missing' } });
  out.millis = Math.round(performance.now() - t0);
  self.postMessage({ type: 'pg', pg: out });
}

function record(out, i, text, model, server) {
  if (out.differ.length < 50) out.differ.push({ case: i, text, model, server });
  else out.differ.push({ case: i });
}
