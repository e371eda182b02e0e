import type { Browser } from 'playwright-core';
import { localMidnight } from '@solar/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, animationsDone, artifactsDir, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectText, pickOption, tr, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface Named {
  id: number;
  name: string;
}
interface Device extends Named {
  rated_power_kw: number | null;
  poll_interval_s: number;
}
interface Signal extends Named {
  key: string;
}
interface Flag {
  id: number;
  signal_id: number | null;
  reason: string;
  from: string;
  to: string;
}

const HOUR = 3_600_000;

describe('data-quality bands on the data page chart', () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let plant: Named & { time_zone: string };
  let device: Device;
  let signal: Signal;
  let stuck: Flag;
  /** The plant's local midnight that starts yesterday, and the stuck hour 11:00–12:00 of that day. */
  let stuckFrom: number;
  let stuckTo: number;

  beforeAll(async () => {
    // No simulator: the signal's only readings are the day this test sends.
    [server, browser] = await Promise.all([
      startServer({ SIMULATOR: 'false', MODBUS_POLLER: 'false' }),
      launchBrowser(),
    ]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    plant = (await api.get<{ items: (Named & { time_zone: string })[] }>('plants?sort=name&pageSize=200'))
      .items[0]!;
    // An inverter's AC power: a kind the stale check judges in daylight.
    const devices = (
      await api.get<{ items: Device[] }>(`devices?plant_id=${plant.id}&sort=name&pageSize=200`)
    ).items;
    for (const candidate of devices) {
      const signals = (
        await api.get<{ items: Signal[] }>(`signals?device_id=${candidate.id}&sort=name&pageSize=200`)
      ).items;
      const power = signals.find((s) => /(^|_)(ac|active)_power$/.test(s.key));
      if (power) {
        device = candidate;
        signal = power;
        break;
      }
    }
    expect(signal).toBeDefined();

    // Yesterday on the plant's clock, a reading at the device's interval: a clear day's bell of power,
    // held at its 11:00 value from 11:00 to 12:00 (a stuck logger).
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: plant.time_zone }).format(Date.now());
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 24 * HOUR).toISOString().slice(0, 10);
    const midnight = localMidnight(yesterday, plant.time_zone);
    const end = localMidnight(today, plant.time_zone);
    stuckFrom = midnight + 11 * HOUR;
    stuckTo = midnight + 12 * HOUR;
    const peak = (device.rated_power_kw ?? 100) * 0.5;
    const bell = (ts: number) => {
      const hour = (ts - midnight) / HOUR;
      return Math.round(Math.max(0, peak * Math.sin((Math.PI * (hour - 6.5)) / 11)) * 1000) / 1000;
    };
    const step = device.poll_interval_s * 1000;
    const points: { signal_id: number; ts: number; value: number }[] = [];
    for (let ts = midnight; ts < end; ts += step) {
      const held = ts >= stuckFrom && ts <= stuckTo;
      points.push({ signal_id: signal.id, ts, value: held ? bell(stuckFrom) : bell(ts) });
    }
    for (let i = 0; i < points.length; i += 1000)
      await api.post('telemetry', { points: points.slice(i, i + 1000) });

    await api.post(`plants/${plant.id}/data-quality/recheck`, { day: yesterday });
    const answer = await api.get<{ flags: Flag[] }>(
      `plants/${plant.id}/data-quality?from=${yesterday}&to=${yesterday}`,
    );
    stuck = answer.flags.find((f) => f.signal_id === signal.id && f.reason === 'stale')!;
    expect(stuck).toBeDefined();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shades the stuck hour on the chart of its signal, with a translated label, legend and tooltip', () =>
    withPage(
      browser,
      server.url,
      'data-quality-chart',
      async (page) => {
        await page.goto('/data');
        await page.getByTestId('data-empty').waitFor();
        await pickOption(page, 'data-plant', plant.name, { escape: true });
        await pickOption(page, 'data-devices', device.name, { escape: true });
        await pickOption(page, 'data-signals', signal.name, { escape: true });
        await pickOption(page, 'data-range', tr('data.ranges.yesterday'));

        const chart = page.getByTestId('data-chart');
        await chart.locator('canvas').first().waitFor();
        const band = page.getByTestId(`flag-band-${stuck.id}`);
        await band.waitFor();
        // The band is the flag's period, within the stuck hour, on the chart of its signal.
        expect(await band.getAttribute('data-signal-id')).toBe(String(signal.id));
        expect(await band.getAttribute('data-reason')).toBe('stale');
        const from = Number(await band.getAttribute('data-from'));
        const to = Number(await band.getAttribute('data-to'));
        expect(from).toBe(Date.parse(stuck.from));
        expect(to).toBe(Date.parse(stuck.to));
        expect(from).toBeGreaterThanOrEqual(stuckFrom);
        expect(to).toBeLessThanOrEqual(stuckTo + device.poll_interval_s * 1000);
        expect(to - from).toBeGreaterThanOrEqual(HOUR - device.poll_interval_s * 1000);
        await vi.waitFor(async () =>
          expect(Number(await chart.getAttribute('data-bands'))).toBeGreaterThanOrEqual(1),
        );

        // Label: the signal, the translated reason, the amount of data and the period on the plant's clock.
        const label = (await band.textContent()) ?? '';
        expect(label).toContain(tr('dataQuality.reasons.stale.name'));
        expect(label).toMatch(/\d+ okuma/);
        expect(label).toContain('11:00');
        await expectText(page.getByTestId('flag-bands-legend'), new RegExp(tr('dataQuality.bandLegend')));
        // The reason's explanation on hover.
        await band.locator('[tabindex="0"]').hover();
        await expectText(
          page
            .locator('.ant-tooltip:not(.ant-tooltip-hidden) .ant-tooltip-container, .ant-tooltip-inner')
            .last(),
          tr('dataQuality.reasons.stale.explanation'),
        );
        await page.mouse.move(0, 0);
        await page.locator('.ant-tooltip:not(.ant-tooltip-hidden)').waitFor({ state: 'hidden' });

        // The chart's own tooltip names the band under the pointer: the pointer crosses the plot until it
        // is over the stuck hour (the plot's pixels are ECharts' own: found, not computed).
        const box = (await chart.boundingBox())!;
        const tooltip = chart.locator('div').filter({ hasText: tr('dataQuality.reasons.stale.name') });
        let seen = false;
        for (let x = box.x + box.width * 0.3; x < box.x + box.width * 0.9 && !seen; x += 6) {
          await page.mouse.move(x, box.y + box.height * 0.5);
          seen = (await tooltip.count()) > 0 && (await tooltip.last().isVisible());
        }
        expect(seen).toBe(true);
        await page.mouse.move(0, 0);

        for (const width of [1440, 390]) {
          await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
          for (const theme of ['light', 'dark'] as const) {
            const current = await page.evaluate(() => document.documentElement.dataset.theme ?? 'light');
            if (current !== theme) await page.getByTestId('theme-toggle').click();
            await page.mouse.move(0, 0);
            await animationsDone(page);
            await band.waitFor();
            await screenshot(page, `data-quality-chart-${width}-${theme}`);
          }
        }
        // The legend's second line only explains lighter bands when there is one.
        expect(await page.getByTestId('flag-bands-legend').textContent()).not.toContain(
          tr('dataQuality.bandLegendAccepted'),
        );
      },
      DEMO.admin,
    ));

  it('draws an accepted flag lighter, and the legend says what lighter means', async () => {
    await api.post(`data-quality/flags/${stuck.id}/accept`, { note: 'Bakım sırasında sabit tutuldu' });
    await withPage(
      browser,
      server.url,
      'data-quality-chart-accepted',
      async (page) => {
        await page.goto('/data');
        await page.getByTestId('data-empty').waitFor();
        await pickOption(page, 'data-plant', plant.name, { escape: true });
        await pickOption(page, 'data-devices', device.name, { escape: true });
        await pickOption(page, 'data-signals', signal.name, { escape: true });
        await pickOption(page, 'data-range', tr('data.ranges.yesterday'));
        const band = page.getByTestId(`flag-band-${stuck.id}`);
        await band.waitFor();
        expect(await band.getAttribute('data-status')).toBe('accepted');
        expect(await band.textContent()).toContain(tr('dataQuality.accepted').toLowerCase());
        await expectText(
          page.getByTestId('flag-bands-legend'),
          new RegExp(tr('dataQuality.bandLegendAccepted').replace(/[()]/g, '\\$&')),
        );
        await page.getByTestId('data-chart').locator('canvas').first().waitFor();
        await screenshot(page, 'data-quality-chart-accepted-1440-light');
      },
      DEMO.admin,
    );
  });

  it("says on the plant page's card that a plant without a location was not checked against the sun", async () => {
    // Another demo plant, its position removed (the body as the plant form posts it, less the position).
    const plants = (
      await api.get<{ items: (Named & Record<string, unknown>)[] }>('plants?sort=name&pageSize=200')
    ).items;
    const nowhere = plants.find((p) => p.id !== plant.id)!;
    const keys = [
      'field_id',
      'name',
      'dc_capacity_kwp',
      'ac_capacity_kw',
      'time_zone',
      'tilt_deg',
      'azimuth_deg',
    ];
    await api.post(`plants/${nowhere.id}`, {
      ...Object.fromEntries(keys.map((k) => [k, nowhere[k]])),
      latitude: null,
      longitude: null,
    });
    await withPage(
      browser,
      server.url,
      'data-quality-no-location',
      async (page) => {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`/santral-detay/${nowhere.id}`);
        const skipped = page.getByTestId('data-quality-card').getByTestId('data-quality-skipped');
        await skipped.waitFor({ timeout: 30_000 });
        const text = (await skipped.textContent()) ?? '';
        expect(text).toContain(tr('dataQuality.checks.clock'));
        expect(text).toContain(tr('dataQuality.checks.clear_sky'));
        await skipped.scrollIntoViewIfNeeded();
        await page
          .getByTestId('data-quality-card')
          .screenshot({ path: `${artifactsDir}/data-quality-no-location-390.png` });
      },
      DEMO.admin,
    );
  });
});
