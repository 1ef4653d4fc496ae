// Web Worker: the property run (equijson core in WebAssembly), then the JS-engine oracle
// over the same cases. Works in chunks so progress streams out and Stop is heard.

import { compareWithJs, POLICY_PROBES } from './jscanon.js';
import init, { canonicalResult, caseTexts, PropsRunner } from './pkg/equijson_page.js';
import { serveRuns } from './runs.js';

const ready = init();
const { post, tick, current } = serveRuns(run, 'error');

async function run(id, { seed, cases, dto, size }) {
  await ready;
  const runner = new PropsRunner(seed, cases, dto || undefined, size);
  const t0 = performance.now();
  while (!runner.finished()) {
    const slice = performance.now();
    while (!runner.finished() && performance.now() - slice < 50) runner.step(1);
    post(id, { type: 'progress', phase: 'props', done: runner.done(), failed: runner.failed(), total: cases });
    await tick();
    if (!current(id)) {
      runner.free();
      post(id, { type: 'stopped', phase: 'props' });
      return;
    }
  }
  const outcome = JSON.parse(runner.finish());
  runner.free();
  outcome.millis = Math.round(performance.now() - t0);
  post(id, { type: 'props', outcome });

  // The JS-engine oracle over the very same case texts.
  const v8 = { agree: 0, policy: {}, differ: [], total: cases };
  const CHUNK = 200;
  for (let start = 0; start < cases; start += CHUNK) {
    const texts = caseTexts(seed, dto || undefined, size, start, Math.min(CHUNK, cases - start));
    for (const [k, text] of texts.entries()) tally(v8, start + k, text);
    post(id, { type: 'progress', phase: 'v8', done: Math.min(start + CHUNK, cases), total: cases });
    await tick();
    if (!current(id)) {
      post(id, { type: 'stopped', phase: 'v8' });
      return;
    }
  }
  const probes = POLICY_PROBES.map((p) => {
    const core = JSON.parse(canonicalResult(p.text));
    const r = compareWithJs(p.text, core);
    return { text: p.text, expect: p.expect, verdict: r.verdict, policy: r.policy ?? null, core, js: r.js };
  });
  post(id, { type: 'v8', v8, probes, engine: engineName() });
}

function tally(v8, i, text) {
  const core = JSON.parse(canonicalResult(text));
  const r = compareWithJs(text, core);
  if (r.verdict === 'agree') v8.agree++;
  else if (r.verdict === 'policy') v8.policy[r.policy] = (v8.policy[r.policy] ?? 0) + 1;
  else if (v8.differ.length < 50) v8.differ.push({ case: i, text, core, js: r.js });
  else v8.differ.push({ case: i });
}

function engineName() {
  const ua = self.navigator?.userAgent ?? '';
  const m = ua.match(/(Chrome|Chromium|Firefox|Version)\/([\d.]+)/);
  if (!m) return ua || 'unknown engine';
  return m[1] === 'Version'
    ? `Safari ${m[2]} (JavaScriptCore)`
    : m[1] === 'Firefox'
      ? `Firefox ${m[2]} (SpiderMonkey)`
      : `${m[1]} ${m[2]} (V8)`;
}
