/**
 * bench:dashboard — time from navigation to /dashboard until all 12 widgets of a saved layout are drawn,
 * in headless Chromium against the built server with the demo seed and BENCH_DAYS (3 unless told) of
 * simulated history. Prints p50/p95 of RUNS (10) cold and warm loads; asserts nothing.
 *
 * The layout: every widget type once (fleet tiles, power curve, monthly energy, status table, active
 * alarms, mini map, weather, a signal gauge, yield ranking, open faults) plus a second power curve and a
 * signal trend of another plant: 12 widgets, 7 of them charts.
 *
 * "Drawn": the grid holds 12 widgets, none of them still loading; every chart host in the grid holds an
 * ECharts canvas with painted pixels over at least 0.5 % of its area that did not change between two polls
 * (50 ms); the mini map shows its plant markers. Cold: a fresh browser context (empty HTTP cache) with the
 * session token in localStorage. Warm: the same page loaded again.
 */
import type { Page } from 'playwright-core';
import { ApiClient } from '../src/console';
import { DEMO, launchBrowser, login, newPage } from '../src/browser';
import { startServer } from '../src/server';
import { recordLatencies } from './report';

const RUNS = Number(process.env.RUNS ?? 10);
const DAYS = process.env.BENCH_DAYS ?? '3';
const WIDGETS = 12;
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** The in-page check, as source text (tsx's keepNames helper does not exist in the page); see the header. */
const DRAWN_PREDICATE = `(count) => {
  const grid = document.querySelector('[data-testid="dashboard-grid"]');
  if (!grid) return false;
  if (grid.querySelectorAll('[data-widget-type]').length !== count) return false;
  if (grid.querySelector('[data-testid="widget-loading"]')) return false;
  if (!grid.querySelector('.plant-marker-icon, .plant-cluster')) return false;
  const painted = (canvas) => {
    const ctx = canvas.getContext('2d');
    if (!ctx || canvas.width === 0 || canvas.height === 0) return 0;
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
    return n / (canvas.width * canvas.height);
  };
  const hosts = [...grid.querySelectorAll('.telemetry-chart, .bar-chart')];
  const now = hosts.map((host) => {
    const canvas = host.querySelector('canvas');
    return canvas ? painted(canvas) : -1;
  });
  const before = window.__benchDrawn;
  window.__benchDrawn = now;
  if (hosts.length < 7 || now.some((share) => share < 0.005) || !before) return false;
  return before.length === now.length && now.every((share, i) => share === before[i]);
}`;

async function widgetsDrawn(page: Page): Promise<void> {
  await page.waitForFunction(DRAWN_PREDICATE, WIDGETS, { timeout: 120_000, polling: 50 });
}

interface Catalog {
  devices?: { type: string; signals: { id: number; key: string }[] }[];
}

const server = await startServer({ SIMULATOR: 'true', SIMULATOR_BACKFILL_DAYS: DAYS });
const browser = await launchBrowser();
try {
  const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
  const plants = (
    await api.request<{ items: { plant_id: number; name: string }[] }>('GET', 'plants/overview')
  ).items;
  const [first, second] = [plants[0]!, plants[1] ?? plants[0]!];
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

  const signalOf = async (plantId: number, deviceType: string, key: string): Promise<number> => {
    const catalog = await api.request<Catalog>('GET', `telemetry/catalog?plant_id=${plantId}`);
    const signal = catalog.devices
      ?.filter((d) => d.type === deviceType)
      .flatMap((d) => d.signals)
      .find((s) => s.key === key);
    if (!signal) throw new Error(`no ${deviceType} ${key} signal at plant ${plantId}`);
    return signal.id;
  };
  const base = { plant_ids: [], plant_id: null, signal_id: null, period: 'day', display: 'gauge' };
  const widgets = [
    ['fleet_kpis', {}, 12, 3],
    ['plant_power', { plant_id: first.plant_id }, 8, 6],
    ['mini_map', {}, 4, 6],
    ['plant_status', {}, 8, 6],
    ['active_alarms', {}, 4, 6],
    ['monthly_energy', { plant_id: first.plant_id }, 6, 6],
    ['yield_ranking', {}, 6, 6],
    ['weather', { plant_id: first.plant_id }, 6, 5],
    ['open_faults', {}, 6, 5],
    [
      'signal',
      { plant_id: first.plant_id, signal_id: await signalOf(first.plant_id, 'inverter', 'ac_power') },
      4,
      5,
    ],
    [
      'signal',
      {
        plant_id: second.plant_id,
        signal_id: await signalOf(second.plant_id, 'weather_station', 'irradiance'),
        display: 'trend',
      },
      4,
      5,
    ],
    ['plant_power', { plant_id: second.plant_id }, 4, 5],
  ] as const;
  let x = 0;
  let y = 0;
  let shelf = 0;
  const lg = widgets.map(([, , w, h], i) => {
    if (x + w > 12) [x, y, shelf] = [0, y + shelf, 0];
    const item = { i: `w${i + 1}`, x, y, w, h };
    x += w;
    shelf = Math.max(shelf, h);
    return item;
  });
  await api.post('users/dashboard', {
    data: {
      version: 1,
      widgets: widgets.map(([type, settings], i) => ({
        id: `w${i + 1}`,
        type,
        settings: { ...base, ...settings },
      })),
      layouts: { lg },
    },
  });

  // Sign in once through the form; the runs reuse its session token.
  const { context: signIn, page: signInPage } = await newPage(browser, server.url);
  await login(signInPage, DEMO.admin);
  const token = (await signInPage.evaluate(() => localStorage.getItem('token')))!;
  await signIn.close();
  const contextOptions = {
    baseURL: server.url,
    viewport: { width: 1440, height: 1800 },
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
    await page.goto('/dashboard', { waitUntil: 'commit' });
    await widgetsDrawn(page);
    cold.push(performance.now() - start);
    await context.close();
  }
  const warm: number[] = [];
  {
    const context = await browser.newContext(contextOptions);
    const page = await context.newPage();
    await page.goto('/dashboard');
    await widgetsDrawn(page);
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await page.goto('/dashboard', { waitUntil: 'commit' });
      await widgetsDrawn(page);
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
      `/dashboard, ${WIDGETS} widgets: navigation → every widget drawn, ${name} (${RUNS} runs): ` +
        `p50 ${pct(ms, 50).toFixed(0)} ms, p95 ${pct(ms, 95).toFixed(0)} ms, min ${ms[0]!.toFixed(0)} ms, ` +
        `max ${ms[ms.length - 1]!.toFixed(0)} ms`,
    );
    recordLatencies('dashboard', `every widget drawn ${name}`, ms, {
      database: 'none',
      params: { widgets: WIDGETS, runs: RUNS, days: DAYS },
    });
  }
} finally {
  await browser.close();
  await server.stop();
}
