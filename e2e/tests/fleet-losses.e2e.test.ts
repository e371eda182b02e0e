import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectPageErrors, DEMO, launchBrowser, PAGE_LOAD_TIMEOUT, screenshot } from '../src/browser';
import { ApiClient, expectPath, openAs, tr, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface OverviewItem {
  plant_id: number;
  name: string;
  time_zone: string;
  dc_capacity_kwp: number | null;
}
interface CatalogDevice {
  id: number;
  type: string;
  signals: { id: number; key: string }[];
}
interface LossItem {
  plant_id: number;
  energy_kwh: number | null;
  top_loss: string | null;
  losses: { total_kwh: number };
}

/** The browser's yesterday (the view's default day), in this process's zone, which Chromium shares. */
const browserYesterday = () => new Intl.DateTimeFormat('en-CA').format(Date.now() - 86_400_000);

/** UTC milliseconds of a local wall-clock time in a time zone. */
function zonedMs(date: string, hh: number, mm: number, timeZone: string): number {
  const guess = Date.parse(`${date}T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00Z`);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(guess)
      .map((p) => [p.type, p.value]),
  );
  const shown = Date.parse(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:00Z`);
  return guess - (shown - guess);
}

const trNumber = (v: number) => new Intl.NumberFormat('tr-TR', { maximumFractionDigits: 1 }).format(v);

describe('fleet loss view', () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let plants: OverviewItem[];
  let lossy: OverviewItem;
  let strong: OverviewItem;
  const date = browserYesterday();

  /** Two hours of the local morning of `date`: irradiance 800 W/m², each inverter's counter `stepKwh` a step. */
  async function postMorning(
    plant: OverviewItem,
    stepKwh: (inverters: number) => number,
    inverterCount?: number,
  ) {
    const devices = (
      await api.get<{ devices: CatalogDevice[] }>(`telemetry/catalog?plant_id=${plant.plant_id}`)
    ).devices;
    const all = devices.filter(
      (d) => d.type === 'inverter' && d.signals.some((s) => s.key === 'total_energy'),
    );
    const inverters = all.slice(0, inverterCount ?? all.length);
    const station = devices.find((d) => d.signals.some((s) => s.key === 'irradiance'))!;
    const poa = station.signals.find((s) => s.key === 'irradiance')!.id;
    const step = stepKwh(all.length);
    const points = [];
    for (let i = 0; i <= 24; i++) {
      const ts = zonedMs(date, 10, 0, plant.time_zone) + i * 300_000;
      for (const inv of inverters)
        points.push({
          signal_id: inv.signals.find((s) => s.key === 'total_energy')!.id,
          ts,
          value: 5000 + i * step,
        });
      if (i > 0) points.push({ signal_id: poa, ts: ts + 60_000, value: 800 });
    }
    await api.post('telemetry', { points });
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    plants = (await api.get<{ items: OverviewItem[] }>('plants/overview')).items;
    expect(plants.length).toBeGreaterThan(1);
    [lossy, strong] = [plants[0]!, plants[1]!];
    // Lossy: one inverter at a trickle, the others silent. Strong: its inverters together make 0.1 kWh per
    // kWp a step (1.2 kW/kWp), well above what 800 W/m² lets the model expect (about 0.64 kW/kWp).
    await postMorning(lossy, () => 1, 1);
    await postMorning(strong, (n) => (0.1 * (strong.dc_capacity_kwp ?? 1000)) / n);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('ranks the plants by the energy they lost, agrees with the plant page and opens the period behind the top cause', () =>
    withPage(
      browser,
      server.url,
      'fleet-losses',
      async (page) => {
        const errors = collectPageErrors(page);
        const answer = await api.get<{ items: LossItem[] }>(`plants/losses?period=day&date=${date}`);
        const a = answer.items.find((i) => i.plant_id === lossy.plant_id)!;
        const b = answer.items.find((i) => i.plant_id === strong.plant_id)!;
        expect(a.losses.total_kwh).toBeGreaterThan(0);
        expect(a.top_loss).not.toBeNull();
        expect(b.losses.total_kwh).toBeLessThan(0);

        await page.goto('/santraller');
        await page.getByTestId('plants-table').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
        await page.getByTestId('plants-view').getByText(tr('plantView.fleetLoss.viewLosses')).click();
        await page.waitForURL((url) => url.search === '?view=losses');
        const table = page.getByTestId('fleet-loss-table');
        await vi.waitFor(
          async () =>
            expect(await table.locator('[data-testid^="fleet-loss-row-"]').count()).toBe(plants.length),
          { timeout: 10_000 },
        );
        // Largest loss first; the plant above its model is said to be so, not given a negative loss.
        const first = table.locator('[data-testid^="fleet-loss-row-"]').first();
        expect(await first.getAttribute('data-testid')).toBe(`fleet-loss-row-${lossy.plant_id}`);
        const strongRow = table.getByTestId(`fleet-loss-row-${strong.plant_id}`);
        expect(await strongRow.getByTestId('loss-above').first().textContent()).toContain(
          trNumber(-b.losses.total_kwh),
        );
        expect(await strongRow.textContent()).not.toContain(`-${trNumber(-b.losses.total_kwh)}`);
        const lossyRow = table.getByTestId(`fleet-loss-row-${lossy.plant_id}`);
        expect(await lossyRow.textContent()).toContain(trNumber(a.energy_kwh!));
        // At 1440 px beside the menu the plant and its loss's top cause show without scrolling; the
        // columns after them are reached by scrolling the table sideways, the plant staying in view.
        const scroller = table.locator('.ant-table-content');
        const view = (await scroller.boundingBox())!;
        const right = async (id: string) => {
          const box = (await lossyRow.getByTestId(id).boundingBox())!;
          return { left: box.x, right: box.x + box.width };
        };
        for (const id of ['fleet-loss-plant', 'top-loss'])
          expect((await right(id)).right, id).toBeLessThanOrEqual(view.x + view.width);
        await screenshot(page, 'fleet-losses-1440-light');
        await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
        await vi.waitFor(async () => {
          // Two hours of one inverter's data: the coverage is marked as under the threshold, and is in view.
          expect((await right('low-coverage')).right).toBeLessThanOrEqual(view.x + view.width);
          expect((await right('fleet-loss-plant')).left).toBeGreaterThanOrEqual(view.x);
        });
        await scroller.evaluate((el) => el.scrollTo({ left: 0 }));

        // The top cause opens the plant's page at that day, where the energy is the same figure.
        const cause = lossyRow.getByTestId('top-loss');
        expect((await cause.textContent())?.trim()).toBe(tr(`plantView.loss.${a.top_loss}`));
        await cause.click();
        await expectPath(page, `/santral-detay/${lossy.plant_id}`);
        expect(new URL(page.url()).searchParams.get('date')).toBe(date);
        await vi.waitFor(
          async () =>
            expect(await page.getByTestId('kpi-energy').textContent()).toContain(
              `${trNumber(a.energy_kwh!)} kWh`,
            ),
          { timeout: 10_000 },
        );
        expect(errors).toEqual([]);
      },
      DEMO.admin,
    ));

  it('keeps the plant and its top cause in view at 1440 px in German, whose headings are the widest', async () => {
    const { page, errors, close } = await openAs(browser, server.url, DEMO.admin, '/santraller?view=losses', {
      locale: 'de_DE',
      theme: 'dark',
      width: 1440,
    });
    try {
      const row = page.getByTestId('fleet-loss-table').getByTestId(`fleet-loss-row-${lossy.plant_id}`);
      await row.waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      const scroller = page.getByTestId('fleet-loss-table').locator('.ant-table-content');
      const view = (await scroller.boundingBox())!;
      const box = async (id: string) => (await row.getByTestId(id).boundingBox())!;
      const cause = await box('top-loss');
      expect(cause.x + cause.width).toBeLessThanOrEqual(view.x + view.width);
      await screenshot(page, 'fleet-losses-1440-dark-de');
      await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await vi.waitFor(async () => {
        const coverage = await box('low-coverage');
        expect(coverage.x + coverage.width).toBeLessThanOrEqual(view.x + view.width);
        expect((await box('fleet-loss-plant')).x).toBeGreaterThanOrEqual(view.x);
      });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows each plant as a card at 390 px, without sideways scrolling', () =>
    withPage(
      browser,
      server.url,
      'fleet-losses-phone',
      async (page) => {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto('/santraller?view=losses');
        const card = page.getByTestId(`fleet-loss-row-${lossy.plant_id}`);
        await card.waitFor({ timeout: PAGE_LOAD_TIMEOUT });
        expect(await page.getByTestId('fleet-loss-cards').locator('li').count()).toBe(plants.length);
        expect(await card.getByTestId('top-loss').isVisible()).toBe(true);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await screenshot(page, 'fleet-losses-390-light');
      },
      DEMO.admin,
    ));
});
