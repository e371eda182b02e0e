/**
 * bench:map — the map page with 6, 200 and 2,000 plants in headless Chromium against the built server:
 * time from navigation to the first markers drawn, and frame times while the user drags the map around
 * (clustered). The plants overview is answered with generated plants shaped like the real answer (the
 * server side of 2,000 plants is measured by bench:fleet); everything else is the real console.
 * Prints figures; asserts nothing.
 */
import type { Page } from 'playwright-core';
import { DEMO, launchBrowser } from '../src/browser';
import { ApiClient, tokenFor } from '../src/console';
import { startServer } from '../src/server';

const SIZES = (process.env.SIZES ?? '6,200,2000').split(',').map(Number);
const DRAGS = Number(process.env.DRAGS ?? 6);
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

type Item = Record<string, unknown> & { plant_id: number };
const STATUSES = ['normal', 'normal', 'normal', 'night', 'warning', 'fault', 'offline'] as const;

/** `count` plants cloned from a real overview item, spread over Türkiye, the Balkans and Central Europe. */
function fleet(template: Item, count: number): Item[] {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, (_, i) => ({
    ...template,
    plant_id: 100_000 + i,
    name: `Bench GES-${i + 1}`,
    latitude: 36 + random() * 16,
    longitude: 8 + random() * 36,
    status: STATUSES[i % STATUSES.length],
    ac_power_kw: Math.round(random() * 900),
  }));
}

/** Frame-to-frame times (ms) of the page while `action` runs. */
async function frameTimes(page: Page, action: () => Promise<void>): Promise<number[]> {
  // A string, not a function: tsx would wrap a named inner function in a helper the page does not have.
  await page.evaluate(`(() => {
    window.frames_ = [];
    window.framesOn = true;
    let last = performance.now();
    const tick = (now) => {
      window.frames_.push(now - last);
      last = now;
      if (window.framesOn) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  await action();
  return page.evaluate(() => {
    const w = window as unknown as { frames_: number[]; framesOn: boolean };
    w.framesOn = false;
    return w.frames_.slice(1);
  });
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
  const template = (await api.get<{ items: Item[] }>('plants/overview')).items[0]!;
  const token = await tokenFor(server.url, DEMO.admin);
  console.log(`bench:map — Chromium ${browser.version()}, ${DRAGS} drags of 400 px per size`);
  for (const size of SIZES) {
    const body = JSON.stringify({ items: fleet(template, size) });
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 1440, height: 900 },
      storageState: {
        cookies: [],
        origins: [{ origin: server.url, localStorage: [{ name: 'token', value: token }] }],
      },
    });
    const page = await context.newPage();
    await page.route('**/api/plants/overview', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body }),
    );
    // Signed in on another page first, so the timing is the map page's own (its chunk, data and drawing).
    await page.goto('/user-management');
    await page.getByTestId('menu').waitFor();
    const started = Date.now();
    await page.getByTestId('menu-map').click();
    await page.locator('.plant-marker-icon, .plant-cluster').first().waitFor({ timeout: 60_000 });
    const firstMarkersMs = Date.now() - started;
    const shown = await page.evaluate(
      () => document.querySelectorAll('.plant-marker-icon, .plant-cluster').length,
    );
    const canvas = (await page.getByTestId('plant-map').boundingBox())!;
    const cx = canvas.x + canvas.width / 2;
    const cy = canvas.y + canvas.height / 2;
    // Zoom in twice so that the drags move clusters and single markers across the view, as a user does.
    await page.mouse.move(cx, cy);
    for (let i = 0; i < 2; i++) {
      await page.mouse.wheel(0, -300);
      await page.waitForTimeout(600);
    }
    const frames = await frameTimes(page, async () => {
      for (let d = 0; d < DRAGS; d++) {
        const dx = d % 2 === 0 ? -400 : 400;
        await page.mouse.move(cx, cy);
        await page.mouse.down();
        for (let step = 1; step <= 20; step++) await page.mouse.move(cx + (dx * step) / 20, cy + step);
        await page.mouse.up();
        await page.waitForTimeout(300);
      }
    });
    frames.sort((a, b) => a - b);
    console.log(
      `${String(size).padStart(5)} plants: first markers ${firstMarkersMs} ms (${shown} markers/clusters drawn); ` +
        `pan frames n=${frames.length} p50 ${ms(pct(frames, 50))} p95 ${ms(pct(frames, 95))} max ${ms(frames.at(-1)!)}`,
    );
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
