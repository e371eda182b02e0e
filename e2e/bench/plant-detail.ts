/**
 * bench:plant-detail — time from navigation to /santral-detay/{id} until every chart of the page is drawn,
 * in headless Chromium against the built server with the demo seed and BENCH_DAYS (30, as `npm start`)
 * of simulated history. Prints p50/p95 of RUNS (10) cold and warm loads; asserts nothing.
 *
 * "Drawn", for each of the page's four charts (power, month, year, loss): its host carries
 * data-points > 0 (the query answered with data and the option was built from it), holds an ECharts
 * canvas, and that canvas has painted pixels over at least 0.5 % of its area that did not change between
 * two animation frames (the series are on it and rendering has settled; animation is off in OptionChart).
 * The loss waterfall is drawn as SVG (its value labels are text): there, its bars and labels are in the
 * SVG and their count did not change between two polls.
 * Cold: a fresh browser context (empty HTTP cache) with the session token in localStorage, as a signed-in
 * operator opening a bookmark. Warm: the same page loaded again (scripts cached, server caches warm).
 */
import type { Page } from 'playwright-core';
import { ApiClient } from '../src/console';
import { DEMO, launchBrowser, login, newPage } from '../src/browser';
import { startServer } from '../src/server';

const RUNS = Number(process.env.RUNS ?? 10);
const DAYS = process.env.BENCH_DAYS ?? '30';
const CHARTS = ['power-chart', 'month-chart', 'year-chart', 'loss-chart'];
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * The in-page check, as source text: tsx compiles this file with esbuild's keepNames, whose `__name`
 * helper does not exist in the page. Synchronous, because Playwright does not await a predicate's promise:
 * it keeps each poll's reading on window and answers true when every chart is painted and the reading is
 * the same as the previous poll's (50 ms, several frames, earlier).
 */
const DRAWN_PREDICATE = `(ids) => {
  const painted = (canvas) => {
    const ctx = canvas.getContext('2d');
    if (!ctx || canvas.width === 0 || canvas.height === 0) return 0;
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
    return n / (canvas.width * canvas.height);
  };
  const now = ids.map((id) => {
    const host = document.querySelector('[data-testid="' + id + '"]');
    if (!host || Number(host.dataset.points || 0) <= 0) return -1;
    const svg = host.querySelector('svg');
    if (svg) return svg.querySelectorAll('path').length > 0 ? svg.querySelectorAll('path, text').length : -1;
    const canvas = host.querySelector('canvas');
    if (!canvas) return -1;
    return painted(canvas);
  });
  const before = window.__benchDrawn;
  window.__benchDrawn = now;
  if (now.some((share) => share < 0.005) || !before) return false;
  return now.every((share, i) => share === before[i]);
}`;

/** Resolves when every chart is drawn (see the header). */
async function chartsDrawn(page: Page): Promise<void> {
  await page.waitForFunction(DRAWN_PREDICATE, CHARTS, { timeout: 60_000, polling: 50 });
}

const server = await startServer({ SIMULATOR: 'true', SIMULATOR_BACKFILL_DAYS: DAYS });
const browser = await launchBrowser();
try {
  const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
  const plants = (
    await api.request<{ items: { plant_id: number; name: string }[] }>('GET', 'plants/overview')
  ).items;
  const plant = plants[0]!;
  const last = plants[plants.length - 1]!;
  // The history is written plant after plant in the background: wait until the last plant has yesterday.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const t0 = performance.now();
  for (;;) {
    const k = await api.request<{ energy_kwh: number | null }>(
      'GET',
      `plants/${last.plant_id}/kpis?period=day&date=${yesterday}`,
    );
    if (k.energy_kwh !== null && k.energy_kwh > 0) break;
    await new Promise((r) => setTimeout(r, 5_000));
  }
  console.log(`demo history (${DAYS} days) ready after ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  // Sign in once through the form; the runs reuse its session token.
  const { context: signIn, page: signInPage } = await newPage(browser, server.url);
  await login(signInPage, DEMO.admin);
  const token = (await signInPage.evaluate(() => localStorage.getItem('token')))!;
  await signIn.close();
  const url = `/santral-detay/${plant.plant_id}`;
  const contextOptions = {
    baseURL: server.url,
    viewport: { width: 1440, height: 900 },
    locale: 'tr-TR',
    storageState: {
      cookies: [],
      origins: [{ origin: server.url, localStorage: [{ name: 'token', value: token }] }],
    },
  };

  const cold: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext(contextOptions);
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(url, { waitUntil: 'commit' });
    await chartsDrawn(page);
    // Includes the one poll (50 ms) that confirms a stable reading: an upper bound by that much.
    cold.push(performance.now() - start);
    await context.close();
  }
  const warm: number[] = [];
  {
    const context = await browser.newContext(contextOptions);
    const page = await context.newPage();
    await page.goto(url);
    await chartsDrawn(page);
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await page.goto(url, { waitUntil: 'commit' });
      await chartsDrawn(page);
      warm.push(performance.now() - start);
    }
    await context.close();
  }
  for (const [name, ms] of [
    ['cold', cold],
    ['warm', warm],
  ] as const) {
    ms.sort((a, b) => a - b);
    console.log(
      `${plant.name}: navigation → 4 charts drawn, ${name} (${RUNS} runs): p50 ${pct(ms, 50).toFixed(0)} ms, ` +
        `p95 ${pct(ms, 95).toFixed(0)} ms, min ${ms[0]!.toFixed(0)} ms, max ${ms[ms.length - 1]!.toFixed(0)} ms`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
}
