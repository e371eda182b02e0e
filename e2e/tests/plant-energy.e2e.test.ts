import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, launchBrowser, PAGE_LOAD_TIMEOUT, screenshot } from '../src/browser';
import { ApiClient, tokenFor, tr } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface OverviewItem {
  plant_id: number;
  name: string;
  time_zone: string;
}
interface KpisAnswer {
  date: string;
  energy_source: 'meter' | 'inverters' | 'none';
}
interface CatalogDevice {
  type: string;
  signals: { id: number; key: string }[];
}
interface PowerAnswer {
  energy_source: 'meter' | 'inverters' | 'none';
  points: { meter_power_kw: number | null }[];
}

/** A zone's calendar date at `ms`, YYYY-MM-DD. */
const dateIn = (ms: number, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(ms);
const nextDate = (date: string) =>
  new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
/** Share of the inverters' energy the meter sees (cable, transformer and own use take the rest). */
const METER_SHARE = 0.95;

/**
 * A browser zone whose date differs from the plant's now: Honolulu (UTC-10) is still on the plant's
 * yesterday in the plant's morning, Kiritimati (UTC+14) already on its tomorrow in its afternoon.
 */
function zoneOnAnotherDay(plantZone: string, now: number): string {
  const zone = ['Pacific/Honolulu', 'Pacific/Kiritimati'].find(
    (z) => dateIn(now, z) !== dateIn(now, plantZone),
  );
  if (!zone) throw new Error('no browser zone on another day than the plant');
  return zone;
}

describe("plant energy: one figure, its source named; the plant page's today is the plant's", () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let plant: OverviewItem;
  /** The plant's yesterday, whose morning has inverter and meter readings. */
  let yesterday: string;

  /**
   * Two hours of the plant's morning on `date` (Istanbul is UTC+3 all year): each inverter's counter 2 kWh
   * a step, the meter's export counter 95 % of their sum, irradiance 800 W/m².
   */
  async function postMorning(date: string) {
    const devices = (
      await api.get<{ devices: CatalogDevice[] }>(`telemetry/catalog?plant_id=${plant.plant_id}`)
    ).devices;
    const signal = (d: CatalogDevice | undefined, key: string) => d?.signals.find((s) => s.key === key)?.id;
    const inverters = devices.filter((d) => d.type === 'inverter' && signal(d, 'total_energy'));
    const meter = signal(
      devices.find((d) => d.type === 'meter' && signal(d, 'export_energy')),
      'export_energy',
    );
    const poa = signal(
      devices.find((d) => signal(d, 'irradiance')),
      'irradiance',
    );
    expect(inverters.length).toBeGreaterThan(0);
    expect(meter).toBeDefined();
    const points: { signal_id: number; ts: number; value: number }[] = [];
    for (let i = 0; i <= 24; i++) {
      const ts = Date.parse(`${date}T10:00:00+03:00`) + i * 300_000;
      for (const inv of inverters)
        points.push({ signal_id: signal(inv, 'total_energy')!, ts, value: 5000 + 2 * i });
      points.push({ signal_id: meter!, ts, value: 90_000 + 2 * i * inverters.length * METER_SHARE });
      if (i > 0 && poa) points.push({ signal_id: poa, ts: ts + 60_000, value: 800 });
    }
    await api.post('telemetry', { points });
  }

  /** A signed-in Turkish page in the browser zone `timezoneId`. */
  async function openIn(
    timezoneId: string,
    path: string,
    width = 1440,
  ): Promise<{ page: Page; context: BrowserContext }> {
    const token = await tokenFor(server.url, DEMO.admin);
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width, height: 900 },
      locale: 'tr-TR',
      timezoneId,
      storageState: {
        cookies: [],
        origins: [{ origin: server.url, localStorage: [{ name: 'token', value: token }] }],
      },
    });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('[page error]', error.message));
    await page.goto(path);
    await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
    return { page, context };
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const plants = (await api.get<{ items: OverviewItem[] }>('plants/overview')).items;
    plant = plants.find((p) => p.time_zone === 'Europe/Istanbul')!;
    expect(plant).toBeDefined();
    yesterday = dateIn(Date.now() - 86_400_000, plant.time_zone);
    await postMorning(yesterday);
    // The KPI engine takes the day once its points are marked: until then the day has no figures.
    await vi.waitFor(
      async () =>
        expect(
          (await api.get<KpisAnswer>(`plants/${plant.plant_id}/kpis?period=day&date=${yesterday}`))
            .energy_source,
        ).toBe('meter'),
      { timeout: 30_000, interval: 250 },
    );
  }, 15 * 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("names the energy charts' source and the power chart's meter and inverter-sum series", async () => {
    const month = await api.get<KpisAnswer>(`plants/${plant.plant_id}/kpis?period=month&date=${yesterday}`);
    const year = await api.get<KpisAnswer>(`plants/${plant.plant_id}/kpis?period=year`);
    const power = await api.get<PowerAnswer>(`plants/${plant.plant_id}/power?date=${yesterday}`);
    // The plant has a grid meter with readings: its energy is the meter's.
    expect(month.energy_source).toBe('meter');
    expect(power.energy_source).toBe('meter');
    const { page, context } = await openIn(
      'Europe/Istanbul',
      `/santral-detay/${plant.plant_id}?date=${yesterday}`,
    );
    try {
      const monthSource = tr(`plantView.kpi.source.${month.energy_source}`);
      await vi.waitFor(
        async () =>
          expect((await page.getByTestId('month-energy-source').textContent())?.trim()).toBe(monthSource),
        { timeout: 15_000, interval: 200 },
      );
      expect(await page.getByTestId('month-chart').getAttribute('aria-label')).toContain(monthSource);
      const yearSource = tr(`plantView.kpi.source.${year.energy_source}`);
      expect((await page.getByTestId('year-energy-source').textContent())?.trim()).toBe(yearSource);
      expect(await page.getByTestId('year-chart').getAttribute('aria-label')).toContain(yearSource);

      // The power chart names its curves: the inverters' sum always, the meter's when it has readings.
      const chart = page.getByTestId('power-chart');
      await chart.waitFor();
      const label = (await chart.getAttribute('aria-label')) ?? '';
      expect(label).toContain(tr('plantView.chart.inverterSum'));
      expect(power.points.some((p) => p.meter_power_kw !== null)).toBe(true);
      expect(label).toContain(tr('plantView.chart.meter'));
      // The energy tile names the same source.
      expect(await page.getByTestId('kpi-energy').textContent()).toContain(tr('plantView.kpi.source.meter'));
      await screenshot(page, 'plant-energy-sources');
    } finally {
      await context.close();
    }
  });

  it("opens on the plant's today, offers no later day and no earlier 'today', whatever the browser's date", async () => {
    const now = Date.now();
    const browserZone = zoneOnAnotherDay(plant.time_zone, now);
    const { page, context } = await openIn(browserZone, `/santral-detay/${plant.plant_id}`);
    try {
      // The server's today for the plant, which the page asks for without a date.
      const today = (await api.get<KpisAnswer>(`plants/${plant.plant_id}/kpis?period=day`)).date;
      expect(today).toBe(dateIn(now, plant.time_zone));
      expect(dateIn(now, browserZone)).not.toBe(today);

      const input = page.locator('input[data-testid="plant-day"], [data-testid="plant-day"] input').first();
      // In the page's Turkish date format (dd.MM.yyyy), as every date picker shows it.
      const shown = (date: string) => date.split('-').reverse().join('.');
      await vi.waitFor(async () => expect(await input.inputValue()).toBe(shown(today)), {
        timeout: 15_000,
        interval: 200,
      });
      // The year selector and the month chart are the plant's current year and month.
      await vi.waitFor(
        async () =>
          expect((await page.getByTestId('year-title').textContent())?.trim()).toContain(today.slice(0, 4)),
        { timeout: 15_000, interval: 200 },
      );

      await input.click();
      // The calendar's cells are titled in the same format.
      const cell = (date: string) => page.locator(`td.ant-picker-cell[title="${shown(date)}"]`).first();
      await cell(today).waitFor();
      // The plant's today can be picked; its tomorrow cannot, whatever day the browser is on.
      expect(await cell(today).getAttribute('class')).not.toContain('ant-picker-cell-disabled');
      expect(await cell(nextDate(today)).getAttribute('class')).toContain('ant-picker-cell-disabled');
      await screenshot(page, `plant-energy-today-${browserZone.replace('/', '-')}`);
    } finally {
      await context.close();
    }
  });
});
