import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, openAs } from '../src/console';
import { settled, THEME_NAMES } from '../src/pages';
import { startServer, type RunningServer } from '../src/server';

interface Named {
  id: number;
  name: string;
}
interface UserRow extends Named {
  surname: string;
  email: string;
  company_id: number | null;
  is_active: boolean;
}

const DESKTOP = 1440;
const PHONE = 390;

/**
 * How a table shows at the page's width: whether its own scroll area is wider than what it shows, and the
 * header cells (by their text) whose right edge lies beyond the visible part of the table.
 */
function tableFit(page: Page, testId: string): Promise<{ scrolls: boolean; hidden: string[] }> {
  return page.getByTestId(testId).evaluate((table) => {
    const scroller = table.querySelector('.ant-table-content, .ant-table-body') as HTMLElement;
    const visible = scroller.getBoundingClientRect();
    const hidden = [...table.querySelectorAll('thead th')]
      .filter((th) => th.getBoundingClientRect().right > visible.right + 1)
      .map((th) => th.textContent?.trim() ?? '');
    return { scrolls: scroller.scrollWidth > scroller.clientWidth + 1, hidden };
  });
}

describe('screens that hide nothing', () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Opens a console page at a width and theme (Turkish unless said) and waits until it has settled. */
  async function open(path: string, width: number, theme: 'light' | 'dark', locale = 'tr_TR') {
    const opened = await openAs(browser, server.url, DEMO.admin, path, { locale, theme, width });
    await opened.page.getByTestId('page-title').waitFor({ timeout: 60_000 });
    await settled(opened.page);
    return opened;
  }

  it('at 1440 px the fault list shows detection, acknowledgement and repair times, and the device table its last columns, without sideways scrolling', async () => {
    // A fault as the demo's alarms make them: a long title, a device, an assignee, acknowledged and repaired.
    const plant = (await api.get<{ items: Named[] }>('plants?sort=name&pageSize=1')).items[0]!;
    const inverter = (
      await api.get<{ items: Named[] }>(`devices?plant_id=${plant.id}&type=inverter&sort=name&pageSize=1`)
    ).items[0]!;
    const { company_id: companyId } = await api.get<{ company_id: number }>(`plants/${plant.id}`);
    const assignee = (await api.get<UserRow[]>('users')).find(
      (u) => u.is_active && u.company_id === companyId,
    )!;
    const body = {
      plant_id: plant.id,
      device_id: inverter.id,
      title:
        'İnverter arıza durumunda (durum kodu 7): DC yalıtım direnci düşük, 3. ve 4. diziler kontrol edilmeli',
      priority_id: 4,
      assignee_user_id: assignee.id,
    };
    const fault = await api.post<{ id: number }>('faults/0', body);
    await api.post(`faults/${fault.id}`, { ...body, status: 'in_progress' });
    await api.post(`faults/${fault.id}`, {
      ...body,
      status: 'resolved',
      resolution: 'Dizi sigortası değiştirildi',
    });

    for (const theme of THEME_NAMES) {
      const { page, errors, close } = await open('/fault', DESKTOP, theme);
      try {
        await page.getByTestId(`fault-row-${fault.id}`).waitFor();
        const fit = await tableFit(page, 'fault-table');
        expect(fit.hidden).toEqual([]);
        expect(fit.scrolls).toBe(false);
        await screenshot(page, `screens-faults-${DESKTOP}-${theme}`);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
      const devices = await open('/device-management', DESKTOP, theme);
      try {
        await devices.page.locator('[data-testid="device-table"] tr.ant-table-row').first().waitFor();
        const fit = await tableFit(devices.page, 'device-table');
        expect(fit.hidden).toEqual([]);
        expect(fit.scrolls).toBe(false);
        await screenshot(devices.page, `screens-devices-${DESKTOP}-${theme}`);
        expect(devices.errors).toEqual([]);
      } finally {
        await devices.close();
      }
    }
    // On a phone both still fit the page: their tables scroll inside their card, not the page.
    for (const path of ['/fault', '/device-management']) {
      const { page, close } = await open(path, PHONE, 'light');
      try {
        await page.locator('tr.ant-table-row').first().waitFor();
        await vi.waitFor(async () =>
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE),
        );
        await screenshot(page, `screens-${path.slice(1)}-${PHONE}-light`);
      } finally {
        await close();
      }
    }
  });
});
