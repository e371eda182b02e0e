import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, launchBrowser, PAGE_LOAD_TIMEOUT, screenshot } from '../src/browser';
import { ApiClient, expectText, pickOption, t, tr } from '../src/console';
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
  signals: { id: number; key: string; name: string }[];
}
interface CustomAlarm {
  id: number;
  started_at: string | null;
  end_at: string | null;
}
interface ReportSchedule {
  id: number;
  time_zone: string;
  next_run_at: string | null;
}

/** The plant's zone, and a browser far west of it (UTC-5) and one east of it (UTC+9). */
const PLANT_ZONE = 'Europe/Istanbul';
const WEST = 'America/New_York';
const EAST = 'Asia/Tokyo';
const HOUR = 3_600_000;

/** An instant as the Turkish page writes it on a zone's clock (Intl's short date and time: `1.12.2026 08:00`). */
const turkish = (ms: number, timeZone: string): string =>
  new Intl.DateTimeFormat('tr-TR', { dateStyle: 'short', timeStyle: 'short', timeZone }).format(ms);

/** The first instant after `from` at which the clock of `timeZone` reads `minutes` past its midnight. */
function nextLocalMinute(from: number, timeZone: string, minutes: number): number {
  let at = Math.ceil(from / 60_000) * 60_000;
  for (;;) {
    const w = wall(at, timeZone);
    if (Number(w.hour) * 60 + Number(w.minute) === minutes) return at;
    at += 60_000;
  }
}

