import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, launchBrowser, PAGE_LOAD_TIMEOUT, screenshot } from '../src/browser';
import { ApiClient, expectText, pickOption, tr } from '../src/console';
import { startServer, type RunningServer } from '../src/server';
import { localDay, lookInBothThemes, openZonedPage, wall } from '../src/zoned-page';

interface OverviewItem {
  plant_id: number;
  name: string;
  time_zone: string;
}
interface CatalogDevice {
  id: number;
  name: string;
  type: string;
  signals: { id: number; key: string; name: string; unit: string | null }[];
}
interface Named {
  id: number;
  name: string;
}

/** A browser whose clock runs far from the demo plants' zones (UTC-3, no summer time). */
const BROWSER_ZONE = 'America/Sao_Paulo';
const MINUTE = 60_000;

/** A 4×3 red PNG: the smallest real image the camera proxy accepts. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGP4z8AARww4OQD1MQv1NXv7ggAAAABJRU5ErkJggg==',
  'base64',
);

/** An instant as a Turkish reader sees it on a zone's clock: `29.11.2026 14:33[:05]`, or the time alone. */
function turkish(ms: number, timeZone: string, shape: 'dateTime' | 'dateTimeSeconds' | 'time'): string {
  const w = wall(ms, timeZone);
  const time = `${w.hour}:${w.minute}`;
  if (shape === 'time') return time;
  const date = `${w.day}.${w.month}.${w.year}`;
  return shape === 'dateTime' ? `${date} ${time}` : `${date} ${time}:${w.second}`;
}

