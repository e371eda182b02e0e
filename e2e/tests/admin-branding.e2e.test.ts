import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectText, openAs, t } from '../src/console';
import { startServer, type RunningServer } from '../src/server';
import { solidPng } from '../src/tiles';

/** A page of this server (see openAs). */
const open = (
  browser: Browser,
  server: RunningServer,
  account: { email: string; password: string } | null,
  path: string,
  options: { locale: string; theme: 'light' | 'dark'; width?: number },
) => openAs(browser, server.url, account, path, options);

/** The page is no wider than the phone. */
const overflowOf = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('the admin panel: logo and CO₂ factors', () => {
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

  it('at 390 px in the dark theme the admin uploads a logo and sees it in the header; a disguised file is refused', async () => {
    const { page, errors, close } = await open(browser, server, DEMO.admin, '/admin-panel', {
      locale: 'en_US',
      theme: 'dark',
    });
    try {
      await page.getByTestId('admin-panel').waitFor({ timeout: 45_000 });
      await page.getByTestId('logo-settings').waitFor({ timeout: 30_000 });
      // No logo yet: the header shows the built-in mark.
      expect(await page.getByTestId('header-mark').getByTestId('site-logo').count()).toBe(0);

      // A page named .png and declared image/png: refused by its bytes, with the translated message.
      await page.getByTestId('logo-file').setInputFiles({
        name: 'logo.png',
        mimeType: 'image/png',
        buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      });
      await expectText(page.getByTestId('logo-error'), t('en_US', 'errors.logoType'), 15_000);

      await page.getByTestId('logo-file').setInputFiles({
        name: 'brand.png',
        mimeType: 'image/png',
        buffer: solidPng(96, 32, [46, 160, 67]),
      });
      const headerLogo = page.getByTestId('header-mark').getByTestId('site-logo');
      await headerLogo.waitFor({ timeout: 15_000 });
      expect(await headerLogo.getAttribute('src')).toMatch(/^\/api\/settings\/logo\?v=[A-Za-z0-9_-]+$/);
      // Loaded and decoded (a broken image has no natural width).
      await expect.poll(() => headerLogo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(96);
      expect(await headerLogo.getAttribute('alt')).toBe(t('en_US', 'app.name'));
      await page.getByTestId('logo-error').waitFor({ state: 'detached' });
      expect(await overflowOf(page)).toBeLessThanOrEqual(1);
      await screenshot(page, 'admin-branding-390-dark');
      // The one console error is the refused upload's 400.
      expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    } catch (error) {
      await screenshot(page, 'failed-admin-branding-logo').catch(() => undefined);
      throw error;
    } finally {
      await close();
    }
  }, 120_000);

  it('the login page at 390 px in the light theme shows the logo, without signing in', async () => {
    const { page, errors, close } = await open(browser, server, null, '/login', {
      locale: 'tr_TR',
      theme: 'light',
    });
    try {
      const logo = page.locator('.auth-card-brand').getByTestId('site-logo');
      await logo.waitFor({ timeout: 45_000 });
      await expect.poll(() => logo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(96);
      expect(await overflowOf(page)).toBeLessThanOrEqual(1);
      await screenshot(page, 'login-logo-390-light');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);

  it("at 390 px in the light theme the admin overrides Türkiye's CO₂ factor: the KPIs use it; then removes the logo", async () => {
    const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const { items: plants } = await api.get<{ items: { id: number; time_zone: string }[] }>('plants');
    const istanbul = plants.find((p) => p.time_zone === 'Europe/Istanbul');
    expect(istanbul).toBeDefined();
    type Model = { co2_factor_kg_per_kwh: number; co2_factor_source: string; co2_factor_origin: string };
    const modelOf = async () =>
      (await api.get<{ model: Model }>(`plants/${istanbul!.id}/kpis?period=day`)).model;
    expect(await modelOf()).toMatchObject({ co2_factor_kg_per_kwh: 0.44, co2_factor_origin: 'built_in' });

    const { page, errors, close } = await open(browser, server, DEMO.admin, '/admin-panel', {
      locale: 'de_DE',
      theme: 'light',
    });
    try {
      await page
        .getByTestId('co2-table')
        .locator('tbody tr.ant-table-row')
        .first()
        .waitFor({ timeout: 45_000 });
      await expectText(page.getByTestId('co2-value-TR'), '0.44');
      await page.getByTestId('co2-edit-TR').click();
      const dialog = page.locator('.ant-modal');
      await page.getByTestId('co2-country').waitFor();
      expect(await page.getByTestId('co2-country').isDisabled()).toBe(true);
      // Out of range first: the shared schema's message in the dialog, nothing saved.
      await page.getByTestId('co2-kg_per_kwh').fill('5');
      await page.getByTestId('co2-save').click();
      await expectText(
        dialog.locator('.ant-form-item-explain-error').first(),
        t('de_DE', 'validation.outOfRange'),
      );
      await page.getByTestId('co2-kg_per_kwh').fill('0.5');
      await page.getByTestId('co2-year').fill('2024');
      await page.getByTestId('co2-source').fill('TEİAŞ 2024, Netzmix (Admin)');
      await page.getByTestId('co2-save').click();
      await dialog.waitFor({ state: 'detached' });
      await expectText(page.getByTestId('co2-value-TR'), '0.5');
      await expectText(page.getByTestId('co2-origin-TR'), t('de_DE', 'admin.co2.origin.override'));
      expect(await modelOf()).toMatchObject({
        co2_factor_kg_per_kwh: 0.5,
        co2_factor_source: 'TEİAŞ 2024, Netzmix (Admin)',
        co2_factor_origin: 'override',
      });
      expect(await overflowOf(page)).toBeLessThanOrEqual(1);
      await screenshot(page, 'admin-branding-390-light');

      // The logo is removed: the header shows the built-in mark again.
      await page.getByTestId('header-mark').getByTestId('site-logo').waitFor();
      await page.getByTestId('logo-remove').click();
      await page
        .locator('.ant-popconfirm')
        .getByRole('button', { name: t('de_DE', 'admin.settings.logoRemove') })
        .click();
      await page.getByTestId('header-mark').getByTestId('site-logo').waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    } catch (error) {
      await screenshot(page, 'failed-admin-branding-co2').catch(() => undefined);
      throw error;
    } finally {
      await close();
    }
    expect((await api.get<{ logo_url: string | null }>('settings/public')).logo_url).toBeNull();
  }, 120_000);
});
