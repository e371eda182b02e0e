import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectPageErrors, DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectText, openAs, pickOption, tr, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface PlantItem {
  id: number;
  name: string;
  time_zone: string;
}
interface SignalItem {
  id: number;
  key: string;
  unit: string | null;
  device_name: string | null;
}

const STEP = 300_000;

/**
 * A logger's export (docs/history-import.md, "Formats"): a title row, `;`, decimal commas, UTC times with
 * their `Z`; two hours of 5-minute AC power two days ago, 17 s past each 5 minutes (no demo point shares
 * them), with the 11:00 row written twice (a duplicate) and the 11:30 and 11:35 rows missing (a gap).
 */
function loggerCsv(): { text: string; rows: number; firstMs: number } {
  const start = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 2 * 86_400_000 + 10 * 3_600_000 + 17_000;
  const lines = ['Logger export;', 'Time;Pac [kW]'];
  let rows = 0;
  for (let ts = start; ts <= start + 2 * 3_600_000; ts += STEP) {
    const minute = (ts - start) / 60_000;
    if (minute === 90 || minute === 95) continue;
    const row = `${new Date(ts).toISOString().slice(0, 19)}Z;${(4 + minute / 100).toFixed(2).replace('.', ',')}`;
    lines.push(row);
    rows++;
    if (minute === 60) lines.push(row);
  }
  return { text: lines.join('\r\n') + '\r\n', rows, firstMs: start };
}

/** Chooses a file in the page's hidden file input, as the upload button does. */
async function chooseFile(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId('history-file').setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(text, 'utf8'),
  });
}

/** The text with `{{count}}` filled in, as i18next writes it. */
const counted = (key: string, count: number) => tr(key).replace('{{count}}', String(count));

