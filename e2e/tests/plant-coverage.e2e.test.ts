import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectText, t, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface OverviewItem {
  plant_id: number;
}
interface Saved {
  id: number;
}
interface DayKpis {
  coverage: number | null;
  irradiance_source: string;
  irradiation_kwh_m2: number;
}

/**
 * A plant whose only data is ten minutes of one inverter today (no weather station): the plant page must
 * not show its irradiation as 0 nor its day as a whole day, but "–" and how much of the day has data.
 */
describe('plant detail: missing data is never zero', () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let plantId: number;
  let kpis: DayKpis;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const demo = (await api.get<{ items: OverviewItem[] }>('plants/overview')).items[0]!;
    const { field_id } = await api.get<{ field_id: number }>(`plants/${demo.plant_id}`);
    plantId = (
      await api.post<Saved>('plants/0', {
        field_id,
        name: 'Kapsam Santrali',
        time_zone: 'Europe/Istanbul',
        dc_capacity_kwp: 100,
      })
    ).id;
    const inverter = await api.post<Saved>('devices/0', {
      plant_id: plantId,
      name: 'INV-01',
      type: 'inverter',
      protocol: 'http',
      rated_power_kw: 80,
      poll_interval_s: 60,
    });
    const signal = (key: string, counter: boolean) =>
      api.post<Saved>('signals/0', { device_id: inverter.id, key, name: key, is_counter: counter });
    const energy = await signal('total_energy', true);
    const power = await signal('ac_power', false);
    // Ten minutes of readings, one a minute, within the plant's local today.
    const now = Date.now();
    const localDay = (ts: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Istanbul' }).format(ts);
    const times = Array.from({ length: 11 }, (_, i) => now - (10 - i) * 60_000).filter(
      (ts) => localDay(ts) === localDay(now),
    );
    await api.post('telemetry', {
      points: times.flatMap((ts, i) => [
        { signal_id: energy.id, ts, value: 5_000 + i },
        { signal_id: power.id, ts, value: 60 },
      ]),
    });
    kpis = await api.get<DayKpis>(`plants/${plantId}/kpis?period=day`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows "–" for irradiation and warns how much of the day has data, at 1440 and 390 px in both themes', () =>
    withPage(
      browser,
      server.url,
      'plant-coverage',
      async (page) => {
        const errors = collectPageErrors(page);
        // The server's figure first: no irradiance at all, and a sliver of the day (unless the test runs
        // in the first minutes after the plant's midnight, when ten minutes are a large share of it).
        expect(kpis.irradiance_source).toBe('none');
        expect(kpis.irradiation_kwh_m2).toBe(0);
        expect(kpis.coverage).not.toBeNull();
        const low = kpis.coverage! < 0.9;
        const percent = new Intl.NumberFormat('tr-TR', { maximumFractionDigits: 1 }).format(
          kpis.coverage! * 100,
        );
        for (const [locale, theme, width] of [
          ['tr_TR', 'light', 1440],
          ['en_US', 'dark', 390],
        ] as const) {
          await page.setViewportSize({ width, height: 900 });
          await page.evaluate(
            (prefs) => {
              window.localStorage.setItem('locale', prefs.locale);
              window.localStorage.setItem('theme', prefs.theme);
            },
            { locale, theme },
          );
          await page.goto(`/santral-detay/${plantId}`);
          await page.waitForFunction((th) => document.documentElement.dataset.theme === th, theme);
          await page.getByTestId('plant-kpi-tiles').waitFor();
          const irradiation = page.getByTestId('kpi-irradiation');
          await expectText(irradiation, t(locale, 'plantView.kpi.irradiation') + '–');
          expect(await irradiation.textContent()).not.toMatch(/0[,.]00/);
          expect(await page.getByTestId('kpi-coverage').textContent()).toContain(
            t(locale, 'plantView.kpi.coverage'),
          );
          if (low) {
            const warning = page.getByTestId('kpi-coverage-warning');
            await warning.waitFor();
            const text = (await warning.textContent()) ?? '';
            const localPercent =
              locale === 'tr_TR'
                ? percent
                : new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(kpis.coverage! * 100);
            expect(text).toBe(t(locale, 'plantView.kpi.coverageLow').replace('{{percent}}', localPercent));
            // The month has at most today's sliver: warned as well.
            await page.getByTestId('month-coverage-warning').waitFor();
          }
          await screenshot(page, `plant-coverage-${theme}-${width}`);
        }
        expect(errors).toEqual([]);
      },
      DEMO.admin,
    ));
});
