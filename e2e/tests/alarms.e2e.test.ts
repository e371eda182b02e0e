import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectPath, expectText, tr, withPage } from '../src/console';
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

/**
 * The control is really what a click at its centre lands on (nothing covers it, it does not spill out of
 * its table cell or card), and it lies inside that cell or card.
 */
async function expectClickable(locator: Locator): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  const box = (await locator.boundingBox())!;
  expect(box).not.toBeNull();
  const found = await locator.evaluate(
    (el, [x, y]) => {
      const top = document.elementFromPoint(x!, y!);
      const holder = el.closest('td, .ant-card')!.getBoundingClientRect();
      const own = el.getBoundingClientRect();
      return {
        hit: !!top && (top === el || el.contains(top)),
        inside: own.left >= holder.left - 0.5 && own.right <= holder.right + 0.5,
      };
    },
    [box.x + box.width / 2, box.y + box.height / 2],
  );
  expect(found).toEqual({ hit: true, inside: true });
}

/** The header badge's count and the /alarms "Aktif (n)" tab's count, once both have loaded. */
async function badgeAndActiveTab(page: Page): Promise<[number, number]> {
  const badge = await page.getByTestId('alarm-badge').getAttribute('data-count');
  const tab = await page.getByTestId('alarm-filter-active').getAttribute('data-count');
  return [Number(badge), Number(tab)];
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
        await expect(page.getByTestId(`alarm-state-${id}`).getAttribute('data-state')).resolves.toBe(
          'active_unacknowledged',
        );
        await expect(page.locator(`tr[data-row-key="${id}"] [data-priority="3"]`).count()).resolves.toBe(1);
        expect(navigations).toEqual([]);
        // The header badge counts what the Aktif tab lists: every active alarm in the user's scope.
        await vi.waitFor(
          async () => {
            const [badge, tab] = await badgeAndActiveTab(page);
            expect(tab).toBeGreaterThan(0);
            expect(badge).toBe(tab);
          },
          { timeout: 10_000 },
        );
        await screenshot(page, 'alarms-page-light');

        // Approve: the confirmation says the alarm becomes a fault.
        await page.getByTestId(`alarm-approve-${id}`).click();
        const confirm = page.locator('.ant-popconfirm:visible');
        await expectText(confirm.locator('.ant-popconfirm-description'), tr('alarms.page.approveConfirm'));
        await page.getByTestId(`alarm-approve-ok-${id}`).click();

        // Exactly one fault came from it; the success notice names it and links to it.
        let fault: FaultRow | undefined;
        await vi.waitFor(async () => {
          const faults = (await api.get<{ items: FaultRow[] }>(`faults?alarm_id=${id}`)).items;
          expect(faults).toHaveLength(1);
          fault = faults[0];
        });
        expect(fault!.title).toContain(rule.name);
        await expectText(
          page.getByTestId('fault-opened-title'),
          tr('alarms.page.faultOpened').replace('{{id}}', String(fault!.id)),
        );
        await expect(page.getByTestId('fault-opened-link').getAttribute('href')).resolves.toBe(
          `/fault-detail/${fault!.id}`,
        );

        // Acknowledged but still active (ISA-18.2): it stays in the Aktif tab and its duration keeps running.
        await vi.waitFor(async () =>
          expect(await page.getByTestId(`alarm-state-${id}`).getAttribute('data-state')).toBe(
            'active_acknowledged',
          ),
        );
        await expect(page.getByTestId(`alarm-status-${id}`).getAttribute('data-status')).resolves.toBe('2');
        const duration = page.getByTestId(`alarm-duration-${id}`);
        const before = await duration.textContent();
        await vi.waitFor(async () => expect(await duration.textContent()).not.toBe(before), {
          timeout: 5_000,
        });
        await vi.waitFor(async () => {
          const [badge, tab] = await badgeAndActiveTab(page);
          expect(badge).toBe(tab);
        });
        expect(navigations).toEqual([]);

        // "Arızayı aç" is a real control inside its cell at 1440 px: a click there opens the fault.
        const openFault = page.getByTestId(`alarm-fault-${id}`);
        await expectText(openFault, tr('alarms.page.openFault'));
        await expectClickable(openFault);
        await openFault.click();
        await expectPath(page, `/fault-detail/${fault!.id}`);
        await page.getByTestId('fault-detail-page').waitFor();
      },
      DEMO.admin,
    ));

  it('at 390 px lists alarms as cards with message, time and a clickable open-fault action', () =>
    withPage(
      browser,
      server.url,
      'alarms-phone',
      async (page) => {
        const alarm = (await api.get<AlarmRow[]>('alarms')).find(
          (a) => a.rule_id === rule.id && a.fault_id !== null,
        )!;
        expect(alarm).toBeDefined();
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto('/alarms');
        const card = page.getByTestId(`alarm-card-${alarm.id}`);
        await card.waitFor({ timeout: 10_000 });
        await expectText(page.getByTestId(`alarm-message-${alarm.id}`), new RegExp(rule.name));
        await expect(card.locator('.mono').first().textContent()).resolves.toMatch(/\d{2}:\d{2}/);
        // Nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        const openFault = page.getByTestId(`alarm-fault-${alarm.id}`);
        await expectClickable(openFault);
        await screenshot(page, 'alarms-page-phone');
        await openFault.click();
        await expectPath(page, `/fault-detail/${alarm.fault_id}`);
      },
      DEMO.admin,
    ));

  it("offers no link to a page the user may not open: the demo operator's plant page has no single-line link", async () => {
    const operatorApi = await ApiClient.login(server.url, DEMO.operator.email, DEMO.operator.password);
    const plant = (await operatorApi.get<{ items: { plant_id: number }[] }>('plants/overview')).items[0]!;
    const plantPage = async (page: Page) => {
      await page.goto(`/santral-detay/${plant.plant_id}`);
      await page.getByTestId('plant-day').waitFor({ timeout: 10_000 });
      return page.getByTestId('plant-single-line').count();
    };
    await withPage(
      browser,
      server.url,
      'plant-links-operator',
      async (page) => expect(await plantPage(page)).toBe(0),
      DEMO.operator,
    );
    await withPage(
      browser,
      server.url,
      'plant-links-admin',
      async (page) => expect(await plantPage(page)).toBe(1),
      DEMO.admin,
    );
  });
});
