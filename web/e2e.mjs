// End-to-end test of the reviewers' page in the system Chromium (playwright-core):
//  - autorun with fixed seeds for every DTO of the catalogue; the page's digest and verdict
//    must equal the native CLI's (`equijson props --seed S --cases N --dto D`) for the same
//    arguments, and a failing DTO must show the CLI's shrunk counterexample;
//  - the JS-engine oracle and PGlite must report zero unexplained differences, and the
//    policy probes must be named classes;
//  - the playground shows the canonical form the CLI prints and a located error for an
//    invalid document (line and column as `equijson canon` reports them);
//  - every request stays on the local server (no CDN);
//  - screenshots (laptop and phone) and a JSON report go to target/web-e2e/.
//
//   node e2e.mjs [--cli target/release/equijson] [--cases N]

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, nativeDtos, nativeProps, pages, text } from './e2e-shared.mjs';
import { serve } from './serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
};
const cli = path.resolve(root, arg('--cli', 'target/release/equijson'));
const CASES = Number(arg('--cases', '1000'));
const outDir = path.join(root, 'target', 'web-e2e');
fs.mkdirSync(outDir, { recursive: true });

// Fixed seeds, one per DTO (any DTO added to the catalogue gets seed 1).
const SEEDS = {
  value: '1',
  contact: '42',
  'drive-policy': '5',
  'event-context': '3',
  articles: '3735928559',
  'ledger-entry': '7',
};

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

const native = (seed, cases, dto) => nativeProps(cli, seed, cases, dto);
const dtoNames = nativeDtos(cli);
check(dtoNames.length >= 6, `catalogue lists ${dtoNames.length} DTOs: ${dtoNames.join(', ')}`);

const { server, url } = await serve({ root: path.join(root, 'target', 'web') });
const browser = await launch();

const report = { url, cases: CASES, browser: browser.version(), runs: [], firstLoad: null, playground: null };
const foreign = [];
const consoleErrors = [];
const newPage = pages(browser, url, foreign, consoleErrors);

