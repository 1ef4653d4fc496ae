// The page: controls, two workers (properties + JS oracle; PGlite), the playground.
// Contract for automation: index.html?seed=S&cases=N[&dto=D][&size=Z]&autorun=1 runs
// without clicks, then writes the digest into #digest and pass/fail into #status. The DTOs
// and the native command come from the binding the page was built with; a `dto` it does
// not bind is an error naming the ones it does (no run, #status fail).

import init, { analyze, defaultDto, dtos, replayCommand } from './pkg/equijson_page.js';

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

let catalogue = [];
let command = 'equijson';
let propsWorker = null;
let pgWorker = null;
let current = null; // { runId, args, props, v8, pg, failedOracles, t0, finished }
let runs = 0;

await init();
boot();

function boot() {
  catalogue = JSON.parse(dtos());
  command = replayCommand();
  if (command !== 'equijson') document.title = `${command} · equijson property checks in your browser`;
  const def = defaultDto();
  for (const sel of [$('dto'), $('pg-dto')]) {
    sel.innerHTML = catalogue.map((d) => `<option value="${esc(d.name)}">${esc(d.name)}</option>`).join('');
  }
  const q = new URLSearchParams(location.search);
  $('seed').value = q.get('seed') ?? '1';
  $('cases').value = q.get('cases') ?? '1000';
  $('size').value = q.get('size') ?? '6';
  const dto = q.get('dto') || def;
  const known = catalogue.some((d) => d.name === dto);
  $('dto').value = known ? dto : def;
  $('pg-dto').value = $('dto').value;
  describeDto();
  updateCommand();

  $('props-form').addEventListener('submit', (e) => {
    e.preventDefault();
    start();
  });
  $('stop-btn').addEventListener('click', stop);
  $('random-btn').addEventListener('click', () => {
    const a = new Uint32Array(2);
    crypto.getRandomValues(a);
    $('seed').value = (BigInt(a[0]) * 4294967296n + BigInt(a[1])).toString();
    updateCommand();
  });
  for (const id of ['seed', 'cases', 'size', 'dto']) $(id).addEventListener('input', updateCommand);
  $('dto').addEventListener('change', describeDto);
  for (const b of document.querySelectorAll('button.copy')) b.addEventListener('click', () => copy(b));

  $('input').addEventListener('input', debounce(play, 120));
  $('pg-dto').addEventListener('change', play);
  $('sample-btn').addEventListener('click', loadSample);
  loadSample();

  document.body.dataset.state = 'ready';
  $('progress-text').textContent = 'Ready. Choose a seed and press Run.';
  if (!known) {
    // Running another DTO than the one asked for would show a digest of something else.
    const names = catalogue.map((d) => d.name).join(', ');
    $('progress-text').textContent = `Error: unknown DTO "${dto}": this page knows ${names}`;
    badge($('status'), 'fail');
    document.body.dataset.state = 'done';
  } else if (q.get('autorun') === '1') start();
}

function args() {
  const seed = $('seed').value.trim();
  const cases = Math.max(1, Math.min(1_000_000, parseInt($('cases').value, 10) || 1));
  const size = Math.max(0, Math.min(32, parseInt($('size').value, 10) || 0));
  return { seed, cases, dto: $('dto').value, size };
}

function nativeCommand(a, cases = a.cases) {
  return `${command} props --seed ${a.seed} --cases ${cases} --dto ${a.dto}${a.size !== 6 ? ` --size ${a.size}` : ''}`;
}

function updateCommand() {
  $('command').textContent = nativeCommand(args());
}

function describeDto() {
  const d = catalogue.find((x) => x.name === $('dto').value);
  if (!d) return;
  const acc = d.accepts.map((a) => `accepts ${a.class}${a.only.length ? ` (${a.only.join(', ')})` : ''}: ${a.reason}`);
  $('dto-summary').innerHTML =
    `<b>${esc(d.name)}</b>: ${esc(d.summary)}${acc.map((x) => `<br><span class="small">${esc(x)}</span>`).join('')}`;
}

