import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, screenshot } from '../src/browser';
import type { ApiClient } from '../src/console';
import { expectPath, expectText, tr, withPage } from '../src/console';
import { openQuietConsole, type QuietConsole } from '../src/quiet-console';
import type { RunningServer } from '../src/server';

interface AlarmRow {
  id: number;
  device_id: number | null;
  message: string;
  status_id: number;
  fault_id: number | null;
  cause_alarm_id: number | null;
  consequence_count: number;
}

/** Nothing wider than the screen. */
const fitsWidth = async (page: Page, width: number) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

/**
 * Alarms of one event (docs/architecture.md, "Alarm groups"): the grid goes at a demo plant's meter and an
 * inverter under it trips; the inverter's alarm is shown under the meter's at 1440 and 390 px, and
 * approving the cause opens one fault that covers both.
 */
describe('alarm groups', () => {
  let quiet: QuietConsole;
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let outage: AlarmRow;
  let trip: AlarmRow;

  beforeAll(async () => {
    // No simulator: the only readings are the ones this test sends.
    quiet = await openQuietConsole();
    ({ server, browser, api } = quiet);
    const plant = quiet.plant;
    const signalOf = async (deviceId: number, key: string) =>
      (await quiet.signalsOf(deviceId)).find((s) => s.key === key)!.id;
    // The demo's revenue meter sits at the connection point, above the transformer and its inverters.
    const meter = await quiet.deviceOf('meter');
    const inverter = await quiet.deviceOf('inverter');
    const grid = await signalOf(meter.id, 'grid_available');
    const status = await signalOf(inverter.id, 'status_code');
    const now = Date.now();
    await api.post('telemetry', {
      points: [
        { signal_id: grid, ts: now - 60_000, value: 1 },
        { signal_id: status, ts: now - 60_000, value: 4 },
        // The grid goes; 30 s later the inverter reports a fault (SunSpec St 7).
        { signal_id: grid, ts: now - 50_000, value: 0 },
        { signal_id: status, ts: now - 20_000, value: 7 },
      ],
    });
    await vi.waitFor(
      async () => {
        const list = await api.get<AlarmRow[]>(`alarms?plant_id=${plant.id}&active=true`);
        outage = list.find((a) => a.device_id === meter.id && a.message === 'alarms.msg.gridOutage')!;
        trip = list.find((a) => a.device_id === inverter.id && a.message === 'alarms.msg.inverterFault')!;
        expect(outage).toBeDefined();
        expect(trip).toBeDefined();
      },
      { timeout: 20_000, interval: 250 },
    );
    expect(trip.cause_alarm_id).toBe(outage.id);
    expect(outage.consequence_count).toBe(1);
  });
  afterAll(async () => {
    await quiet?.stop();
  });

  it('at 1440 px the consequence is a row under its cause; approving the cause opens one fault for both', () =>
    withPage(
      browser,
      server.url,
      'alarm-groups-wide',
      async (page) => {
        await page.goto('/alarms');
        const causeRow = page.locator(`tr[data-row-key="${outage.id}"]`);
        await causeRow.waitFor({ timeout: 15_000 });
        // Under its cause, not a row of its own: hidden until the cause is opened.
        expect(await page.locator(`tr[data-row-key="${trip.id}"]`).count()).toBe(0);
        await expect(
          page.getByTestId(`alarm-consequences-${outage.id}`).getAttribute('data-count'),
        ).resolves.toBe('1');
        // The count stays a count of alarms; the summary names the events beside it.
        const summary = page.getByTestId('alarm-group-summary');
        const alarms = Number(await summary.getAttribute('data-alarms'));
        expect(Number(await summary.getAttribute('data-events'))).toBeLessThanOrEqual(alarms - 1);
        expect(Number(await page.getByTestId('alarm-filter-active').getAttribute('data-count'))).toBe(alarms);
        await causeRow.locator('.ant-table-row-expand-icon').click();
        const consequenceRow = page.locator(`tr.ant-table-row-level-1[data-row-key="${trip.id}"]`);
        await consequenceRow.waitFor();
        await expect(
          page.getByTestId(`alarm-consequence-${trip.id}`).getAttribute('data-cause'),
        ).resolves.toBe(String(outage.id));
        await fitsWidth(page, 1440);
        await screenshot(page, 'alarm-groups-wide');

        // Approve the cause: the confirmation says its consequence joins the fault.
        await page.getByTestId(`alarm-approve-${outage.id}`).click();
        await page.getByTestId(`alarm-approve-group-${outage.id}`).waitFor();
        await page.getByTestId(`alarm-approve-ok-${outage.id}`).click();
        let faultId = 0;
        await vi.waitFor(
          async () => {
            const list = await api.get<AlarmRow[]>('alarms?status_id=2');
            const approved = list.filter((a) => a.id === outage.id || a.id === trip.id);
            expect(approved).toHaveLength(2);
            expect(approved[0]!.fault_id).not.toBeNull();
            expect(approved[1]!.fault_id).toBe(approved[0]!.fault_id);
            faultId = approved[0]!.fault_id!;
          },
          { timeout: 10_000, interval: 250 },
        );
        // Both rows now open the same fault.
        await page.getByTestId(`alarm-fault-${trip.id}`).waitFor();
        await page.getByTestId(`alarm-fault-${trip.id}`).click();
        await expectPath(page, `/fault-detail/${faultId}`);
        const links = page.getByTestId('fault-alarms');
        await links.waitFor({ timeout: 10_000 });
        await expect(links.getAttribute('data-count')).resolves.toBe('2');
        await expectText(
          page.getByTestId(`fault-alarm-link-${outage.id}`),
          tr('faults.page.alarmLink').replace('{{id}}', String(outage.id)),
        );
        await page.getByTestId(`fault-alarm-link-${trip.id}`).waitFor();
        await screenshot(page, 'alarm-groups-fault');

        // The same rows in the dark theme, for a person to look at.
        await page.evaluate(() => localStorage.setItem('theme', 'dark'));
        await page.goto('/alarms');
        await page.locator(`tr[data-row-key="${outage.id}"] .ant-table-row-expand-icon`).click();
        await page.locator(`tr.ant-table-row-level-1[data-row-key="${trip.id}"]`).waitFor();
        await screenshot(page, 'alarm-groups-wide-dark');
      },
      DEMO.admin,
    ));

  it('at 390 px the consequence is inside its cause’s card, not a card of its own', () =>
    withPage(
      browser,
      server.url,
      'alarm-groups-phone',
      async (page) => {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto('/alarms');
        const card = page.getByTestId(`alarm-card-${outage.id}`);
        await card.waitFor({ timeout: 15_000 });
        const inside = card.getByTestId(`alarm-card-consequence-${trip.id}`);
        await inside.waitFor();
        expect(await page.getByTestId(`alarm-card-${trip.id}`).count()).toBe(0);
        await expect(inside.getByTestId(`alarm-message-${trip.id}`).textContent()).resolves.toContain(
          tr('alarms.msg.inverterFault').split(' ')[0],
        );
        await fitsWidth(page, 390);
        await screenshot(page, 'alarm-groups-phone');
        await page.evaluate(() => localStorage.setItem('theme', 'dark'));
        await page.reload();
        await page.getByTestId(`alarm-card-consequence-${trip.id}`).waitFor({ timeout: 15_000 });
        await fitsWidth(page, 390);
        await screenshot(page, 'alarm-groups-phone-dark');
      },
      DEMO.admin,
    ));
});
