// End-to-end test of a reviewers' page built for a user's DTOs (`build.mjs --binding`), in
// the system Chromium, against the user's own native binary (built with equijson_cli):
//  - the page lists the DTOs its binding holds, the ones `CLI dtos` lists, and shows
//    `CLI props ...` as the native replay;
//  - for each DTO, `?seed=S&cases=N&dto=D&autorun=1` gives the digest, verdict and counts
//    `CLI props --seed S --cases N --dto D` prints (and its shrunk counterexample when it
//    fails); both oracles (the JS engine, PGlite) find nothing unexplained;
//  - for each --refactor DTO (one whose BEFORE and AFTER decode functions differ), the
//    native run fails and the page shows the same shrunk case with a finding between the
//    `before` and `after` paths, not accepted;
//  - a DTO the binding does not hold is refused by name (no run of another DTO);
//  - every request stays on the local server.
//
//   node e2e-binding.mjs --site DIR --cli BINARY [--seed S] [--cases N] [--refactor DTO]...

import fs from 'node:fs';
import path from 'node:path';
import { launch, nativeDtos, nativeProps, pages, text } from './e2e-shared.mjs';
import { serve } from './serve.mjs';

const argv = process.argv.slice(2);
const arg = (name, def) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : def;
};
const site = path.resolve(arg('--site', 'target/web'));
const cli = arg('--cli');
if (!cli) throw new Error('--cli BINARY is required: the native binary built with equijson_cli for these DTOs');
const SEED = arg('--seed', '1');
const CASES = Number(arg('--cases', '300'));
const refactors = argv.flatMap((a, i) => (a === '--refactor' ? [argv[i + 1]] : []));
const program = path.basename(cli);
const outDir = path.join(path.dirname(site), `${path.basename(site)}-e2e`);
fs.mkdirSync(outDir, { recursive: true });

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

const sizes = JSON.parse(fs.readFileSync(path.join(site, 'sizes.json'), 'utf8'));
console.log(`page of ${sizes.binding}: wasm ${(sizes.wasm.gzip / 1024).toFixed(1)} KiB gzip`);
const { server, url } = await serve({ root: site });
const browser = await launch();
const foreign = [];
const errors = [];
const newPage = pages(browser, url, foreign, errors);
const report = { url, binding: sizes.binding, seed: SEED, cases: CASES, runs: [] };