try {
  // First load, fresh context: what crosses the wire until the page is ready.
  {
    const { context, page } = await newPage();
    const transfers = [];
    page.on('requestfinished', async (r) => {
      const s = await r.sizes().catch(() => null);
      if (s)
        transfers.push({ url: r.url().slice(url.length), body: s.responseBodySize, headers: s.responseHeadersSize });
    });
    const dto = dtoNames[0];
    await page.goto(`${url}?seed=${SEEDS[dto] ?? '1'}&cases=50&dto=${dto}&autorun=1`);
    await page.waitForSelector('body[data-state=done]', { timeout: 240_000 });
    await page.waitForTimeout(300);
    const total = transfers.reduce((a, t) => a + t.body + t.headers, 0);
    const wasm = transfers.find((t) => t.url.endsWith('equijson_page_bg.wasm'));
    report.firstLoad = {
      requests: transfers.length,
      totalBytes: total,
      wasmTransferBytes: wasm?.body ?? null,
      files: transfers,
    };
    check(wasm && wasm.body < 400 * 1024, `page wasm transfer ${wasm?.body} bytes gzip (< 400 KiB)`);
    console.log(
      `     first load: ${transfers.length} requests, ${(total / 1024).toFixed(0)} KiB transferred (gzip), including PGlite`,
    );
    await context.close();
  }

  for (const dto of dtoNames) {
    const seed = SEEDS[dto] ?? '1';
    const want = native(seed, CASES, dto);
    const { context, page } = await newPage();
    const t0 = Date.now();
    await page.goto(`${url}?seed=${seed}&cases=${CASES}&dto=${dto}&autorun=1`);
    await page.waitForSelector('body[data-state=done]', { timeout: 300_000 });
    const got = {
      dto,
      seed,
      digest: await text(page, '#digest'),
      status: await text(page, '#status'),
      props: await text(page, '#props-status'),
      counts: await text(page, '#counts'),
      v8: {
        agree: await text(page, '#v8-agree'),
        policy: await text(page, '#v8-policy'),
        differ: await text(page, '#v8-differ'),
        probesOk: await page.$eval('#probes', (e) => e.dataset.ok),
      },
      pg: {
        agree: await text(page, '#pg-agree'),
        errors: await text(page, '#pg-errors'),
        differ: await text(page, '#pg-differ'),
        version: await text(page, '#pg-version'),
      },
      command: await text(page, '#command'),
      seconds: (Date.now() - t0) / 1000,
      native: { status: want.status, digest: want.digest, passed: want.passed, failed: want.failed },
    };
    report.runs.push(got);
    check(
      /^[0-9a-f]{64}$/.test(got.digest) && got.digest === want.digest,
      `${dto} seed ${seed}: digest ${got.digest.slice(0, 16)}… equals the CLI's`,
    );
    check(
      got.command === `equijson props --seed ${seed} --cases ${CASES} --dto ${dto}`,
      `${dto}: native command shown: ${got.command}`,
    );
    const nativePass = want.status === 0;
    check(got.props === (nativePass ? 'pass' : 'fail'), `${dto}: properties ${got.props}, CLI exit ${want.status}`);
    check(
      got.counts.startsWith(`${Number(want.passed).toLocaleString('en-US')} passed`),
      `${dto}: counts "${got.counts}" vs CLI passed ${want.passed}`,
    );
    check(
      got.v8.differ === '0' && got.v8.probesOk === 'true',
      `${dto}: JS engine agree ${got.v8.agree}, policy ${got.v8.policy}, unexplained ${got.v8.differ}`,
    );
    check(
      got.pg.differ === '0' && /PostgreSQL \d+/.test(got.pg.version),
      `${dto}: PGlite same text ${got.pg.agree}, same error ${got.pg.errors}, unexplained ${got.pg.differ} (${got.pg.version})`,
    );
    const agreeTotal = Number(got.v8.agree.replace(/,/g, '')) + Number(got.v8.policy.replace(/,/g, ''));
    const pgTotal = Number(got.pg.agree.replace(/,/g, '')) + Number(got.pg.errors.replace(/,/g, ''));
    check(
      agreeTotal === CASES && pgTotal === CASES,
      `${dto}: oracles covered all ${CASES} cases (JS ${agreeTotal}, PostgreSQL ${pgTotal})`,
    );
    if (nativePass) {
      check(got.status === 'pass', `${dto}: #status pass`);
    } else {
      check(got.status === 'fail', `${dto}: #status fail (the CLI fails too)`);
      const shrunk = await text(page, '#f-shrunk');
      check(shrunk === want.shrunk, `${dto}: shrunk counterexample equals the CLI's: ${shrunk}`);
      const rows = await page.$$eval('#f-paths tbody tr', (rs) => rs.length);
      const findings = await page.$$eval('#f-findings .finding', (rs) => rs.length);
      check(rows === 5 && findings > 0, `${dto}: per-path table (${rows} rows) and ${findings} finding(s) shown`);
      await page.screenshot({ path: path.join(outDir, `failure-${dto}.png`), fullPage: true });
    }
    if (dto === 'value') await page.screenshot({ path: path.join(outDir, 'page.png'), fullPage: true });
    await context.close();
  }

  // Playground, on a phone-sized screen.
  {
    const { context, page } = await newPage({ width: 390, height: 844 });
    await page.goto(url);
    await page.waitForSelector('body[data-state=ready]');
    const valid = '{"b": [1.0, 1e21, -0], "a": "\\u00e9", "\\ud83d\\ude02": 1, "\\ufb33": 2}';
    await page.fill('#input', valid);
    await page.waitForFunction((v) => document.getElementById('input').value === v, valid);
    await page.waitForTimeout(400);
    const canonical = await text(page, '#out-canonical');
    const cliCanon = execFileSync(cli, ['canon'], { input: valid, encoding: 'utf8' });
    check(canonical === cliCanon, `playground canonical equals \`equijson canon\`: ${canonical}`);
    const jsonb = await text(page, '#out-jsonb');
    // The jsonb prediction against a real PostgreSQL (PGlite, here in Node).
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create();
    const pgText = (await db.query('select $1::jsonb::text as t', [valid])).rows[0].t;
    await db.close();
    check(jsonb === pgText, `playground jsonb text equals PostgreSQL's: ${jsonb}`);

    const invalid = '{\n  "name": "Ada",\n  "tags": ["x", "y",]\n}';
    await page.fill('#input', invalid);
    await page.waitForSelector('#input-error:not([hidden])');
    const err = await text(page, '#input-error');
    const loc = await page.$eval('#input-error', (e) => [e.dataset.line, e.dataset.column]);
    const cliErr = spawnSync(cli, ['canon'], { input: invalid, encoding: 'utf8' }).stderr;
    const m = cliErr.match(/:(\d+):(\d+): error: (.*)/);
    check(
      m && loc[0] === m[1] && loc[1] === m[2] && err.includes(`line ${m[1]}, column ${m[2]}`),
      `playground error located at line ${loc[0]}, column ${loc[1]} (CLI: ${m ? `${m[1]}:${m[2]}` : cliErr.trim()}): ${err.split('\n')[0]}`,
    );
    const paths = await page.$$eval('#out-paths tbody tr', (rs) => rs.length);
    check(paths === 5, `playground per-path decode report has ${paths} rows`);
    report.playground = { canonical, jsonb, error: err, location: loc };
    await page.screenshot({ path: path.join(outDir, 'phone-playground.png'), fullPage: true });
    // The phone view of a finished run.
    await page.goto(`${url}?seed=1&cases=100&dto=${dtoNames[0]}&autorun=1`);
    await page.waitForSelector('body[data-state=done]', { timeout: 240_000 });
    await page.screenshot({ path: path.join(outDir, 'phone.png'), fullPage: false });
    await context.close();
  }

  // Bad input in the URL: a clear error, no hang; Stop ends a long run.
  {
    const { context, page } = await newPage();
    await page.goto(`${url}?seed=0x12zz&cases=10&autorun=1`);
    await page.waitForSelector('body[data-state=done]', { timeout: 60_000 });
    const msg = await text(page, '#progress-text');
    check((await text(page, '#status')) === 'fail' && msg.includes('bad seed'), `a malformed seed is refused: ${msg}`);
    // An unknown DTO is refused by name, not replaced by another one (the list is the binding's).
    await page.goto(`${url}?seed=1&cases=10&dto=no-such-dto&autorun=1`);
    await page.waitForSelector('body[data-state=done]', { timeout: 60_000 });
    const listed = await page.$$eval('#dto option', (os) => os.map((o) => o.value));
    check(
      listed.join(',') === dtoNames.join(','),
      `the page lists the DTOs \`equijson dtos\` lists: ${listed.join(', ')}`,
    );
    const unknown = await text(page, '#progress-text');
    check(
      (await text(page, '#status')) === 'fail' &&
        unknown === `Error: unknown DTO "no-such-dto": this page knows ${dtoNames.join(', ')}` &&
        !/^[0-9a-f]{64}$/.test(await text(page, '#digest')),
      `an unknown DTO is refused, no run: ${unknown}`,
    );
    await page.goto(`${url}?seed=9&cases=1000000&dto=value&autorun=1`);
    await page.waitForFunction(
      () => /^[1-9][\d,]* \//.test(document.getElementById('progress-text').textContent),
      null,
      { timeout: 60_000 },
    );
    await page.click('#stop-btn');
    await page.waitForSelector('body[data-state=done]', { timeout: 30_000 });
    const stopped = await text(page, '#progress-text');
    check(
      (await text(page, '#status')) === 'stopped' && stopped.startsWith('Stopped'),
      `Stop ends a 1,000,000-case run: ${stopped}`,
    );
    // And a new run after Stop completes normally.
    await page.fill('#cases', '50');
    await page.click('#run-btn');
    await page.waitForSelector('body[data-state=done]', { timeout: 120_000 });
    const want = native('9', 50, 'value');
    check(
      (await text(page, '#digest')) === want.digest && (await text(page, '#status')) === 'pass',
      'a run after Stop completes with the CLI digest',
    );
    await context.close();
  }

  check(foreign.length === 0, `no request left the local server${foreign.length ? `: ${foreign.join(', ')}` : ''}`);
  check(
    consoleErrors.length === 0,
    `no page errors${consoleErrors.length ? `: ${consoleErrors.slice(0, 5).join(' | ')}` : ''}`,
  );
} catch (e) {
  console.error(e);
  failures++;
} finally {
  await browser.close();
  server.close();
}

fs.writeFileSync(path.join(outDir, 'report.json'), JSON.stringify(report, null, 2));
console.log(
  `report: ${path.relative(process.cwd(), path.join(outDir, 'report.json'))}; screenshots in ${path.relative(process.cwd(), outDir)}`,
);
if (failures) {
  console.error(`${failures} check(s) failed`);
  process.exit(1);
}
console.log('web e2e: all checks passed');