describe('plant time on the data page, dashboard widgets, inverter chart, single-line drawer and cameras', () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let camServer: http.Server;
  let plant: OverviewItem;
  let inverter: CatalogDevice;
  let acPower: CatalogDevice['signals'][number];
  let meter: CatalogDevice;
  let camera: Named;
  /** The instants of the inverter's AC power readings (value 101 + index), oldest first. */
  const readings: number[] = [];

  /** A signed-in page in the browser zone `timezoneId` (BROWSER_ZONE unless told); see openZonedPage. */
  const openIn = (path: string, options: { timezoneId?: string; locale?: string } = {}) =>
    openZonedPage(browser, server.url, path, { timezoneId: BROWSER_ZONE, ...options });

  beforeAll(async () => {
    // No simulator: the only readings are the ones this test sends.
    [server, browser] = await Promise.all([
      startServer({ SIMULATOR: 'false', MODBUS_POLLER: 'false' }),
      launchBrowser(),
    ]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const plants = (await api.get<{ items: OverviewItem[] }>('plants/overview')).items;
    plant = plants.find((p) => p.time_zone === 'Europe/Skopje')!;
    expect(plant).toBeDefined();
    const devices = (
      await api.get<{ devices: CatalogDevice[] }>(`telemetry/catalog?plant_id=${plant.plant_id}`)
    ).devices;
    inverter = devices.find((d) => d.type === 'inverter' && d.signals.some((s) => s.key === 'ac_power'))!;
    acPower = inverter.signals.find((s) => s.key === 'ac_power')!;
    meter = devices.find((d) => d.type === 'meter' && d.signals.length > 0)!;
    expect(meter).toBeDefined();

    // A camera of the plant, answered by a local HTTP server.
    camServer = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
    );
    await new Promise<void>((r) => camServer.listen(0, '127.0.0.1', r));
    camera = await api.post<Named>('devices/0', {
      plant_id: plant.plant_id,
      type: 'camera',
      protocol: 'http',
      name: 'E2E Saat Kamerası',
      snapshot_url: `http://127.0.0.1:${(camServer.address() as AddressInfo).port}/snap.png`,
    });

    // Ten readings half a minute apart, on whole seconds, ending a minute ago: all inside the plant's today
    // (the data page's range and the inverter's day chart). In the first minutes after its midnight, wait.
    const zone = plant.time_zone;
    while (localDay(Date.now() - 7 * MINUTE, zone) !== localDay(Date.now(), zone))
      await new Promise((r) => setTimeout(r, 10_000));
    const end = Math.floor((Date.now() - MINUTE) / 1000) * 1000;
    for (let i = 0; i < 10; i++) readings.push(end - (9 - i) * 30_000);
    const meterSignal = meter.signals[0]!;
    const answer = await api.post<{ stored: number }>('telemetry', {
      points: [
        ...readings.map((ts, i) => ({ signal_id: acPower.id, ts, value: 101 + i })),
        { signal_id: meterSignal.id, ts: end, value: 1 },
      ],
    });
    expect(answer.stored).toBe(11);
  }, 10 * MINUTE);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    camServer?.close();
  });

  it("shows the data page's chart and current values on the plant's clock, named", async () => {
    const { page, context } = await openIn('/data');
    try {
      const zone = plant.time_zone;
      await pickOption(page, 'data-plant', plant.name, { escape: true });
      await pickOption(page, 'data-devices', inverter.name, { escape: true });
      await pickOption(page, 'data-signals', acPower.name, { escape: true });
      await pickOption(page, 'data-resolution', tr('data.resolutions.raw'));
      const chart = page.getByTestId('data-chart');
      await chart.locator('canvas').first().waitFor();
      expect(await chart.getAttribute('data-zone')).toBe(zone);
      await expectText(page.getByTestId('data-chart-zone'), `Santral saati: ${zone}`);

      // The current value's time: the newest reading on the plant's clock, with seconds, named.
      const newest = readings.at(-1)!;
      await expectText(
        page.getByTestId(`live-time-${acPower.id}`),
        `${turkish(newest, zone, 'dateTimeSeconds')} (${zone})`,
      );
      // The tooltip names the plant's clock time of the reading under the pointer (its value says which).
      const { header, value } = await tooltipOf(chart);
      expect(header).toBe(`${turkish(readings[value - 101]!, zone, 'dateTimeSeconds')} (${zone})`);
      await lookInBothThemes(page, 'plant-time-data', async () => {
        await chart.locator('canvas').first().waitFor();
      });
    } finally {
      await context.close();
    }
  });

  it("shows a signal widget's time and trend on the plant's clock, named", async () => {
    await api.post('users/dashboard', {
      data: {
        version: 2,
        widgets: [
          {
            id: 'gauge',
            type: 'signal',
            settings: { plant_id: plant.plant_id, signal_id: acPower.id, period: 'day', display: 'gauge' },
          },
          {
            id: 'trend',
            type: 'signal',
            settings: { plant_id: plant.plant_id, signal_id: acPower.id, period: 'day', display: 'trend' },
          },
        ],
        layouts: {
          lg: [
            { i: 'gauge', x: 0, y: 0, w: 4, h: 6 },
            { i: 'trend', x: 4, y: 0, w: 8, h: 6 },
          ],
        },
      },
    });
    const { page, context } = await openIn('/dashboard');
    try {
      const zone = plant.time_zone;
      // The gauge: the current value's time on the plant's clock, named.
      await expectText(page.getByTestId('signal-at'), `${turkish(readings.at(-1)!, zone, 'time')} (${zone})`);
      // The trend: its tooltip reads the plant's clock too.
      const chart = page.getByTestId('widget-signal-chart');
      await chart.locator('canvas').first().waitFor();
      const { header, value } = await tooltipOf(chart);
      expect(header).toBe(`${turkish(readings[value - 101]!, zone, 'dateTime')} (${zone})`);
      await lookInBothThemes(page, 'plant-time-dashboard-signal', async () => {
        await chart.locator('canvas').first().waitFor();
      });
    } finally {
      await context.close();
    }
  });

  it("shows the inverter's last data and day chart on the plant's clock, named", async () => {
    const { page, context } = await openIn(`/inverter-detay/${inverter.id}`);
    try {
      const zone = plant.time_zone;
      await expectText(page.getByTestId('inverter-chart-zone'), `Santral saati: ${zone}`);
      const chart = page.getByTestId('inverter-power-chart');
      await chart.locator('canvas').first().waitFor();
      expect(await chart.getAttribute('data-zone')).toBe(zone);
      // Last data: the newest sample of any of its signals, on the plant's clock.
      const last = (await api.get<{ last_data_at: string }>(`inverters/${inverter.id}/summary`)).last_data_at;
      await expectText(
        page.getByTestId('inverter-last-data'),
        `${turkish(Date.parse(last), zone, 'dateTime')} (${zone})`,
      );
      // The chart's 5-minute buckets: the tooltip's time is a bucket start of the readings, on the plant's clock.
      const buckets = new Set(
        readings.map(
          (ts) => `${turkish(Math.floor(ts / 300_000) * 300_000, zone, 'dateTimeSeconds')} (${zone})`,
        ),
      );
      const { header } = await tooltipOf(chart, () => true);
      expect([...buckets]).toContain(header);
      await lookInBothThemes(page, 'plant-time-inverter', async () => {
        await chart.locator('canvas').first().waitFor();
      });
    } finally {
      await context.close();
    }
  });

  it("shows the single-line drawer's last data on the plant's clock, named", async () => {
    const { page, context } = await openIn(`/single-line?plant=${plant.plant_id}`);
    try {
      const zone = plant.time_zone;
      const status = await api.get<{ items: { device_id: number; last_data_at: string | null }[] }>(
        `plants/${plant.plant_id}/devices/status`,
      );
      const last = status.items.find((i) => i.device_id === meter.id)!.last_data_at!;
      // elkjs lays the diagram out first: on a loaded machine that takes seconds.
      await page.getByTestId('sl-diagram').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      await page.locator(`[data-device-id="${meter.id}"]`).first().click();
      await expectText(
        page.getByTestId('sl-drawer-last-data'),
        `${turkish(Date.parse(last), zone, 'dateTime')} (${zone})`,
      );
      await lookInBothThemes(page, 'plant-time-single-line-drawer', async () => {
        const last = page.getByTestId('sl-drawer-last-data');
        if (!(await last.isVisible())) await page.locator(`[data-device-id="${meter.id}"]`).first().click();
        await last.waitFor();
      });
    } finally {
      await context.close();
    }
  });

  it("shows a camera picture's time on the plant's clock, named", async () => {
    const { page, context } = await openIn(`/kamera-detay/${camera.id}`);
    try {
      const zone = plant.time_zone;
      await page.getByTestId('camera-image').waitFor();
      const caption = page.getByTestId('camera-updated');
      // The picture's time is the moment it arrived (within the few seconds of a refresh), on Skopje's clock.
      await vi.waitFor(
        async () => {
          const text = (await caption.textContent())?.trim() ?? '';
          const shown = /^Güncellendi: (\d{2}):(\d{2}):(\d{2}) \((.+)\)$/.exec(text);
          expect(shown, text).not.toBeNull();
          expect(shown![4]).toBe(zone);
          const now = wall(Date.now(), zone);
          const seconds = (h: string, m: string, s: string) => Number(h) * 3600 + Number(m) * 60 + Number(s);
          const apart = Math.abs(
            seconds(now.hour, now.minute, now.second) - seconds(shown![1]!, shown![2]!, shown![3]!),
          );
          expect(Math.min(apart, 86_400 - apart)).toBeLessThan(60);
        },
        { timeout: 15_000, interval: 250 },
      );
      await lookInBothThemes(page, 'plant-time-camera', async () => {
        await page.getByTestId('camera-image').waitFor();
      });
    } finally {
      await context.close();
    }
  });

  it("shows the device form's ingest key time on the plant's clock, named", async () => {
    const key = await api.post<{ created_at: string }>(`devices/${meter.id}/ingest-key`, {});
    const { page, context } = await openIn('/device-management');
    try {
      const zone = plant.time_zone;
      await page
        .locator('input[data-testid="device-search"], [data-testid="device-search"] input')
        .first()
        .fill(meter.name);
      await page.getByTestId(`device-edit-${meter.id}`).click();
      await expectText(
        page.getByTestId('ingest-key-created'),
        `${turkish(Date.parse(key.created_at), zone, 'dateTime')} (${zone})`,
      );
    } finally {
      await context.close();
    }
  });

  it("shows date pickers in the page's date format: DD.MM.YYYY in Turkish, MM/DD/YYYY in English", async () => {
    const today = localDay(Date.now(), plant.time_zone).split('-');
    const [year, month, day] = today as [string, string, string];
    for (const [locale, expected] of [
      ['tr_TR', `${day}.${month}.${year}`],
      ['en_US', `${month}/${day}/${year}`],
    ] as const) {
      const { page, context } = await openIn(`/inverter-detay/${inverter.id}`, { locale });
      try {
        const input = page
          .locator('input[data-testid="inverter-day"], [data-testid="inverter-day"] input')
          .first();
        await vi.waitFor(async () => expect(await input.inputValue()).toBe(expected), { timeout: 10_000 });
        if (locale === 'tr_TR') {
          // A Turkish date typed in the same format is read: the page moves to that day (yesterday).
          const [y, m, d] = localDay(Date.now() - 86_400_000, plant.time_zone).split('-') as [
            string,
            string,
            string,
          ];
          await input.click();
          await input.fill(`${d}.${m}.${y}`);
          await input.press('Enter');
          await vi.waitFor(async () => expect(await input.inputValue()).toBe(`${d}.${m}.${y}`));
          await screenshot(page, 'plant-time-date-picker-tr');
        }
      } finally {
        await context.close();
      }
    }
  });
});

