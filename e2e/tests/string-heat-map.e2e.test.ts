import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, animationsDone, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectText, tr, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface Saved {
  id: number;
}

const MIN = 60_000;
const STRINGS = 6;
const OPEN = 4;

/**
 * The inverter page's string heat map: an inverter of the demo's first plant gets six strings reporting
 * yesterday (plant's clock) every 5 minutes from 06:00 to 18:00, string 4 at 0.02 A from 10:00 to 13:00.
 * The map shows a row per string, that stretch red with its figures in the cells' labels, the night as
 * missing (never 0), the fault under the map, and fits a phone by scrolling inside its card.
 */
describe('string heat map on the inverter page', () => {
  let server: RunningServer;
  let browser: Browser;
  let inverter: Saved;
  let yesterday: string;
  let zone: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ SIMULATOR: 'false', MODBUS_POLLER: 'false' }),
      launchBrowser(),
    ]);
    const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const plant = (
      await api.get<{ items: { id: number; time_zone: string }[] }>('plants?sort=name&pageSize=200')
    ).items[0]!;
    zone = plant.time_zone;
    inverter = await api.post<Saved>('devices/0', {
      plant_id: plant.id,
      name: 'INV-STR',
      type: 'inverter',
      protocol: 'http',
      rated_power_kw: 80,
      poll_interval_s: 300,
    });
    const signal = (key: string) =>
      api.post<Saved>('signals/0', { device_id: inverter.id, key, name: key, is_counter: false });
    const power = await signal('ac_power');
    const currents: Saved[] = [];
    for (let n = 1; n <= STRINGS; n++) currents.push(await signal(`string${n}_dc_current`));
    const localDay = (ts: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(ts);
    yesterday = localDay(Date.now() - 86_400_000);
    // The plant's local midnight of yesterday: the first instant whose local date is yesterday.
    let midnight = Date.parse(`${yesterday}T00:00:00Z`) - 14 * 3_600_000;
    while (localDay(midnight) !== yesterday) midnight += 15 * MIN;
    const points: { signal_id: number; ts: number; value: number }[] = [];
    for (let m = 6 * 60; m <= 18 * 60; m += 5) {
      const ts = midnight + m * MIN;
      const sun = Math.sin((Math.PI * (m - 360)) / 720);
      points.push({ signal_id: power.id, ts, value: 80 * sun });
      currents.forEach((c, k) => {
        const open = k + 1 === OPEN && m >= 10 * 60 && m < 13 * 60;
        points.push({ signal_id: c.id, ts, value: open ? 0.02 : 9 * sun * (1 + 0.01 * k) });
      });
    }
    for (let i = 0; i < points.length; i += 1000)
      await api.post('telemetry', { points: points.slice(i, i + 1000) });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows each string against its siblings, the open one red, at 1440 and 390 px in both themes', () =>
    withPage(
      browser,
      server.url,
      'string-heat-map',
      async (page) => {
        await page.goto(`/inverter-detay/${inverter.id}`);
        const input = page
          .locator('input[data-testid="inverter-day"], [data-testid="inverter-day"] input')
          .first();
        await input.waitFor();
        const [y, m, d] = yesterday.split('-') as [string, string, string];
        await input.click();
        await input.fill(`${d}.${m}.${y}`);
        await input.press('Enter');
        const map = page.getByTestId('string-heat-map');
        await map.waitFor();
        await vi.waitFor(async () => expect(await map.locator('tbody tr').count()).toBe(STRINGS), {
          timeout: 10_000,
        });
        await expectText(
          page.getByTestId('string-heat-map-card').locator('.ant-card-head-title'),
          tr('devicePages.strings.title'),
        );
        const row = map.locator(`tr[data-string="${OPEN}"]`);
        await expectText(row.locator('th'), `Dizi ${OPEN}`);
        // 96 quarter hours; 11:00 is column 44 of the row (its header is the first cell).
        const cells = row.locator('td');
        expect(await cells.count()).toBe(96);
        const at = (h: number) => cells.nth(h * 4);
        expect(await at(11).getAttribute('data-state')).toBe('judged');
        const label = (await at(11).getAttribute('aria-label')) ?? '';
        expect(label).toContain(`Dizi ${OPEN}`);
        expect(label).toContain('11:00');
        expect(label).toMatch(/%0 düzeyinde/);
        // Red for the open string, green for a sibling at the same time.
        const hue = async (cell: ReturnType<typeof at>) =>
          cell.evaluate((el) => getComputedStyle(el).backgroundColor);
        const [r, g] = (await hue(at(11))).match(/\d+/g)!.map(Number) as [number, number];
        expect(r).toBeGreaterThan(g);
        const sibling = map.locator('tr[data-string="1"] td').nth(44);
        const [r1, g1] = (await hue(sibling)).match(/\d+/g)!.map(Number) as [number, number];
        expect(g1).toBeGreaterThan(r1);
        // The night has no data: shown missing, not as a ratio of 0.
        expect(await at(2).getAttribute('data-state')).toBe('missing');
        expect(await at(2).getAttribute('aria-label')).toContain(
          tr('devicePages.strings.legendMissing').toLowerCase(),
        );
        await expectText(
          page.getByTestId('string-heat-map-legend'),
          new RegExp(tr('devicePages.strings.legendRatio')),
        );
        const fault = page.getByTestId('string-faults').locator(`li[data-string="${OPEN}"]`);
        await expectText(fault, new RegExp(`Dizi ${OPEN}: .*10:00.*13:00`));
        // The only inverter of its rating with strings on the plant: no plant-wide comparison, and it says why.
        await expectText(
          page.getByTestId('string-plant-comparison').locator('p'),
          tr('devicePages.strings.plantNone'),
        );

        for (const width of [1440, 390]) {
          await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
          for (const theme of ['light', 'dark'] as const) {
            const current = await page.evaluate(() => document.documentElement.dataset.theme ?? 'light');
            if (current !== theme) await page.getByTestId('theme-toggle').click();
            await animationsDone(page);
            // The page never scrolls sideways; the map scrolls inside its card on a phone.
            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
            );
            expect(overflow, `${width} px ${theme}`).toBeLessThanOrEqual(0);
            const region = page.getByTestId('string-heat-map-scroll');
            const scrolls = await region.evaluate((el) => el.scrollWidth > el.clientWidth);
            expect(scrolls).toBe(width === 390);
            // On the phone it opens at the morning's first readings, not at midnight.
            const left = await region.evaluate((el) => el.scrollLeft);
            if (width === 390) expect(left, theme).toBeGreaterThan(0);
            // Cells are coloured for the theme (darker on the dark background).
            const light = await hue(at(11));
            expect(light).not.toBe('rgba(0, 0, 0, 0)');
            await page.getByTestId('string-heat-map-card').scrollIntoViewIfNeeded();
            await screenshot(page, `string-heat-map-${width}-${theme}`);
          }
        }
        // The keyboard reaches the scrolling region.
        await page.getByTestId('string-heat-map-scroll').focus();
        expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
          'string-heat-map-scroll',
        );
      },
      DEMO.admin,
    ));
});