function badge(el, text, kind) {
  el.textContent = text;
  el.className = `badge ${kind ?? text}`;
}

function setBar(id, done, total) {
  $(id).style.width = `${total ? Math.min(100, (100 * done) / total) : 0}%`;
}

function start() {
  const a = args();
  history.replaceState(
    null,
    '',
    `?seed=${encodeURIComponent(a.seed)}&cases=${a.cases}&dto=${encodeURIComponent(a.dto)}` +
      (a.size !== 6 ? `&size=${a.size}` : ''),
  );
  updateCommand();
  current = { runId: ++runs, args: a, props: null, v8: null, pg: null, failedOracles: [], t0: performance.now() };
  document.body.dataset.state = 'running';
  $('run-btn').disabled = true;
  $('stop-btn').disabled = false;
  for (const id of ['status', 'props-status', 'v8-status', 'pg-status']) badge($(id), 'running', 'running');
  $('digest').textContent = '…';
  $('counts').textContent = '';
  $('failure').hidden = true;
  for (const id of ['v8-agree', 'v8-policy', 'v8-differ', 'pg-agree', 'pg-errors', 'pg-differ'])
    $(id).textContent = '…';
  $('v8-diffs').innerHTML = '';
  $('pg-diffs').innerHTML = '';
  $('pg-codes').textContent = '';
  for (const b of ['bar-props', 'bar-v8', 'bar-pg']) setBar(b, 0, 1);

  if (!propsWorker) {
    propsWorker = new Worker('./props-worker.js', { type: 'module' });
    propsWorker.onmessage = onMessage;
    propsWorker.onerror = (e) => fatal(`properties worker: ${e.message}`);
  }
  if (!pgWorker) {
    pgWorker = new Worker('./pg-worker.js', { type: 'module' });
    pgWorker.onmessage = onMessage;
    pgWorker.onerror = (e) => oracleFailed('pg', `PGlite worker: ${e.message}`);
  }
  propsWorker.postMessage({ cmd: 'run', runId: current.runId, ...a });
  pgWorker.postMessage({ cmd: 'run', runId: current.runId, ...a });
}

function stop() {
  if (!current) return;
  propsWorker?.postMessage({ cmd: 'stop', runId: current.runId });
  pgWorker?.postMessage({ cmd: 'stop', runId: current.runId });
}

function onMessage(ev) {
  const m = ev.data;
  // Messages of an earlier (stopped) run are dropped.
  if (!current || m.runId !== current.runId || current.finished) return;
  switch (m.type) {
    case 'progress':
      if (m.phase === 'props') {
        setBar('bar-props', m.done, m.total);
        $('progress-text').textContent =
          `${m.done.toLocaleString()} / ${m.total.toLocaleString()} cases · ${m.failed} failed`;
      } else if (m.phase === 'v8') setBar('bar-v8', m.done, m.total);
      else if (m.phase === 'pg') setBar('bar-pg', m.done, m.total);
      else if (m.phase === 'pg-boot') $('pg-version').textContent = 'Starting PostgreSQL…';
      break;
    case 'props':
      showProps(m.outcome);
      break;
    case 'v8':
      showV8(m);
      break;
    case 'pg-ready':
      $('pg-version').innerHTML =
        `Server: <b>${esc(m.version.split(' on ')[0])}</b> (booted in ${(m.bootMillis / 1000).toFixed(1)} s).`;
      $('pg-version').title = m.version;
      break;
    case 'pg':
      showPg(m.pg);
      break;
    case 'pg-error':
      oracleFailed('pg', m.message);
      break;
    case 'error':
      fatal(m.message);
      break;
    case 'stopped':
      $('progress-text').textContent = `Stopped (${m.phase}).`;
      badge($('status'), 'stopped', 'fail');
      finishRun(true);
      break;
  }
}

