import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  localMidnight,
  LOSS_KINDS,
  type FleetReportAnswer,
  type PlantOverviewItem,
  type TelemetryCatalogAnswer,
} from '@solar/shared';
import { DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectText, pickOption, tokenFor, tr } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface Named {
  id: number;
  name: string;
}

/**
 * Opens the report page on a signed-in page of its own (the shared helper waits 10 s for the menu, too short
 * for a loaded machine: the account's token and the theme in localStorage, as the login form and toggle leave
 * them) and runs `body` on it; a failure leaves a screenshot named `failed-<name>`.
 */
async function onReportPage(
  {
    browser,
    baseURL,
    account,
    viewport,
    theme,
    name,
  }: {
    browser: Browser;
    baseURL: string;
    account: { email: string; password: string };
    viewport: { width: number; height: number };
    theme: 'light' | 'dark';
    name: string;
  },
  body: (page: Page) => Promise<void>,
): Promise<void> {
  const token = await tokenFor(baseURL, account);
  const context = await browser.newContext({
    baseURL,
    viewport,
    locale: 'tr-TR',
    acceptDownloads: true,
    storageState: {
      cookies: [],
      origins: [
        {
          origin: baseURL,
          localStorage: [
            { name: 'token', value: token },
            { name: 'theme', value: theme },
          ],
        },
      ],
    },
  });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('[page error]', error.message));
  try {
    await page.goto('/report');
    await body(page);
  } catch (error) {
    await screenshot(page, `failed-${name}`).catch(() => undefined);
    throw error;
  } finally {
    await context.close();
  }
}

type PlantWithZone = Pick<PlantOverviewItem, 'plant_id' | 'time_zone' | 'dc_capacity_kwp'>;

/** A number as the interface writes kWh in Turkish (formatNumber, one decimal at most). */
const trNumber = (v: number) => new Intl.NumberFormat('tr-TR', { maximumFractionDigits: 1 }).format(v);
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The media type each format is served as (the page downloads exactly what the API answers). */
const MEDIA_TYPES = {
  json: 'application/json',
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
} as const;

