import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, screenshot } from '../src/browser';
import {
  ApiClient,
  decodeJwt,
  expectPath,
  expectText,
  fieldError,
  storage,
  toast,
  tr,
  withPage,
  type ApiUser,
} from '../src/console';
import { startServer, type RunningServer } from '../src/server';

/** Opens the own profile through the user menu; returns the user id from the URL. */
async function openProfile(page: Page): Promise<number> {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('profile-link').click();
  await page.waitForURL(/\/profile\/\d+$/);
  await page.getByTestId('profile-form').waitFor();
  return Number(/\/profile\/(\d+)$/.exec(page.url())![1]);
}

describe('profile page', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const run = (name: string, body: (page: Page) => Promise<void>, as?: { email: string; password: string }) =>
    withPage(browser, server.url, `profile-${name}`, body, as);

  it('opens /profile/{id} from the user menu with the card and the form; the username is locked', () =>
    run(
      'open',
      async (page) => {
        const id = await openProfile(page);
        expect(String(id)).toBe(decodeJwt((await storage(page, 'token'))!).sub);
        await expectText(page.getByTestId('page-title'), tr('pages.profile'));
        await expectText(page.getByTestId('profile-card-email'), DEMO.operator.email);

        const api = await ApiClient.login(server.url, DEMO.operator.email, DEMO.operator.password);
        const me = await api.get<ApiUser>(`users/${id}`);
        await expectText(page.getByTestId('profile-card-name'), `${me.name} ${me.surname}`);
        for (const field of ['name', 'surname', 'username', 'email', 'telephone'] as const) {
          expect(await page.getByTestId(`profile-${field}`).inputValue(), field).toBe(me[field]);
        }
        expect(await page.getByTestId('profile-username').isDisabled()).toBe(true);
        // The own email is editable: a change needs the current password and a confirmation by mail
        // (account-sessions.e2e.test.ts).
        expect(await page.getByTestId('profile-email').isDisabled()).toBe(false);
        expect(await page.getByTestId('profile-current_password').isEditable()).toBe(true);
        expect(await page.getByTestId('profile-name').isEditable()).toBe(true);
        expect(await page.getByTestId('profile-surname').isEditable()).toBe(true);
        expect(await page.getByTestId('profile-telephone').isEditable()).toBe(true);
        await screenshot(page, 'profile-light');
        await page.getByTestId('theme-toggle').click();
        await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
        // The form follows the theme (also waits out the colour transition before the screenshot).
        await page.waitForFunction(() =>
          ['profile-cancel', 'profile-surname'].every((id) => {
            const el = document.querySelector(`[data-testid="${id}"]`)!;
            const [r = 255, g = 255, b = 255] = (
              getComputedStyle(el).backgroundColor.match(/[\d.]+/g) ?? []
            ).map(Number);
            return r < 60 && g < 60 && b < 60;
          }),
        );
        await screenshot(page, 'profile-dark');
      },
      DEMO.operator,
    ));

  it('saves telephone and surname: success toast, back to the first page, new values on reopening', () =>
    run(
      'save',
      async (page) => {
        const id = await openProfile(page);
        const surname = 'Kaya-Test';
        const telephone = '+90 555 123 45 67';
        const posts: string[] = [];
        // The live stream's subscription POSTs belong to the page landed on (the map), not to the save.
        page.on('request', (r) => {
          if (r.method() === 'POST' && r.url().includes('/api/') && !r.url().includes('/api/stream/')) {
            posts.push(r.url());
          }
        });
        await page.getByTestId('profile-surname').fill(surname);
        await page.getByTestId('profile-telephone').fill(telephone);
        await page.getByTestId('profile-save').click();

        await toast(page, 'İşlem Başarılı').waitFor();
        await expectPath(page, '/map');
        await expectText(page.getByTestId('page-title'), tr('pages.map'));
        expect(posts.map((u) => new URL(u).pathname.toLowerCase())).toEqual([`/api/users/profile/${id}`]);
        // The header shows the refreshed user.
        // The visible name, not the button's screen-reader label after it.
        await expectText(page.getByTestId('user-menu').locator('.user-menu-name'), new RegExp(`${surname}$`));

        await openProfile(page);
        expect(await page.getByTestId('profile-surname').inputValue()).toBe(surname);
        expect(await page.getByTestId('profile-telephone').inputValue()).toBe(telephone);
        await expectText(page.getByTestId('profile-card-name'), new RegExp(` ${surname}$`));

        // Stored on the server, not only in the page.
        await page.reload();
        await page.getByTestId('profile-form').waitFor();
        expect(await page.getByTestId('profile-surname').inputValue()).toBe(surname);
        expect(await page.getByTestId('profile-telephone').inputValue()).toBe(telephone);
        const api = await ApiClient.login(server.url, DEMO.operator.email, DEMO.operator.password);
        const saved = await api.get<ApiUser>(`users/${id}`);
        expect({ surname: saved.surname, telephone: saved.telephone }).toEqual({ surname, telephone });
      },
      DEMO.operator,
    ));

  it('shows the required message for an empty surname and sends nothing', () =>
    run(
      'required',
      async (page) => {
        const id = await openProfile(page);
        const posts: string[] = [];
        // The live stream's subscription POSTs belong to the page landed on (the map), not to the save.
        page.on('request', (r) => {
          if (r.method() === 'POST' && r.url().includes('/api/') && !r.url().includes('/api/stream/')) {
            posts.push(r.url());
          }
        });
        await page.getByTestId('profile-surname').fill('');
        await expectText(fieldError(page, 'profile-surname'), tr('validation.required'));
        await page.getByTestId('profile-save').click();
        await expectText(fieldError(page, 'profile-surname'), 'Bu alan zorunludur');
        await page.getByTestId('profile-telephone').fill('12');
        await expectText(fieldError(page, 'profile-telephone'), tr('validation.invalidPhone'));
        await page.getByTestId('profile-save').click();
        await expectText(fieldError(page, 'profile-telephone'), tr('validation.invalidPhone'));
        expect(new URL(page.url()).pathname).toBe(`/profile/${id}`);

        // Cancel restores the saved values; saving them now sends exactly one call, so the invalid
        // attempts above sent none.
        await page.getByTestId('profile-cancel').click();
        expect(await page.getByTestId('profile-surname').inputValue()).not.toBe('');
        await fieldError(page, 'profile-surname').waitFor({ state: 'detached' });
        await page.getByTestId('profile-save').click();
        await toast(page, tr('common.success')).waitFor();
        expect(posts.map((u) => new URL(u).pathname.toLowerCase())).toEqual([`/api/users/profile/${id}`]);
      },
      DEMO.operator,
    ));

  it('logs out from the user menu: back on /login, token cleared, console closed', () =>
    run(
      'logout',
      async (page) => {
        expect(await storage(page, 'token')).toBeTruthy();
        await page.getByTestId('user-menu').click();
        await page.getByTestId('logout').click();
        await expectPath(page, '/login');
        await page.getByTestId('login-form').waitFor();
        expect(await storage(page, 'token')).toBeNull();
        expect(await page.getByTestId('menu').count()).toBe(0);
        // The console is closed after logging out, also after a reload.
        await page.goto('/map');
        await page.getByTestId('not-found').waitFor();
        expect(await page.getByTestId('menu').count()).toBe(0);
        await page.goto('/');
        await expectPath(page, '/login');
      },
      DEMO.operator,
    ));
});
