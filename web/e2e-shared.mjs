// What the end-to-end tests of the page share: the system Chromium (playwright-core), pages
// that record requests leaving the local server and page errors, and a native `props` run
// read field by field.

import { spawnSync } from 'node:child_process';
import { chromium } from 'playwright-core';

/** Headless Chromium, offline apart from the local server. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A page factory for `browser` serving from `url`: requests to anywhere else go into
 * `foreign`, page errors and console errors into `errors`.
 */
export function pages(browser, url, foreign, errors) {
  return async (viewport = { width: 1280, height: 900 }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.on('request', (r) => {
      if (!r.url().startsWith(url) && !r.url().startsWith('data:') && !r.url().startsWith('blob:'))
        foreign.push(r.url());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    return { context, page };
  };
}

/** `CLI props --seed S --cases N --dto D`: exit status and the fields it prints. */
export function nativeProps(cli, seed, cases, dto) {
  const r = spawnSync(cli, ['props', '--seed', seed, '--cases', String(cases), '--dto', dto], { encoding: 'utf8' });
  if (r.error) throw new Error(`${cli}: ${r.error.message}`);
  const field = (k) => (r.stdout.match(new RegExp(`^${k}:\\s*(.*)$`, 'm')) ?? [])[1];
  return {
    status: r.status,
    digest: field('digest'),
    passed: field('passed'),
    failed: field('failed'),
    shrunk: field('shrunk'),
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

/** The DTO names `CLI dtos` lists (first word of each unindented line). */
export function nativeDtos(cli) {
  const r = spawnSync(cli, ['dtos'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) throw new Error(`${cli} dtos: ${r.error?.message ?? r.stderr}`);
  return r.stdout
    .split('\n')
    .filter((l) => /^\S/.test(l))
    .map((l) => l.split(/\s+/)[0]);
}

/** The trimmed text of the first element matching `sel`. */
export const text = (page, sel) => page.$eval(sel, (e) => e.textContent.trim());