function showProps(o) {
  current.props = o;
  const ok = o.failed === 0;
  badge($('props-status'), ok ? 'pass' : 'fail');
  $('digest').textContent = o.digest;
  $('counts').textContent =
    `${o.passed.toLocaleString()} passed · ${o.failed.toLocaleString()} failed · ${o.cases.toLocaleString()} cases in ${(o.millis / 1000).toFixed(2)} s`;
  $('progress-text').textContent = `Properties done. Checking the oracles…`;
  setBar('bar-props', 1, 1);
  if (o.failure) showFailure(o.failure, current.args);
  maybeDone();
}

function showFailure(f, a) {
  $('failure').hidden = false;
  $('f-case').textContent = f.case;
  $('f-property').textContent = f.property;
  $('f-steps').textContent = f.steps;
  $('f-shrunk').textContent = f.shrunk;
  $('f-original').textContent = f.original;
  $('f-detail').textContent = f.detail;
  $('f-replay').textContent = nativeCommand(a, f.case + 1);
  renderPaths($('f-paths'), f.report);
  renderFindings($('f-findings'), f.report);
}

function renderPaths(table, report) {
  if (!report) {
    table.innerHTML = '';
    return;
  }
  table.innerHTML =
    '<thead><tr><th>path</th><th>result</th><th>value / error</th></tr></thead><tbody>' +
    report.outcomes
      .map(
        (o) =>
          `<tr><td title="${esc(o.describe)}"><code>${esc(o.path)}</code></td><td><span class="pill ${{ ok: 'ok', error: 'bad', unencodable: 'warn' }[o.state] ?? ''}">${esc(o.state)}</span></td><td><code class="wrap">${esc(o.value)}</code></td></tr>`,
      )
      .join('') +
    '</tbody>';
}

function renderFindings(el, report) {
  if (!report || report.findings.length === 0) {
    el.innerHTML = '<p class="muted small">No disagreements between paths.</p>';
    return;
  }
  el.innerHTML = report.findings
    .map((f) => {
      const head = `<b>${esc(f.class)}</b>${f.accepted ? ' <span class="pill ok">accepted by the DTO</span>' : ' <span class="pill bad">not accepted</span>'} · ${esc(f.paths.join(', '))}${f.against.length ? ` vs ${esc(f.against.join(', '))}` : ''}`;
      const errs = f.errors.map(([p, m]) => `<li><code>${esc(p)}</code>: ${esc(m)}</li>`).join('');
      const changes = f.changes.map((c) => `<li><code class="wrap">${esc(c)}</code></li>`).join('');
      const misreads = (f.misreads ?? []).map((m) => `<li><code class="wrap">${esc(m)}</code></li>`).join('');
      const at =
        f.class === 'duplicate-name'
          ? `<li>repeated member at <code>${esc(f.pointer || '(root)')}</code>: readers disagree (last, first or an error)</li>`
          : '';
      const fix = misreads
        ? "<li>fix: serde_json's <code>float_roundtrip</code> feature, or a decimal type for money</li>"
        : '';
      return `<div class="finding">${head}<ul class="diff">${at}${errs}${changes}${misreads}${fix}</ul></div>`;
    })
    .join('');
}

