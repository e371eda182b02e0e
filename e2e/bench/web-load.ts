/**
 * bench:web — JavaScript that /login and the first page after login load (raw, gzip, and what went over
 * the wire), and the time from navigation to a usable login form, in headless Chromium against the built
 * server. Prints figures; asserts nothing.
 */
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { DEMO, launchBrowser, newPage } from '../src/browser';
import { startServer } from '../src/server';
import { recordLatencies } from './report';

const RUNS = Number(process.env.RUNS ?? 15);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

interface ScriptLoad {
  url: string;
  raw: number;
  gzip: number;
  wire: number;
}

function recordScripts(page: Page): ScriptLoad[] {
  const loads: ScriptLoad[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    void (async () => {
      const response = await request.response();
      if (!response) return;
      const body = await response.body();
      const sizes = await request.sizes();
      loads.push({
        url: request.url(),
        raw: body.length,
        gzip: gzipSync(body, { level: 6 }).length,
        wire: sizes.responseBodySize,
      });
    })();
  });
  return loads;
}

const total = (loads: ScriptLoad[], key: keyof Omit<ScriptLoad, 'url'>) =>
  loads.reduce((s, l) => s + l[key], 0);

const server = await startServer();
const browser = await launchBrowser();
try {
  // Bytes: one cold load of /login, then sign in and land on the first permitted page.
  {
    const { context, page } = await newPage(browser, server.url);
    const loads = recordScripts(page);
    await page.goto('/login', { waitUntil: 'networkidle' });
    const login = [...loads];
    await page.getByTestId('login-email').fill(DEMO.admin.email);
    await page.getByTestId('login-password').fill(DEMO.admin.password);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('menu').waitFor();
    await page.waitForLoadState('networkidle');
    const after = loads.slice(login.length);
    console.log(
      `/login scripts: ${login.length} files, raw ${kb(total(login, 'raw'))}, gzip ${kb(total(login, 'gzip'))}, on the wire (brotli) ${kb(total(login, 'wire'))}`,
    );
    console.log(
      `first page after login (${new URL(page.url()).pathname}) adds: ${after.length} files, raw ${kb(total(after, 'raw'))}, gzip ${kb(total(after, 'gzip'))}, on the wire ${kb(total(after, 'wire'))}`,
    );
    await context.close();
  }
  // Time to a usable form, cold cache each run.
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { context, page } = await newPage(browser, server.url);
    const t0 = performance.now();
    await page.goto('/login', { waitUntil: 'commit' });
    await page.getByTestId('login-email').waitFor({ state: 'visible' });
    await page.getByTestId('login-submit').isEnabled();
    times.push(performance.now() - t0);
    await context.close();
  }
  times.sort((a, b) => a - b);
  console.log(
    `navigation → login form usable (${RUNS} cold runs): p50 ${pct(times, 50).toFixed(0)} ms, p95 ${pct(times, 95).toFixed(0)} ms, min ${times[0]!.toFixed(0)} ms`,
  );
  recordLatencies('web', 'login_form_usable_cold', times, { database: 'none', params: { runs: RUNS } });
} finally {
  await browser.close();
  await server.stop();
}