describe('history import page: upload, mapping, preview with its quality report, run', () => {
  let server: RunningServer;
  let browser: Browser;
  let plant: PlantItem;
  let power: SignalItem;
  const csv = loggerCsv();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    plant = (await api.get<{ items: PlantItem[] }>('plants?page=1&pageSize=50&sort=name')).items[0]!;
    const signals = await api.get<{ items: SignalItem[] }>(
      `signals?page=1&pageSize=200&sort=key&plant_id=${plant.id}`,
    );
    power = signals.items.find((s) => s.key === 'ac_power')!;
    expect(power).toBeDefined();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The page's label of the power signal in the mapping's select. */
  // The picker names the signal in the interface's language (Turkish here), not by its technical key.
  const powerLabel = () =>
    `${power.device_name ?? ''} · ${tr('signals.standardNames.ac_power')}${power.unit ? ` (${power.unit})` : ''}`;

  /** Uploads the logger file, maps its power column and previews: the page then shows the quality report. */
  async function uploadAndPreview(page: Page): Promise<void> {
    await page.getByTestId('history-import-page').waitFor();
    await chooseFile(page, 'logger.csv', csv.text);
    // The new upload's mapping, with no signal chosen yet (a previous job's may still be shown meanwhile).
    await vi.waitFor(
      async () =>
        expect(await page.getByTestId('history-signal-csv:1').textContent()).toContain(
          tr('historyImport.notImported'),
        ),
      { timeout: 15_000, interval: 100 },
    );
    await pickOption(page, 'history-signal-csv:1', powerLabel());
    await page.getByTestId('history-preview').click();
    await page.getByTestId('history-preview-table').waitFor();
  }

  it('stores the file once: the same file again stores nothing new', () =>
    withPage(
      browser,
      server.url,
      'history-import',
      async (page) => {
        const errors = collectPageErrors(page);
        await page.goto(`/history-import/${plant.id}`);
        await uploadAndPreview(page);
        // The detection: the header under the title row, the data rows counted once each line.
        const detection = page.getByTestId('history-detection');
        expect(await detection.textContent()).toContain(String(csv.rows + 1));
        // The preview: the points (the duplicate kept once) and the quality report of the power signal.
        const summary = page.getByTestId('history-preview-summary');
        expect(await summary.textContent()).toContain(String(csv.rows));
        // The file's UTC times are shown on the plant's clock, like every other time of the console.
        const plantClock = new Intl.DateTimeFormat('en-GB', {
          timeZone: plant.time_zone,
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(csv.firstMs);
        expect(await summary.textContent()).toContain(plantClock);
        const table = page.getByTestId('history-preview-table');
        await expectText(
          table.locator('tbody tr.ant-table-row').first().locator('td').nth(2),
          String(csv.rows),
        );
        const quality = await table.locator('tbody tr.ant-table-row').first().textContent();
        expect(quality).toContain(tr('signals.standardNames.ac_power'));
        expect(quality).toContain(`${tr('historyImport.reasons.duplicate')}: 1`);
        expect(quality).toContain(`${tr('historyImport.reasons.gap')}:`);
        await screenshot(page, 'history-import-preview-1440-light');

        await page.getByTestId('history-run').click();
        await expectText(
          page.getByTestId('history-state'),
          `${tr('historyImport.states.done')} · ${counted('historyImport.newPoints', csv.rows)} · ${counted('historyImport.existingPoints', 0)}`,
          30_000,
        );
        await screenshot(page, 'history-import-done-1440-light');

        // The same file again: every point is already stored.
        await uploadAndPreview(page);
        await page.getByTestId('history-run').click();
        await expectText(
          page.getByTestId('history-state'),
          `${tr('historyImport.states.done')} · ${counted('historyImport.newPoints', 0)} · ${counted('historyImport.existingPoints', csv.rows)}`,
          30_000,
        );
        // The recent imports: both runs, newest first, done, with their points stored and their times.
        const recent = page.getByTestId('history-recent-table').locator('tbody tr.ant-table-row');
        await vi.waitFor(
          async () => {
            expect(await recent.count()).toBe(2);
            expect(await recent.nth(1).textContent()).toContain(tr('historyImport.states.done'));
          },
          { timeout: 15_000 },
        );
        const [newest, older] = [await recent.nth(0).textContent(), await recent.nth(1).textContent()];
        for (const row of [newest, older]) {
          expect(row).toContain('logger.csv');
          expect(row).toContain(tr('historyImport.states.done'));
        }
        expect(older).toContain(String(csv.rows));
        // Started and finished: a date and a time each (on the plant's clock, lib/plant-time.ts).
        expect(older?.match(/\d{2}[./]\d{2}[./]\d{4},? \d{2}:\d{2}/g)?.length).toBe(2);
        await page.getByTestId('history-recent').scrollIntoViewIfNeeded();
        await screenshot(page, 'history-import-recent-1440-light');
        expect(errors).toEqual([]);
      },
      DEMO.admin,
    ));

  it('refuses a malformed file with the line and column at fault', () =>
    withPage(
      browser,
      server.url,
      'history-import-malformed',
      async (page) => {
        await page.goto(`/history-import/${plant.id}`);
        await page.getByTestId('history-import-page').waitFor();
        const lines = csv.text.split('\r\n');
        // The 6th line's power is no figure, the 8th line's time no time.
        lines[5] = lines[5]!.replace(/;.*$/, ';12,x');
        lines[7] = lines[7]!.replace(/^[^;]*/, '2025-13-45 99:99');
        await chooseFile(page, 'broken.csv', lines.join('\r\n'));
        const problems = page.locator('.history-import-errors');
        await problems.waitFor();
        const text = await problems.textContent();
        expect(text).toContain(`line 6: B`);
        expect(text).toContain(tr('validation.invalidNumber'));
        expect(text).toContain(`line 8: A`);
        expect(text).toContain(tr('validation.invalidDate'));
        expect(await page.getByTestId('history-mapping').count()).toBe(0);
        await screenshot(page, 'history-import-malformed-1440-light');
      },
      DEMO.admin,
    ));

  for (const [width, theme] of [
    [390, 'light'],
    [390, 'dark'],
    [1440, 'dark'],
  ] as const) {
    it(`fits ${width} px in the ${theme} theme: nothing wider than the screen, the tables scroll inside`, async () => {
      const { page, errors, close } = await openAs(
        browser,
        server.url,
        DEMO.admin,
        `/history-import/${plant.id}`,
        {
          locale: 'tr_TR',
          theme,
          width,
        },
      );
      try {
        await uploadAndPreview(page);
        await vi.waitFor(async () =>
          expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme),
        );
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        for (const id of [
          'history-mapping',
          'history-preview-table',
          'history-detection',
          'history-preview-summary',
        ]) {
          const box = await page.getByTestId(id).boundingBox();
          expect(box!.x).toBeGreaterThanOrEqual(0);
          expect(box!.x + box!.width, id).toBeLessThanOrEqual(width);
        }
        await page.getByTestId('history-preview-table').scrollIntoViewIfNeeded();
        await screenshot(page, `history-import-preview-${width}-${theme}`);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