function showV8(m) {
  current.v8 = m.v8;
  const v = m.v8;
  const policy = Object.values(v.policy).reduce((x, y) => x + y, 0);
  $('v8-agree').textContent = v.agree.toLocaleString();
  $('v8-policy').textContent = policy.toLocaleString();
  $('v8-differ').textContent = v.differ.length.toLocaleString();
  $('v8-engine').textContent = `Engine: ${m.engine}.`;
  setBar('bar-v8', 1, 1);
  const probesOk = m.probes.every((p) => p.verdict === 'policy' && p.policy === p.expect);
  current.v8.unexplained = v.differ.length + (probesOk ? 0 : 1);
  badge(
    $('v8-status'),
    current.v8.unexplained === 0 ? 'agree' : 'differ',
    current.v8.unexplained === 0 ? 'pass' : 'fail',
  );
  $('v8-diffs').innerHTML = v.differ
    .slice(0, 10)
    .map((d) =>
      diffBox(d.case, d.text, [
        ['equijson', d.core?.ok ?? `error: ${d.core?.error?.message}`],
        ['JS engine', d.js?.canonical ?? `error: ${d.js?.error}`],
      ]),
    )
    .join('');
  $('probes').innerHTML =
    '<thead><tr><th>input</th><th>class</th><th>equijson</th><th>JS engine (canonical)</th></tr></thead><tbody>' +
    m.probes
      .map(
        (p) =>
          `<tr><td><code>${esc(p.text)}</code></td><td><span class="pill ${p.verdict === 'policy' && p.policy === p.expect ? 'ok' : 'bad'}">${esc(p.policy ?? p.verdict)}</span></td><td class="small">${esc(p.core.error ? `rejects: ${p.core.error.message}` : p.core.ok)}</td><td class="small"><code>${esc(p.js.canonical ?? p.js.error ?? 'no canonical form (Infinity)')}</code></td></tr>`,
      )
      .join('') +
    '</tbody>';
  $('probes').dataset.ok = String(probesOk);
  maybeDone();
}

function showPg(p) {
  current.pg = p;
  $('pg-agree').textContent = p.agree.toLocaleString();
  $('pg-errors').textContent = p.agreeErrors.toLocaleString();
  $('pg-differ').textContent = p.differ.length.toLocaleString();
  $('pg-codes').textContent = Object.entries(p.errorsByCode)
    .map(([c, n]) => `${n}× SQLSTATE ${c}`)
    .join(', ');
  setBar('bar-pg', 1, 1);
  badge($('pg-status'), p.differ.length === 0 ? 'agree' : 'differ', p.differ.length === 0 ? 'pass' : 'fail');
  $('pg-diffs').innerHTML = p.differ
    .slice(0, 10)
    .map((d) =>
      diffBox(d.case, d.text, [
        ['jsonb model', d.model?.ok ?? `${d.model?.error?.code}: ${d.model?.error?.message}`],
        ['PostgreSQL', d.server?.text ?? `${d.server?.error?.code}: ${d.server?.error?.message}`],
      ]),
    )
    .join('');
  maybeDone();
}

function diffBox(i, text, rows) {
  return `<div class="diffbox"><div class="small">case ${i}</div><pre class="doc">${esc(text ?? '')}</pre>${rows.map(([k, v]) => `<div class="kv"><span class="label">${esc(k)}</span><code class="wrap">${esc(v ?? '')}</code></div>`).join('')}</div>`;
}

function oracleFailed(which, message) {
  if (!current) return;
  current[which] = { failed: message, differ: [] };
  current.failedOracles.push(`${which}: ${message}`);
  badge($(`${which}-status`), 'error', 'fail');
  $(`${which}-diffs`).innerHTML = `<p class="error">${esc(message)}</p>`;
  maybeDone();
}

function fatal(message) {
  $('progress-text').textContent = `Error: ${message}`;
  badge($('status'), 'fail');
  badge($('props-status'), 'error', 'fail');
  if ($('digest').textContent === '…') $('digest').textContent = '—';
  finishRun(true);
}

function maybeDone() {
  const c = current;
  if (!c?.props || !c.v8 || !c.pg) return;
  const unexplained = (c.v8.unexplained ?? 0) + c.pg.differ.length + c.failedOracles.length;
  const pass = c.props.failed === 0 && unexplained === 0;
  const secs = ((performance.now() - c.t0) / 1000).toFixed(1);
  $('progress-text').textContent = pass
    ? `All ${c.props.cases.toLocaleString()} cases passed; both oracles agree (${secs} s).`
    : c.props.failed
      ? `${c.props.failed.toLocaleString()} case(s) failed: see the shrunk counterexample below.`
      : `Properties passed, but an oracle reports ${unexplained} unexplained difference(s).`;
  badge($('status'), pass ? 'pass' : 'fail');
  finishRun(false);
}

