import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient } from '../src/console';
import { startServer, type RunningServer } from '../src/server';
import { openZonedPage } from '../src/zoned-page';

interface OverviewItem {
  plant_id: number;
  name: string;
  time_zone: string;
}
interface CatalogDevice {
  id: number;
  type: string;
  signals: { id: number; key: string }[];
}
interface AlarmRow {
  id: number;
  rule_id: number | null;
  plant_id: number;
}

/** A browser whose clock runs far from both demo zones (UTC-3, no summer time). */
const BROWSER_ZONE = 'America/Sao_Paulo';

/** `HH:mm` (or `HH:mm:ss`) of an instant on a zone's clock, as a Turkish reader sees it. */
const clock = (ms: number, timeZone: string, seconds = false): string =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
  }).format(ms);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

describe("plant time: every plant's time on the plant's clock, labelled when the browser's differs", () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let skopje: OverviewItem;
  let istanbul: OverviewItem;
  /** The instant of each plant's alarm (its start) and the alarm's id. */
  const alarms = new Map<number, { at: number; id: number }>();

  /** A signed-in page in the browser zone `timezoneId`, Turkish, at 1440 px (openZonedPage). */
  const openIn = (timezoneId: string, path: string) =>
    openZonedPage(browser, server.url, path, { timezoneId });

  /** The AC power signal of a plant's first inverter. */
  async function acPower(plantId: number): Promise<number> {
    const devices = (await api.get<{ devices: CatalogDevice[] }>(`telemetry/catalog?plant_id=${plantId}`))
      .devices;
    const inverter = devices.find(
      (d) => d.type === 'inverter' && d.signals.some((s) => s.key === 'ac_power'),
    )!;
    return inverter.signals.find((s) => s.key === 'ac_power')!.id;
  }

  /** Raises an alarm on the plant at `at`: a rule above 120 kW, normal readings before, 140 kW at `at`. */
  async function raiseAlarm(plant: OverviewItem, before: number[], at: number): Promise<void> {
    const signal = await acPower(plant.plant_id);
    const rule = await api.post<{ id: number }>('alarms/custom/0', {
      name: `E2E saat ${plant.name}`,
      description: 'Santral saati testi',
      priority_id: 3,
      tag_id: signal,
      operant: '>',
      value: 120,
      is_active: true,
    });
    await api.post('telemetry', {
      points: before.map((ts, i) => ({ signal_id: signal, ts, value: 50 + i })),
    });
    await api.post('telemetry', { points: [{ signal_id: signal, ts: at, value: 140 }] });
    await vi.waitFor(
      async () => {
        const alarm = (await api.get<AlarmRow[]>('alarms?status_id=1')).find((a) => a.rule_id === rule.id);
        expect(alarm).toBeDefined();
        alarms.set(plant.plant_id, { at, id: alarm!.id });
      },
      { timeout: 15_000, interval: 200 },
    );
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const plants = (await api.get<{ items: OverviewItem[] }>('plants/overview')).items;
    skopje = plants.find((p) => p.time_zone === 'Europe/Skopje')!;
    istanbul = plants.find((p) => p.time_zone === 'Europe/Istanbul')!;
    expect(skopje).toBeDefined();
    expect(istanbul).toBeDefined();
    // Readings from 11 to 7 minutes ago, one a minute, and the alarm's 140 kW 6 minutes ago (on a whole
    // second, so that every clock reads it the same): its 5-minute bucket is complete, so the power chart
    // draws it. All within the Skopje plant's local today (the chart shows today): in the first minutes
    // after Skopje's midnight, wait until they are.
    const localDay = (ts: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: skopje.time_zone }).format(ts);
    while (localDay(Date.now() - 11 * 60_000) !== localDay(Date.now()))
      await new Promise((r) => setTimeout(r, 10_000));
    const now = Math.floor(Date.now() / 1000) * 1000;
    const readings = Array.from({ length: 5 }, (_, i) => now - (11 - i) * 60_000);
    await raiseAlarm(skopje, readings, now - 6 * 60_000);
    await raiseAlarm(istanbul, [now - 120_000], now - 40_000);
  }, 15 * 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the plant page's power chart and the alarm table under it on the plant's clock, both labelled", async () => {
    const { page, context } = await openIn(BROWSER_ZONE, `/santral-detay/${skopje.plant_id}`);
    try {
      const zone = skopje.time_zone;
      const alarm = alarms.get(skopje.plant_id)!;
      // The alarm table: the start on Skopje's clock, named, not on the browser's.
      const started = page.locator(`[data-testid="plant-alarms"] tr[data-row-key="${alarm.id}"] td`).first();
      await vi.waitFor(
        async () =>
          expect((await started.textContent())?.trim()).toMatch(
            new RegExp(`${clock(alarm.at, zone)} \\(${escape(zone)}\\)$`),
          ),
        { timeout: 10_000 },
      );
      expect(await started.textContent()).not.toContain(clock(alarm.at, BROWSER_ZONE));

      // The chart card says whose clock its axis runs on.
      await page.getByTestId('power-chart').locator('canvas').first().waitFor();
      expect((await page.getByTestId('power-chart-zone').textContent())?.trim()).toBe(
        `Santral saati: ${zone}`,
      );

      // The tooltip: find the 5-minute bucket of the alarm's instant by moving along the axis; its time
      // reads as the alarm table's clock, with the zone's name.
      const bucket = Math.floor(alarm.at / 300_000) * 300_000;
      const header = await tooltipAt(page, bucket, zone);
      expect(header).toBe(`${clock(bucket, zone)} (${zone})`);
      // The chart's hour is the table's hour: one clock on the page.
      expect(header.slice(0, 2)).toBe(clock(alarm.at, zone).slice(0, 2));
      await screenshot(page, 'plant-time-detail');
    } finally {
      await context.close();
    }
  });

  it("shows each /alarms row on its own plant's clock: two zones, each named where the browser differs", async () => {
    for (const browserZone of [BROWSER_ZONE, 'Europe/Skopje']) {
      const { page, context } = await openIn(browserZone, '/alarms');
      try {
        for (const plant of [skopje, istanbul]) {
          const alarm = alarms.get(plant.plant_id)!;
          const cell = page.locator(`[data-testid="alarm-table"] tr[data-row-key="${alarm.id}"] td`).nth(4);
          const time = clock(alarm.at, plant.time_zone, true);
          // Skopje's own browser needs no label on Skopje's rows; Istanbul's stay named.
          const label = browserZone === plant.time_zone ? '' : ` (${plant.time_zone})`;
          await vi.waitFor(
            async () =>
              expect((await cell.textContent())?.trim()).toMatch(new RegExp(`${time}${escape(label)}$`)),
            { timeout: 10_000 },
          );
        }
        // Two hours apart on the page, as on the plants' clocks (winter: UTC+1 and UTC+3).
        await screenshot(page, `plant-time-alarms-${browserZone.replace('/', '-')}`);
      } finally {
        await context.close();
      }
    }
  });

  it("shows the dashboard's active alarms and the fault list on each plant's clock, named", async () => {
    await api.post('users/dashboard', {
      data: {
        version: 2,
        widgets: [{ id: 'alarms', type: 'active_alarms', settings: {} }],
        layouts: { lg: [{ i: 'alarms', x: 0, y: 0, w: 12, h: 6 }] },
      },
    });
    const skopjeAlarm = alarms.get(skopje.plant_id)!;
    const istanbulAlarm = alarms.get(istanbul.plant_id)!;
    const dashboard = await openIn(BROWSER_ZONE, '/dashboard');
    try {
      for (const [plant, alarm] of [
        [skopje, skopjeAlarm],
        [istanbul, istanbulAlarm],
      ] as const) {
        const started = dashboard.page.getByTestId(`active-alarm-started-${alarm.id}`);
        await vi.waitFor(
          async () =>
            expect((await started.textContent())?.trim()).toMatch(
              new RegExp(`${clock(alarm.at, plant.time_zone)} \\(${escape(plant.time_zone)}\\)$`),
            ),
          { timeout: 10_000 },
        );
      }
      await screenshot(dashboard.page, 'plant-time-dashboard');
    } finally {
      await dashboard.context.close();
    }

    // The Istanbul alarm approved into a fault: detected at the alarm's start, on Istanbul's clock.
    const { fault_id: faultId } = await api.post<{ fault_id: number }>(
      `alarms/${istanbulAlarm.id}/fault`,
      {},
    );
    const faults = await openIn(BROWSER_ZONE, '/fault');
    try {
      const detected = faults.page.getByTestId(`fault-detected-${faultId}`);
      await vi.waitFor(
        async () =>
          expect((await detected.textContent())?.trim()).toMatch(
            new RegExp(`${clock(istanbulAlarm.at, istanbul.time_zone)} \\(${escape(istanbul.time_zone)}\\)$`),
          ),
        { timeout: 10_000 },
      );
      await screenshot(faults.page, 'plant-time-faults');
    } finally {
      await faults.context.close();
    }
  });
});