describe('reports page', () => {
  let server: RunningServer;
  let browser: Browser;
  let plants: Named[];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ SIMULATOR: 'false', MODBUS_POLLER: 'false' }),
      launchBrowser(),
    ]);
    const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    plants = (await api.get<{ plants: Named[] }>('telemetry/catalog')).plants;
    expect(plants.length).toBeGreaterThanOrEqual(2);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('previews a report and downloads it in every format', async () => {
    await onReportPage(
      {
        browser,
        baseURL: server.url,
        account: DEMO.admin,
        viewport: { width: 1440, height: 900 },
        theme: 'light',
        name: 'reports-formats',
      },
      async (page) => {
        await expectText(page.getByTestId('page-title'), tr('pages.report'), 30_000);
        await pickOption(page, 'report-plants', plants[0]!.name, { escape: true });
        await pickOption(page, 'report-plants', plants[1]!.name, { escape: true });
        await page.getByTestId('report-preview-button').click();
        // A row per plant and the total, and the chart beside them.
        const rows = page.getByTestId('report-table').locator('tbody tr.ant-table-row');
        await vi.waitFor(async () => expect(await rows.count()).toBe(3), { timeout: 30_000 });
        await expectText(rows.last().locator('td').first(), tr('reportPage.total'));
        await page.getByTestId('report-chart').waitFor();

        for (const format of ['json', 'csv', 'xlsx', 'pdf'] as const) {
          const [download, response] = await Promise.all([
            page.waitForEvent('download', { timeout: 60_000 }),
            page.waitForResponse(
              (r) => r.url().includes('/api/reports/production?') && r.url().includes(`format=${format}`),
              {
                timeout: 60_000,
              },
            ),
            page.getByTestId(`report-download-${format}`).click(),
          ]);
          expect(response.status()).toBe(200);
          expect(response.headers()['content-type']).toContain(MEDIA_TYPES[format]);
          expect(download.suggestedFilename()).toMatch(
            new RegExp(`^production-\\d{4}-\\d{2}-\\d{2}_\\d{4}-\\d{2}-\\d{2}\\.${format}$`),
          );
          const bytes = readFileSync(await download.path());
          expect(bytes.length, format).toBeGreaterThan(0);
          // The report of the two chosen plants, whatever the format carries it in.
          if (format === 'json') {
            const report = JSON.parse(bytes.toString('utf8')) as { type: string; plants: Named[] };
            expect(report.type).toBe('production');
            expect(report.plants.map((p) => p.name).sort()).toEqual(
              [plants[0]!.name, plants[1]!.name].sort(),
            );
          }
        }
        await screenshot(page, 'reports-page-light');
      },
    );
  });

  it("previews the fleet report with the fleet loss view's columns, figures equal to the JSON answer's", async () => {
    // Yesterday's morning for two plants (the demo's history may not reach it without the simulator): one
    // inverter at a trickle (a loss), and one plant making more than the model expects (above expectation).
    const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const overview = (await api.get<{ items: PlantWithZone[] }>('plants/overview')).items;
    const yesterday = new Intl.DateTimeFormat('en-CA').format(Date.now() - 86_400_000);
    for (const [n, plant] of plants.slice(0, 2).entries()) {
      const { time_zone: zone, dc_capacity_kwp: kwp } = overview.find((p) => p.plant_id === plant.id)!;
      const devices = (await api.get<TelemetryCatalogAnswer>(`telemetry/catalog?plant_id=${plant.id}`))
        .devices!;
      const counters = devices.flatMap((d) =>
        d.type === 'inverter' ? d.signals.filter((x) => x.key === 'total_energy') : [],
      );
      const poa = devices.flatMap((d) => d.signals).find((x) => x.key === 'irradiance')!;
      const inverters = n === 0 ? counters.slice(0, 1) : counters;
      // 0.065 kWh per kWp a step (0.78 kW/kWp): above the model, within the inverters' rating (docs/kpi.md).
      const stepKwh = n === 0 ? 1 : (0.065 * (kwp ?? 1000)) / counters.length;
      const points = Array.from({ length: 25 }, (_, i) => {
        const ts = localMidnight(yesterday, zone) + 10 * 3_600_000 + i * 300_000;
        return [
          ...inverters.map((c) => ({ signal_id: c.id, ts, value: 5000 + i * stepKwh })),
          ...(i > 0 ? [{ signal_id: poa.id, ts: ts + 60_000, value: 800 }] : []),
        ];
      }).flat();
      await api.post('telemetry', { points });
    }
    await onReportPage(
      {
        browser,
        baseURL: server.url,
        account: DEMO.admin,
        viewport: { width: 1440, height: 900 },
        theme: 'light',
        name: 'reports-fleet-losses',
      },
      async (page) => {
        await expectText(page.getByTestId('page-title'), tr('pages.report'), 30_000);
        // Chosen by hand with a long wait: pickOption's ten seconds ran out on a loaded machine.
        await page.getByTestId('report-type').click();
        await page
          .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
          .filter({ hasText: tr('reportPage.types.fleet') })
          .click();
        await expectText(
          page.getByTestId('report-type').locator('.ant-select-content, .ant-select-selection-item').first(),
          tr('reportPage.types.fleet'),
          30_000,
        );
        // The demo's history covers the last weeks: the last seven days have figures to compare.
        await page.getByTestId('report-range').first().click();
        await page
          .locator('.ant-picker-presets li')
          .filter({ hasText: tr('reportPage.ranges.last7Days') })
          .click();
        await pickOption(page, 'report-plants', plants[0]!.name, { escape: true });
        await pickOption(page, 'report-plants', plants[1]!.name, { escape: true });
        const [answer] = await Promise.all([
          page.waitForResponse((r) => r.url().includes('/api/reports/fleet?'), { timeout: 60_000 }),
          page.getByTestId('report-preview-button').click(),
        ]);
        // The same report read again over HTTP by the test's own client, not the page's answer.
        const report = await api.get<FleetReportAnswer>(
          `reports/fleet?${new URL(answer.url()).searchParams}`,
        );
        // Figures to compare, not only dashes: a loss and energy above expectation.
        expect(report.plants.map((p) => Math.sign(p.losses.total_kwh))).toEqual([1, -1]);
        const table = page.getByTestId('report-table');
        const rows = table.locator('tbody tr.ant-table-row');
        await vi.waitFor(async () => expect(await rows.count()).toBe(3), { timeout: 30_000 });

        const headers = (await table.locator('thead th').allTextContents()).map((h) => h.trim());
        const expected = [
          tr('reportPage.columns.expectedEnergy'),
          tr('plantView.fleetLoss.loss'),
          ...LOSS_KINDS.map((k) => tr(`plantView.loss.${k}`)),
          tr('reportPage.columns.availability'),
          tr('reportPage.columns.pr'),
          tr('plantView.fleetLoss.data'),
        ];
        for (const title of expected)
          expect(
            headers.some((h) => h.startsWith(title)),
            `${title} in ${headers.join(' | ')}`,
          ).toBe(true);

        // Each plant's expected energy and total loss as the fleet loss view writes them.
        const columnOf = (title: string) => headers.findIndex((h) => h.startsWith(title));
        for (const plant of report.plants) {
          const row = rows.filter({ hasText: plant.name }).first();
          const cell = (title: string) => row.locator('td').nth(columnOf(title));
          const known = Boolean(plant.coverage);
          await expectText(
            cell(tr('reportPage.columns.expectedEnergy')),
            known ? trNumber(plant.expected_energy_kwh) : '–',
          );
          // Energy above expectation in words, the short text first, the full sentence for screen readers after it.
          const loss = plant.losses.total_kwh;
          await expectText(
            cell(tr('plantView.fleetLoss.loss')),
            !known
              ? '–'
              : loss < 0
                ? new RegExp(
                    `^${escaped(tr('plantView.fleetLoss.aboveShort').replace('{{value}}', trNumber(-loss)))}`,
                  )
                : trNumber(loss),
          );
        }
        // The first column stays pinned while the figures scroll sideways.
        expect(await table.locator('thead th').first().getAttribute('class')).toMatch(/ant-table-cell-fix/);
        await screenshot(page, 'reports-fleet-1440-light');
      },
    );
  });

  it('subscribes to a report, pauses and removes it, and fits a 390 px phone in the dark theme', async () => {
    const operator = await ApiClient.login(server.url, DEMO.operator.email, DEMO.operator.password);
    const plant = (await operator.get<{ plants: Named[] }>('telemetry/catalog')).plants[0]!;
    await onReportPage(
      {
        browser,
        baseURL: server.url,
        account: DEMO.operator,
        viewport: { width: 390, height: 844 },
        theme: 'dark',
        name: 'reports-390',
      },
      async (page) => {
        await page.getByTestId('report-schedules').waitFor();
        await page.getByTestId('report-schedule-create').click();
        await page.getByTestId('report-schedule-drawer').waitFor();
        await pickOption(page, 'report-schedule-field-plant_ids', plant.name, { escape: true });
        await page.getByTestId('report-schedule-save').click();
        const rows = page.getByTestId('report-schedule-table').locator('tbody tr.ant-table-row');
        await vi.waitFor(async () => expect(await rows.count()).toBe(1), { timeout: 30_000 });
        await expectText(rows.first().locator('td').first(), new RegExp(plant.name));

        const pause = page.locator('[data-testid^="report-schedule-pause-"]').first();
        const id = (await pause.getAttribute('data-testid'))!.replace('report-schedule-pause-', '');
        await pause.click();
        await expectText(
          page.getByTestId(`report-schedule-status-${id}`),
          new RegExp(tr('reportSchedules.statuses.paused')),
          30_000,
        );

        // Nothing wider than the phone but the tables' own scrolling.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await screenshot(page, 'reports-page-390-dark');

        await page.getByTestId(`report-schedule-delete-${id}`).click();
        await page.getByTestId('report-schedule-delete-confirm').click();
        await vi.waitFor(async () => expect(await rows.count()).toBe(0), { timeout: 30_000 });
      },
    );
  });
});