describe("times and dates on the plant's clock in pickers, forms and schedules", () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let plant: OverviewItem;
  let inverter: CatalogDevice;

  /** A signed-in page with the browser's clock in `timezoneId` (New York unless told); see openZonedPage. */
  const openIn = (path: string, options: { timezoneId?: string; locale?: string; now?: number } = {}) =>
    openZonedPage(browser, server.url, path, { timezoneId: WEST, ...options });

  /** The calendar cell of a date in the open picker, by the title antd gives it (the field's format). */
  const cell = (page: Page, title: string): Locator =>
    page.locator(`.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) td[title="${title}"]`).first();

  /**
   * Clicks the picker `testId` until `target` shows in its open dropdown. One click is not enough: a dropdown
   * that is closing (Escape, a theme change, a resize) still matches for its leave animation and then hides.
   */
  async function openUntilShown(page: Page, testId: string, target: Locator): Promise<void> {
    await vi.waitFor(
      async () => {
        if (!(await target.isVisible())) await page.getByTestId(testId).click({ timeout: 2_000 });
        await target.waitFor({ timeout: 2_000 });
      },
      { timeout: 20_000, interval: 300 },
    );
  }

  /** The text input of a picker, whether its test id sits on the input or on the picker around it. */
  const inputOf = (page: Page, testId: string): Locator =>
    page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();

  const disabled = async (c: Locator) =>
    (await c.getAttribute('class'))!.includes('ant-picker-cell-disabled');

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ SIMULATOR: 'false', MODBUS_POLLER: 'false' }),
      launchBrowser(),
    ]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const plants = (await api.get<{ items: OverviewItem[] }>('plants/overview')).items;
    plant = plants.find((p) => p.time_zone === PLANT_ZONE)!;
    expect(plant).toBeDefined();
    const devices = (
      await api.get<{ devices: CatalogDevice[] }>(`telemetry/catalog?plant_id=${plant.plant_id}`)
    ).devices;
    inverter = devices.find((d) => d.type === 'inverter' && d.signals.some((s) => s.key === 'ac_power'))!;
    expect(inverter).toBeDefined();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('types and shows months as the page writes dates: MM.YYYY in Turkish, MM/YYYY in English', async () => {
    for (const [locale, pattern] of [
      ['tr_TR', (w: ReturnType<typeof wall>) => `${w.month}.${w.year}`],
      ['en_US', (w: ReturnType<typeof wall>) => `${w.month}/${w.year}`],
    ] as const) {
      const { page, context } = await openIn('/santraller?view=losses', { locale });
      try {
        const picker = inputOf(page, 'fleet-loss-date');
        await picker.waitFor({ timeout: PAGE_LOAD_TIMEOUT });
        await page
          .getByTestId('fleet-loss-period')
          .getByText(t(locale, 'plantView.fleetLoss.periods.month'))
          .click();
        // The card opens on yesterday's date of the browser: its month.
        const expected = pattern(wall(Date.now() - 24 * HOUR, WEST));
        await vi.waitFor(async () => expect(await picker.inputValue()).toBe(expected), { timeout: 10_000 });
        await page
          .getByTestId('fleet-loss-period')
          .getByText(t(locale, 'plantView.fleetLoss.periods.year'))
          .click();
        await vi.waitFor(
          async () => expect(await picker.inputValue()).toBe(wall(Date.now() - 24 * HOUR, WEST).year),
          { timeout: 10_000 },
        );
        await page
          .getByTestId('fleet-loss-period')
          .getByText(t(locale, 'plantView.fleetLoss.periods.month'))
          .click();
        await lookInBothThemes(page, `plant-time-month-picker-${locale}`, async () => {
          await picker.waitFor();
        });
      } finally {
        await context.close();
      }
    }
  });

  it("ends the inverter page's day picker at the plant's today, east or west of the browser", async () => {
    const path = `/inverter-detay/${inverter.id}`;
    // 00:30 in Istanbul is the afternoon before in New York: the plant's new day can be picked.
    const plantNewDay = nextLocalMinute(Date.now(), PLANT_ZONE, 30);
    const plantToday = localDay(plantNewDay, PLANT_ZONE);
    expect(localDay(plantNewDay, WEST)).not.toBe(plantToday);
    let { page, context } = await openIn(path, { now: plantNewDay });
    try {
      await page.getByTestId('inverter-day').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      const [y, m, d] = plantToday.split('-');
      const today = cell(page, `${d}.${m}.${y}`);
      await openUntilShown(page, 'inverter-day', today);
      expect(await disabled(today)).toBe(false);
      await lookInBothThemes(page, 'plant-time-inverter-picker', () =>
        openUntilShown(page, 'inverter-day', today),
      );
      // Its "Today" is the plant's day, which New York reaches only hours later.
      const todayLink = page.getByTestId('inverter-day-today');
      await openUntilShown(page, 'inverter-day', todayLink);
      await todayLink.click();
      await vi.waitFor(async () =>
        expect(await inputOf(page, 'inverter-day').inputValue()).toBe(`${d}.${m}.${y}`),
      );
    } finally {
      await context.close();
    }

    // 01:00 in Tokyo is still the evening before in Istanbul: Tokyo's today is the plant's tomorrow.
    const browserNewDay = nextLocalMinute(Date.now(), EAST, 60);
    const tomorrow = localDay(browserNewDay, EAST);
    expect(localDay(browserNewDay, PLANT_ZONE)).not.toBe(tomorrow);
    ({ page, context } = await openIn(path, { timezoneId: EAST, now: browserNewDay }));
    try {
      await page.getByTestId('inverter-day').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      const [y, m, d] = tomorrow.split('-');
      const next = cell(page, `${d}.${m}.${y}`);
      await openUntilShown(page, 'inverter-day', next);
      expect(await disabled(next)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("shows and enters a custom alarm's active window on the plant's clock, named", async () => {
    const signal = inverter.signals.find((s) => s.key === 'ac_power')!;
    // 08:00 to 18:00 in Istanbul (05:00Z to 15:00Z): midnight to 10:00 in New York.
    const rule = await api.post<CustomAlarm>('alarms/custom/0', {
      name: 'E2E gündüz penceresi',
      description: null,
      priority_id: 2,
      tag_id: signal.id,
      operant: '>',
      value: 1_000_000,
      started_at: '2026-12-01T05:00:00.000Z',
      end_at: '2026-12-01T15:00:00.000Z',
      is_active: false,
    });
    const { page, context } = await openIn('/customized-alarms');
    try {
      await expectText(
        page.getByTestId('custom-alarm-table').getByTestId('custom-alarm-window'),
        `${turkish(Date.parse('2026-12-01T05:00:00Z'), PLANT_ZONE)} – ${turkish(Date.parse('2026-12-01T15:00:00Z'), PLANT_ZONE)} (${PLANT_ZONE})`,
      );
      await page.getByTestId(`custom-alarm-edit-${rule.id}`).click();
      const form = page.getByTestId('custom-alarm-form');
      await form.waitFor();
      const [from, to] = [0, 1].map((i) => form.locator('.ant-picker-range input').nth(i));
      await vi.waitFor(async () => expect(await from!.inputValue()).toBe('01.12.2026 08:00:00'), {
        timeout: 10_000,
      });
      expect(await to!.inputValue()).toBe('01.12.2026 18:00:00');
      await expectText(page.getByTestId('custom-alarm-window-zone'), `Santral saati: ${PLANT_ZONE}`);

      // A new start typed on the plant's clock: 09:30 in Istanbul is 06:30Z.
      await from!.click();
      await from!.fill('02.12.2026 09:30:00');
      await from!.press('Enter');
      await to!.click();
      await to!.fill('02.12.2026 17:00:00');
      await to!.press('Enter');
      await page.getByTestId('custom-alarm-save').click();
      await form.waitFor({ state: 'detached', timeout: PAGE_LOAD_TIMEOUT });
      const saved = (await api.get<CustomAlarm[]>('alarms/custom')).find((r) => r.id === rule.id)!;
      expect(saved).toMatchObject({
        started_at: '2026-12-02T06:30:00.000Z',
        end_at: '2026-12-02T14:00:00.000Z',
      });

      await lookInBothThemes(page, 'plant-time-custom-alarm-window', async () => {
        if (!(await form.isVisible())) await page.getByTestId(`custom-alarm-edit-${rule.id}`).click();
        await page.getByTestId('custom-alarm-window-zone').waitFor();
      });
    } finally {
      await context.close();
      await api.request('DELETE', `alarms/custom/${rule.id}`);
    }
  });

  it("names the zone a report schedule's time runs in and shows its runs on that clock", async () => {
    const { page, context } = await openIn('/report');
    let id: number | undefined;
    try {
      await page.getByTestId('report-schedules').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      await page.getByTestId('report-schedule-create').click();
      await page.getByTestId('report-schedule-drawer').waitFor();
      await pickOption(page, 'report-schedule-field-plant_ids', plant.name, { escape: true });
      await pickOption(page, 'report-schedule-field-frequency', tr('reportSchedules.frequencies.daily'));
      expect(await inputOf(page, 'report-schedule-field-local_time').inputValue()).toBe('07:00');
      await expectText(
        page.getByTestId('report-schedule-time-zone'),
        `${tr('reportSchedules.timeZone')}: ${PLANT_ZONE}`,
      );
      await page.getByTestId('report-schedule-save').click();
      await page.getByTestId('report-schedule-drawer').waitFor({ state: 'hidden' });

      const mine = await api.get<{ items: ReportSchedule[] }>('report-schedules');
      const schedule = mine.items.at(-1)!;
      id = schedule.id;
      expect(schedule.time_zone).toBe(PLANT_ZONE);
      // 07:00 in Istanbul is 04:00Z: midnight or 23:00 the day before in New York.
      expect(schedule.next_run_at).toMatch(/T04:00:00\.000Z$/);
      await expectText(
        page.getByTestId(`report-schedule-when-${id}`),
        new RegExp(`07:00 \\(${PLANT_ZONE}\\)$`),
      );
      await expectText(
        page.getByTestId(`report-schedule-next-${id}`),
        `${turkish(Date.parse(schedule.next_run_at!), PLANT_ZONE)} (${PLANT_ZONE})`,
      );
      await lookInBothThemes(page, 'plant-time-report-schedule', async () => {
        await page.getByTestId(`report-schedule-when-${schedule.id}`).waitFor();
      });
      await page.getByTestId(`report-schedule-edit-${id}`).click();
      await expectText(
        page.getByTestId('report-schedule-time-zone'),
        `${tr('reportSchedules.timeZone')}: ${PLANT_ZONE}`,
      );
      await screenshot(page, 'plant-time-report-schedule-form-dark-1440');
    } finally {
      await context.close();
      if (id !== undefined) await api.request('DELETE', `report-schedules/${id}`);
    }
  });
});
