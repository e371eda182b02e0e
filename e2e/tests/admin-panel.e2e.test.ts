import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectPath, expectText, menuTestId, openAs, t } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

/** A page of this server (see openAs). */
const open = (
  browser: Browser,
  server: RunningServer,
  account: { email: string; password: string } | null,
  path: string,
  options: { locale: string; theme: 'light' | 'dark'; width?: number },
) => openAs(browser, server.url, account, path, options);

describe('the admin panel', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ SIMULATOR: 'false', MODBUS_POLLER: 'false' }),
      launchBrowser(),
    ]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the admin changes the site name at 390 px in the dark theme and it applies without a restart', async () => {
    const { page, errors, close } = await open(browser, server, DEMO.admin, '/admin-panel', {
      locale: 'en_US',
      theme: 'dark',
      width: 390,
    });
    try {
      // Generous: the first load of the console's bundle is slow on a loaded machine.
      await page.getByTestId('admin-panel').waitFor({ timeout: 45_000 });
      await page.getByTestId('settings-form').waitFor({ timeout: 30_000 });
      const name = `Plant Ops ${Date.now() % 100_000}`;
      await page.getByTestId('settings-site_name').fill(name);
      await page.getByTestId('settings-save').click();
      // The header of this page follows at once (the menu drawer at 390 px holds the brand).
      await expect
        .poll(() => page.title(), { timeout: 10_000 })
        .toBe(`${t('en_US', 'pages.adminPanel')} · ${name}`);
      // The page does not overflow the phone's width.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(1);

      // A bad value is refused with the shared message, next to the field.
      await page.getByTestId('settings-raw_retention_days').fill('0');
      await page.getByTestId('settings-save').click();
      await expectText(
        page.locator('.ant-form-item-explain-error').first(),
        t('en_US', 'validation.outOfRange'),
      );
      await page.getByTestId('settings-raw_retention_days').fill('90');

      // The other tabs open: collection health lists the demo devices, the backup tab the SQLite download.
      await page.getByRole('tab', { name: t('en_US', 'admin.tabs.health') }).click();
      await page
        .getByTestId('health-table')
        .locator('tbody tr.ant-table-row')
        .first()
        .waitFor({ timeout: 30_000 });
      // The MQTT collector's state is shown with the devices (this server runs without a broker).
      await expectText(
        page.getByTestId('mqtt-health'),
        t('en_US', 'admin.health.mqtt.notConfigured'),
        30_000,
      );
      // So is the Modbus poller's (turned off on this server: the demo's devices are simulated in process).
      await expectText(page.getByTestId('modbus-health'), t('en_US', 'admin.health.modbus.notConfigured'));
      // At 390 px the last tab sits half under the tab bar's "more" button: a click event on the tab itself.
      await page.getByRole('tab', { name: t('en_US', 'admin.tabs.backup') }).dispatchEvent('click');
      await page.getByTestId('backup-download').waitFor({ timeout: 30_000 });
      await screenshot(page, 'admin-panel-390-dark');
      expect(errors).toEqual([]);
    } catch (error) {
      await screenshot(page, 'failed-admin-panel').catch(() => undefined);
      throw error;
    } finally {
      await close();
    }

    // The same server, no restart: another browser sees the new name, and the API serves it.
    const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const settings = await api.get<{ site_name: string | null }>('admin/settings');
    const other = await open(browser, server, DEMO.admin, '/map', {
      locale: 'tr_TR',
      theme: 'light',
      width: 1440,
    });
    try {
      await other.page.getByTestId('menu').waitFor({ timeout: 45_000 });
      await expectText(other.page.getByTestId('site-name'), settings.site_name!, 30_000);
    } finally {
      await other.close();
    }
  }, 120_000);

  it("the admin sees the operator's session at 390 px in the light theme and revokes it: the token stops working", async () => {
    const operator = await ApiClient.login(server.url, DEMO.operator.email, DEMO.operator.password);
    const claims = JSON.parse(Buffer.from(operator.sessionToken.split('.')[1]!, 'base64url').toString()) as {
      sub: string;
    };
    const operatorId = Number(claims.sub);
    await operator.get(`users/${operatorId}`);

    const { page, errors, close } = await open(browser, server, DEMO.admin, '/admin-panel', {
      locale: 'de_DE',
      theme: 'light',
      width: 390,
    });
    try {
      await page.getByTestId('admin-panel').waitFor({ timeout: 45_000 });
      // At 390 px the tab may sit under the tab bar's "more" button: a click event on the tab itself.
      await page.getByRole('tab', { name: t('de_DE', 'admin.tabs.sessions') }).dispatchEvent('click');
      const card = page.getByTestId(`sessions-user-${operatorId}`);
      await card.waitFor({ timeout: 30_000 });
      expect(await card.getByTestId('session-item').count()).toBeGreaterThanOrEqual(1);
      // The admin's own session is marked as this one.
      await expect
        .poll(() => page.getByTestId('sessions-list').textContent())
        .toContain(t('de_DE', 'admin.sessions.current'));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(1);
      await screenshot(page, 'admin-sessions-390-light');

      await page.getByTestId(`revoke-sessions-${operatorId}`).click();
      await page
        .locator('.ant-popconfirm')
        .getByRole('button', { name: t('de_DE', 'admin.sessions.revokeAll') })
        .click();
      await card.waitFor({ state: 'detached', timeout: 15_000 });
      expect(errors).toEqual([]);
    } catch (error) {
      await screenshot(page, 'failed-admin-sessions').catch(() => undefined);
      throw error;
    } finally {
      await close();
    }
    await expect(operator.get(`users/${operatorId}`)).rejects.toThrow(/401/);
  }, 120_000);

  it('the operator cannot reach the page: no menu entry, sent to the first permitted page, API 403', async () => {
    const { page, close } = await open(browser, server, DEMO.operator, '/admin-panel', {
      locale: 'tr_TR',
      theme: 'light',
      width: 1440,
    });
    try {
      await expectPath(page, '/map', 30_000);
      await page.getByTestId('menu').waitFor();
      expect(await page.getByTestId(menuTestId('/admin-panel')).count()).toBe(0);
      expect(await page.getByTestId('admin-panel').count()).toBe(0);
    } finally {
      await close();
    }
    const api = await ApiClient.login(server.url, DEMO.operator.email, DEMO.operator.password);
    await expect(api.get('admin/settings')).rejects.toThrow(/403/);
  }, 60_000);
});