try {
  // What the binding holds, as the page shows it.
  const { context, page } = await newPage();
  await page.goto(url);
  await page.waitForSelector('body[data-state=ready]');
  const dtos = await page.$$eval('#dto option', (os) => os.map((o) => o.value));
  // The binary may know more (the built-in catalogue too); the page holds what it binds.
  const native = nativeDtos(cli);
  check(
    dtos.length > 0 && dtos.every((d) => native.includes(d)),
    `the page lists ${dtos.join(', ')}, each known to \`${program} dtos\` (${native.join(', ')})`,
  );
  const command = await text(page, '#command');
  check(command.startsWith(`${program} props --seed `), `native replay shown: ${command}`);
  for (const r of refactors) check(dtos.includes(r), `--refactor ${r} is one of the page's DTOs`);

  const unknownName = dtos.includes('contact') ? 'no-such-dto' : 'contact';
  await page.goto(`${url}?seed=${SEED}&cases=10&dto=${unknownName}&autorun=1`);
  await page.waitForSelector('body[data-state=done]', { timeout: 60_000 });
  const refused = await text(page, '#progress-text');
  check(
    (await text(page, '#status')) === 'fail' &&
      refused === `Error: unknown DTO "${unknownName}": this page knows ${dtos.join(', ')}` &&
      !/^[0-9a-f]{64}$/.test(await text(page, '#digest')),
    `dto=${unknownName} is refused, no run: ${refused}`,
  );
  await context.close();

  for (const dto of dtos) {
    const want = nativeProps(cli, SEED, CASES, dto);
    check(
      /^[0-9a-f]{64}$/.test(want.digest ?? ''),
      `${program} props --dto ${dto} prints a digest (exit ${want.status})`,
    );
    const { context, page } = await newPage();
    await page.goto(`${url}?seed=${SEED}&cases=${CASES}&dto=${encodeURIComponent(dto)}&autorun=1`);
    await page.waitForSelector('body[data-state=done]', { timeout: 300_000 });
    const got = {
      dto,
      digest: await text(page, '#digest'),
      status: await text(page, '#status'),
      props: await text(page, '#props-status'),
      counts: await text(page, '#counts'),
      command: await text(page, '#command'),
      v8differ: await text(page, '#v8-differ'),
      probesOk: await page.$eval('#probes', (e) => e.dataset.ok),
      pgdiffer: await text(page, '#pg-differ'),
      native: { status: want.status, digest: want.digest, passed: want.passed, failed: want.failed },
    };
    report.runs.push(got);
    check(got.digest === want.digest, `${dto}: page digest ${got.digest.slice(0, 16)}… equals ${program}'s`);
    check(got.command === `${program} props --seed ${SEED} --cases ${CASES} --dto ${dto}`, `${dto}: ${got.command}`);
    const nativePass = want.status === 0;
    check(
      got.props === (nativePass ? 'pass' : 'fail'),
      `${dto}: properties ${got.props}, ${program} exit ${want.status}`,
    );
    check(
      got.counts.startsWith(
        `${Number(want.passed).toLocaleString('en-US')} passed · ${Number(want.failed).toLocaleString('en-US')} failed`,
      ),
      `${dto}: counts "${got.counts}" vs native passed ${want.passed}, failed ${want.failed}`,
    );
    check(
      got.v8differ === '0' && got.probesOk === 'true' && got.pgdiffer === '0',
      `${dto}: oracles unexplained: JS engine ${got.v8differ}, PGlite ${got.pgdiffer}`,
    );
    if (!nativePass) {
      got.shrunk = await text(page, '#f-shrunk');
      check(got.shrunk === want.shrunk, `${dto}: shrunk counterexample equals ${program}'s: ${got.shrunk}`);
    }
    if (refactors.includes(dto)) {
      check(!nativePass, `${dto}: ${program} props finds the refactor's difference (exit ${want.status})`);
      const paths = await page.$$eval('#f-paths tbody tr td:first-child', (tds) =>
        tds.map((t) => t.textContent.trim()),
      );
      // Each finding: its class, whether the DTO accepts it, the paths in its heading and
      // the paths its error lines name (`after: duplicate field ...`).
      const findings = await page.$$eval('#f-findings .finding', (fs) =>
        fs.map((f) => {
          const items = [...f.querySelectorAll('li')].map((li) => li.textContent);
          const ul = f.querySelector('ul')?.textContent ?? '';
          return { class: f.querySelector('b').textContent, heading: f.textContent.replace(ul, ''), items };
        }),
      );
      got.refactor = { paths, findings };
      check(
        paths.join(',') === 'before,after',
        `${dto}: the failure's per-path table is BEFORE and AFTER: ${paths.join(', ')}`,
      );
      const named = (f) =>
        [
          ...f.heading.matchAll(/\b(before|after)\b/g),
          ...f.items.flatMap((i) => [...i.matchAll(/^(before|after):/g)]),
        ].map((m) => m[1]);
      const split = findings.find((f) => /not accepted/.test(f.heading) && new Set(named(f)).size === 2);
      check(
        split !== undefined && want.stdout.includes(`${split.class}: `),
        `${dto}: a finding between before and after, not accepted, as ${program} reports it: ${split ? `${split.class} (${named(split).join(' vs ')})` : findings.map((f) => f.heading).join('; ')}`,
      );
      await page.screenshot({ path: path.join(outDir, `refactor-${dto}.png`), fullPage: true });
    }
    await context.close();
  }
  check(foreign.length === 0, `no request left the local server${foreign.length ? `: ${foreign.join(', ')}` : ''}`);
  check(errors.length === 0, `no page errors${errors.length ? `: ${errors.slice(0, 5).join(' | ')}` : ''}`);
} catch (e) {
  console.error(e);
  failures++;
} finally {
  await browser.close();
  server.close();
}

fs.writeFileSync(path.join(outDir, 'report.json'), JSON.stringify(report, null, 2));
console.log(`report: ${path.relative(process.cwd(), path.join(outDir, 'report.json'))}`);
if (failures) {
  console.error(`${failures} check(s) failed`);
  process.exit(1);
}
console.log(`web e2e (${sizes.binding}): all checks passed`);