/**
 * Moves the pointer across a chart until its tooltip shows a time and a reading, and answers the tooltip's
 * first line and the reading's value (a whole number). `accept` decides which tooltips count.
 */
async function tooltipOf(
  chart: Locator,
  accept: (value: number) => boolean = (v) => Number.isInteger(v) && v >= 101 && v <= 110,
): Promise<{ header: string; value: number }> {
  const page = chart.page();
  const box = (await chart.boundingBox())!;
  const tooltip = chart.locator('div[style*="z-index: 9999999"]');
  let seen = '';
  for (let step = 1; step < 40; step++) {
    // From the middle outwards: the readings sit somewhere along the axis.
    const offset = (step % 2 === 0 ? 1 : -1) * Math.floor(step / 2) * (box.width / 40);
    await page.mouse.move(box.x + box.width / 2 + offset, box.y + box.height / 2);
    await tooltip.waitFor({ state: 'visible', timeout: 2_000 }).catch(() => undefined);
    seen = ((await tooltip.innerText().catch(() => '')) ?? '').trim();
    const [header, ...lines] = seen.split('\n').map((l) => l.trim());
    const value = Number(
      /:\s*([\d.,]+)/
        .exec(lines[0] ?? '')?.[1]
        ?.replace(/\./g, '')
        .replace(',', '.'),
    );
    if (header && /\d{2}:\d{2}/.test(header) && Number.isFinite(value) && accept(value))
      return { header, value };
  }
  throw new Error(`no tooltip with a reading; last seen: ${seen}`);
}
