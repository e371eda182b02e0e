import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectText, tr, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface Named {
  id: number;
  name: string;
}
interface AlarmRow {
  id: number;
  rule_id: number | null;
  status_id: number;
  fault_id: number | null;
}
interface FaultRow {
  id: number;
  alarm_id: number | null;
  title: string;
}

describe('alarms page', () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let signal: Named;
  let rule: Named;

  beforeAll(async () => {
    // No simulator: the only values of the signal are the ones this test sends.
    [server, browser] = await Promise.all([
      startServer({ SIMULATOR: 'false', MODBUS_POLLER: 'false' }),
      launchBrowser(),
    ]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const plant = (await api.get<{ items: Named[] }>('plants?sort=name&pageSize=200')).items[0]!;
    // An inverter's AC power: readings it sends are within its rating, so the server stores them.
    const inverter = (
      await api.get<{ items: Named[] }>(`devices?plant_id=${plant.id}&type=inverter&sort=name&pageSize=200`)
    ).items[0]!;
    signal = (
      await api.get<{ items: (Named & { key: string })[] }>(`signals?device_id=${inverter.id}&pageSize=200`)
    ).items.find((s) => s.key === 'ac_power')!;
    expect(signal).toBeDefined();
    // A high-priority custom rule on the signal: above 120 kW (of a 100 kW inverter) raises at once.
    rule = await api.post<Named>('alarms/custom/0', {
      name: `E2E eşik ${Date.now()}`,
      description: 'Tarayıcı testi',
      priority_id: 3,
      tag_id: signal.id,
      operant: '>',
      value: 120,
      is_active: true,
    });
    // A normal value first, so that the rule has judged the signal once.
    await api.post('telemetry', { points: [{ signal_id: signal.id, ts: Date.now() - 5_000, value: 10 }] });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows an alarm raised by ingesting a violating value without a reload, approves it into a fault', () =>
    withPage(
      browser,
      server.url,
      'alarms-live-approve',
      async (page) => {
        await page.goto('/alarms');
        await expectText(page.getByTestId('page-title'), tr('pages.alarms'));
        const card = page.getByTestId('alarms-page');
        await vi.waitFor(async () => expect(await card.getAttribute('data-live-status')).toBe('open'), {
          timeout: 10_000,
        });
        await expect(page.getByTestId('alarm-table').textContent()).resolves.not.toContain(rule.name);
        // The header's substation badge is there for a user who may view alarms.
        expect(await page.getByTestId('alarm-badge').getAttribute('data-count')).toMatch(/^\d+$/);
        const navigations: string[] = [];
        page.on('framenavigated', (frame) => navigations.push(frame.url()));

        await api.post('telemetry', { points: [{ signal_id: signal.id, ts: Date.now(), value: 140 }] });

        // The alarm arrives over the live stream: a row in the active list and a toast (priority 3).
        let alarm: AlarmRow | undefined;
        await vi.waitFor(
          async () => {
            alarm = (await api.get<AlarmRow[]>('alarms?status_id=1')).find((a) => a.rule_id === rule.id);
            expect(alarm).toBeDefined();
          },
          { timeout: 15_000, interval: 200 },
        );
        const id = alarm!.id;
        const message = page.getByTestId(`alarm-message-${id}`);
        await expectText(message, new RegExp(`^${rule.name}: `), 10_000);
        await expect(message.textContent()).resolves.toContain('140');
        await page.getByTestId(`alarm-toast-${id}`).waitFor();
        await expect(page.getByTestId(`alarm-status-${id}`).getAttribute('data-status')).resolves.toBe('1');
        await expect(page.locator(`tr[data-row-key="${id}"] [data-priority="3"]`).count()).resolves.toBe(1);
        expect(navigations).toEqual([]);
        await screenshot(page, 'alarms-page-light');

        // Approve: the confirmation says the alarm becomes a fault.
        await page.getByTestId(`alarm-approve-${id}`).click();
        const confirm = page.locator('.ant-popconfirm:visible');
        await expectText(confirm.locator('.ant-popconfirm-description'), tr('alarms.page.approveConfirm'));
        await page.getByTestId(`alarm-approve-ok-${id}`).click();
        // It leaves the active list and shows as approved.
        await page.locator(`tr[data-row-key="${id}"]`).waitFor({ state: 'detached' });
        await page.getByTestId('alarm-filter-approved').click();
        await vi.waitFor(async () =>
          expect(await page.getByTestId(`alarm-status-${id}`).getAttribute('data-status')).toBe('2'),
        );
        expect(navigations).toEqual([]);

        // Exactly one fault came from it; /fault lists it.
        const faults = (await api.get<{ items: FaultRow[] }>(`faults?alarm_id=${id}`)).items;
        expect(faults).toHaveLength(1);
        const fault = faults[0]!;
        expect(fault.title).toContain(rule.name);
        await page.goto('/fault');
        await expectText(page.getByTestId('page-title'), tr('pages.fault'));
        await expectText(page.getByTestId(`fault-row-${fault.id}`), new RegExp(rule.name), 10_000);
      },
      DEMO.admin,
    ));
});