function finishRun() {
  if (current) current.finished = true;
  $('run-btn').disabled = false;
  $('stop-btn').disabled = true;
  document.body.dataset.state = 'done';
}

async function copy(btn) {
  const text = $(btn.dataset.copy).textContent;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const r = document.createRange();
    r.selectNodeContents($(btn.dataset.copy));
    getSelection().removeAllRanges();
    getSelection().addRange(r);
    document.execCommand('copy');
  }
  btn.textContent = 'Copied';
  setTimeout(() => (btn.textContent = 'Copy'), 1200);
}

function debounce(f, ms) {
  let t;
  return () => {
    clearTimeout(t);
    t = setTimeout(f, ms);
  };
}

function loadSample() {
  const d = catalogue.find((x) => x.name === $('pg-dto').value);
  if (!d) return;
  // Re-indented token by token: going through JSON.parse would already change its numbers.
  $('input').value = indent(d.sample);
  play();
}

function play() {
  const text = $('input').value;
  let r;
  try {
    r = JSON.parse(analyze(text, $('pg-dto').value));
  } catch (e) {
    $('input-error').hidden = false;
    $('input-error').textContent = String(e.message ?? e);
    return;
  }
  const errBox = $('input-error');
  if (r.canonical.error) {
    const e = r.canonical.error;
    errBox.hidden = false;
    errBox.innerHTML = e.line
      ? `<b>line ${e.line}, column ${e.column}</b>: ${esc(e.message)}${snippet(text, e.line, e.column)}`
      : esc(e.message);
    errBox.dataset.line = e.line ?? '';
    errBox.dataset.column = e.column ?? '';
    $('out-canonical').textContent = '—';
    $('out-canonical').classList.add('dim');
  } else {
    errBox.hidden = true;
    $('out-canonical').textContent = r.canonical.ok;
    $('out-canonical').classList.remove('dim');
  }
  const j = r.jsonb;
  $('out-jsonb').textContent =
    j.ok ??
    `ERROR ${j.error.code}: ${j.error.message}` +
      (j.error.detail ? `\nDETAIL: ${j.error.detail}` : '') +
      (j.error.line ? `\n(at line ${j.error.line}, column ${j.error.column})` : '');
  $('out-jsonb').classList.toggle('dim', j.ok === undefined);
  if (r.decode) {
    badge(
      $('out-verdict'),
      r.decode.verdict,
      { equivalent: 'pass', accepted: 'pass', rejected: 'running', divergent: 'fail' }[r.decode.verdict],
    );
    $('out-serde-numbers').textContent = `serde_json numbers: ${r.decode.serde_json_numbers}`;
    renderPaths($('out-paths'), r.decode);
    renderFindings($('out-findings'), r.decode);
  }
}

/** Pretty-prints JSON text without re-reading its values (spellings and escapes stay). */
function indent(text) {
  let out = '';
  let depth = 0;
  let inString = false;
  const nl = () => `\n${'  '.repeat(depth)}`;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r') continue;
    if (c === '"') inString = true;
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      const next = text.slice(i + 1).trimStart()[0];
      if (next === close) {
        out += c + close;
        i = text.indexOf(close, i + 1);
        continue;
      }
      depth++;
      out += c + nl();
    } else if (c === '}' || c === ']') {
      depth--;
      out += nl() + c;
    } else if (c === ',') out += `,${nl()}`;
    else if (c === ':') out += ': ';
    else out += c;
  }
  return out;
}

function snippet(text, line, column) {
  // Columns count characters (code points), as the core reports them.
  const l = Array.from(text.split('\n')[line - 1] ?? '');
  const from = Math.max(0, column - 40);
  const shown = l.slice(from, from + 80).join('');
  return `<pre class="snippet">${esc(shown)}\n${' '.repeat(Math.max(0, column - 1 - from))}^</pre>`;
}

if (typeof window !== 'undefined') window.equijsonPage = { start, stop };
