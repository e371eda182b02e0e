import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { localMidnight } from '@solar/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectText, pickOption, tr, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface Named {
  id: number;
  name: string;
}
interface SignalRow extends Named {
  key: string;
  unit: string | null;
}

describe('data page', () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let plant: Named & { time_zone: string };
  let device: Named;
  let signal: SignalRow;

  beforeAll(async () => {
    // No simulator: the only values of the signal are the ones this test sends.
    [server, browser] = await Promise.all([
      startServer({ SIMULATOR: 'false', MODBUS_POLLER: 'false' }),
      launchBrowser(),
    ]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    plant = (await api.get<{ items: (Named & { time_zone: string })[] }>('plants?sort=name&pageSize=200'))
      .items[0]!;
    // The first device (by name) that has signals, and one of its signals with a unit.
    const devices = (await api.get<{ items: Named[] }>(`devices?plant_id=${plant.id}&sort=name&pageSize=200`))
      .items;
    for (const candidate of devices) {
      const signals = (
        await api.get<{ items: SignalRow[] }>(`signals?device_id=${candidate.id}&sort=name&pageSize=200`)
      ).items;
      const withUnit = signals.find((s) => s.unit) ?? signals[0];
      if (withUnit) {
        device = candidate;
        signal = withUnit;
        break;
      }
    }
    expect(signal).toBeDefined();
    // Ten readings ending a moment ago, all inside today: the page's default range is the plant's local
    // day (its times are on the plant's clock), so a run just after the plant's midnight must not put some
    // of them in yesterday. Normally one a minute; closer together in the first ten minutes of a day.
    let now = Date.now();
    const sinceMidnight = () =>
      now -
      localMidnight(
        new Intl.DateTimeFormat('en-CA', { timeZone: plant.time_zone }).format(now),
        plant.time_zone,
      );
    if (sinceMidnight() < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 30_000 - sinceMidnight() + 1_000));
      now = Date.now();
    }
    const step = Math.min(60_000, Math.floor((sinceMidnight() - 1_000) / 10));
    const points = Array.from({ length: 10 }, (_, i) => ({
      signal_id: signal.id,
      ts: now - (10 - i) * step,
      value: 100 + i,
    }));
    const answer = await api.post<{ stored: number }>('telemetry', { points });
    expect(answer.stored).toBe(10);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('charts a stored signal, shows a new value pushed live without a reload, and downloads CSV', () =>
    withPage(
      browser,
      server.url,
      'data-live',
      async (page) => {
        await page.goto('/data');
        await expectText(page.getByTestId('page-title'), tr('pages.data'));
        await page.getByTestId('data-empty').waitFor();
        await pickOption(page, 'data-plant', plant.name, { escape: true });
        await pickOption(page, 'data-devices', device.name, { escape: true });
        await pickOption(page, 'data-signals', signal.name, { escape: true });

        // The chart: a canvas with one series holding the ten stored points.
        const chart = page.getByTestId('data-chart');
        await chart.locator('canvas').first().waitFor();
        await vi.waitFor(async () => expect(await chart.getAttribute('data-series-count')).toBe('1'));
        expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(0);

        // The current value starts from the stored one, then follows the live push.
        const cell = page.getByTestId(`live-value-${signal.id}`);
        await expectText(cell, '109');
        await vi.waitFor(
          async () => expect(await page.getByTestId('live-status').getAttribute('data-status')).toBe('open'),
          { timeout: 10_000 },
        );
        const navigations: string[] = [];
        page.on('framenavigated', (frame) => navigations.push(frame.url()));
        // Subscriptions are sent a moment after the connection opens: send until the value shows.
        let value = 4242.5;
        await vi.waitFor(
          async () => {
            value += 1;
            await api.post('telemetry', { points: [{ signal_id: signal.id, ts: Date.now(), value }] });
            await expectText(cell, new Intl.NumberFormat('tr-TR').format(value), 1_500);
          },
          { timeout: 15_000, interval: 100 },
        );
        expect(navigations).toEqual([]);
        await screenshot(page, 'data-page-light');

        // CSV download with the auth header; the file holds the readings.
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByTestId('data-download-csv').click(),
        ]);
        expect(download.suggestedFilename()).toMatch(/\.csv$/);
        // `<plant>_<from>_<to>.csv`, the plant's name kept with its Turkish letters.
        expect(download.suggestedFilename()).toMatch(
          new RegExp(`^${plant.name.split(' ')[0]!}.*_\\d{4}-\\d{2}-\\d{2}_\\d{4}-\\d{2}-\\d{2}\\.csv$`, 'u'),
        );
        const csv = readFileSync(await download.path(), 'utf8');
        const [header, ...rows] = csv
          .replace(/^\uFEFF/, '')
          .trim()
          .split(/\r?\n/);
        // In Turkish the page offers `;` with a decimal comma first, as Turkish Excel reads it; the plant
        // comes first so that the same signal of two plants can be told apart.
        expect(header!.split(';')).toEqual(expect.arrayContaining(['plant', 'signal_id', 'value']));
        expect(rows.length).toBeGreaterThanOrEqual(10);
        const cells = rows.map((r) => r.split(';'));
        expect(cells.every((c) => c[0] === plant.name && c[1] === String(signal.id))).toBe(true);
        expect(cells.map((c) => c.at(-1))).toEqual(expect.arrayContaining(['100', '105', '109']));
      },
      DEMO.admin,
    ));

  it('lets the demo operator, who lacks the management pages, choose a plant, device and signal and see the chart', async () => {
    // The operator reaches company 1 only and may not list plants, devices or signals for management.
    const operator = await ApiClient.login(server.url, DEMO.operator.email, DEMO.operator.password);
    await expect(operator.get('plants?pageSize=1')).rejects.toThrow(/: 403 /);
    const catalog = await operator.get<{ plants: Named[] }>('telemetry/catalog');
    expect(catalog.plants.map((p) => p.id)).toContain(plant.id);
    const all = (await api.get<{ items: Named[] }>('plants?sort=name&pageSize=200')).items;
    expect(catalog.plants.length).toBeLessThan(all.length);

    await withPage(
      browser,
      server.url,
      'data-operator',
      async (page) => {
        await page.goto('/data');
        await expectText(page.getByTestId('page-title'), tr('pages.data'));
        await page.getByTestId('data-empty').waitFor();
        // Only the operator's plants are offered.
        await page.getByTestId('data-plant').click();
        const options = page.locator(
          '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option',
        );
        await options.first().waitFor();
        const offered = await options.allTextContents();
        const foreign = all.filter((p) => !catalog.plants.some((c) => c.id === p.id));
        for (const p of foreign) expect(offered).not.toContain(p.name);
        await page.keyboard.press('Escape');

        await pickOption(page, 'data-plant', plant.name, { escape: true });
        await pickOption(page, 'data-devices', device.name, { escape: true });
        await pickOption(page, 'data-signals', signal.name, { escape: true });
        const chart = page.getByTestId('data-chart');
        await chart.locator('canvas').first().waitFor();
        await vi.waitFor(async () => expect(await chart.getAttribute('data-series-count')).toBe('1'));
        expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(0);
        await expect(page.getByTestId('data-error').count()).resolves.toBe(0);
      },
      DEMO.operator,
    );
  });

  it('creates an ingest key on the device form, shows it once, then only its prefix, and revokes it', () =>
    withPage(
      browser,
      server.url,
      'data-ingest-key',
      async (page) => {
        await page.goto('/device-management');
        await page.getByTestId(`device-edit-${device.id}`).click();
        const section = page.getByTestId('ingest-key-section');
        await section.getByTestId('ingest-key-none').waitFor();
        await section.getByTestId('ingest-key-create').click();
        const shown = page.getByTestId('ingest-key-value');
        await shown.waitFor();
        const key = (await shown.textContent())?.trim() ?? '';
        expect(key.length).toBeGreaterThan(16);
        expect(await page.locator('.ant-modal').textContent()).toContain(tr('devices.ingestKey.shownOnce'));
        await page.getByTestId('ingest-key-done').click();
        await shown.waitFor({ state: 'detached' });
        const prefix = (await section.getByTestId('ingest-key-prefix').textContent())?.replace('…', '') ?? '';
        expect(key.startsWith(prefix)).toBe(true);

        // The key works for ingest without a session.
        const res = await fetch(`${server.url}/api/telemetry`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ points: [{ signal_id: signal.id, ts: Date.now() - 5_000, value: 1 }] }),
        });
        expect(res.status).toBe(200);

        await section.getByTestId('ingest-key-revoke').click();
        await page.locator('.ant-popconfirm .ant-btn-primary').click();
        await section.getByTestId('ingest-key-none').waitFor();
      },
      DEMO.admin,
    ));
});