/**
 * Moves the mouse along the power chart until its tooltip shows the 5-minute bucket starting at `target`
 * (a bisection on the x position: the time axis grows to the right), and answers the tooltip's first line.
 */
async function tooltipAt(page: Page, target: number, zone: string): Promise<string> {
  const chart = page.getByTestId('power-chart');
  const box = (await chart.boundingBox())!;
  const tooltip = chart.locator('div[style*="z-index: 9999999"]');
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const wanted = minutes(clock(target, zone));
  let left = box.x + 1;
  let right = box.x + box.width - 1;
  let header = '';
  for (let i = 0; i < 30; i++) {
    const x = (left + right) / 2;
    await page.mouse.move(x, box.y + box.height / 2);
    await tooltip.waitFor({ state: 'visible', timeout: 3_000 }).catch(() => undefined);
    header = ((await tooltip.innerText().catch(() => '')) ?? '').split('\n')[0]!.trim();
    const shown = /^(\d{2}:\d{2})/.exec(header);
    if (!shown) {
      // Outside the plot (the axis labels' margin): step inwards.
      if (x - box.x < box.width / 2) left = x;
      else right = x;
      continue;
    }
    const at = minutes(shown[1]!);
    if (at === wanted) return header;
    if (at < wanted) left = x;
    else right = x;
    if (right - left < 0.5) break;
  }
  return header;
}
