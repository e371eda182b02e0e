import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, PAGE_LOAD_TIMEOUT, screenshot } from '../src/browser';
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
  it('changes the own password: checks the fields, shows a wrong current password, then signs in with the new one', async () => {
    // An account of its own, so that the demo users' passwords stay as the other tests expect them.
    const stamp = Date.now().toString(36);
    const account = { email: `pw-${stamp}@example.com`, password: 'Eski-Sifre1' };
    const fresh = 'Yeni-Sifre2';
    const admin = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const roles = await admin.get<{ items: { id: number; name: string }[] }>('roles');
    await admin.post<ApiUser>('users/0', {
      name: 'Parola',
      surname: 'Deneme',
      username: `pw-${stamp}`,
      telephone: '+90 555 000 00 00',
      email: account.email,
      language_id: 1,
      is_active: true,
      role_id: roles.items.find((r) => r.name === 'Operatör')!.id,
      user_units: [],
      password: account.password,
    });

    await run(
      'password',
      async (page) => {
        await openProfile(page);
        const posts: string[] = [];
        page.on('request', (r) => {
          if (r.method() === 'POST' && r.url().includes('/password')) posts.push(r.url());
        });
        // The shared schema's messages, in the reader's language; nothing is sent.
        await page.getByTestId('password-submit').click();
        await expectText(fieldError(page, 'password-current'), tr('validation.required'));
        await expectText(fieldError(page, 'password-new'), tr('validation.required'));
        await expectText(fieldError(page, 'password-repeat'), tr('validation.required'));
        await page.getByTestId('password-new').fill('kisa1');
        await expectText(fieldError(page, 'password-new'), tr('validation.weakPassword'));
        await page.getByTestId('password-new').fill(fresh);
        await page.getByTestId('password-repeat').fill(`${fresh}x`);
        await expectText(fieldError(page, 'password-repeat'), tr('validation.passwordsDoNotMatch'));
        expect(posts).toEqual([]);
        await screenshot(page, 'profile-password-errors-1440-light');

        // A wrong current password is the current password field's error; the account is unchanged.
        await page.getByTestId('password-repeat').fill(fresh);
        await page.getByTestId('password-current').fill('Yanlis-Sifre9');
        await page.getByTestId('password-submit').click();
        await expectText(fieldError(page, 'password-current'), tr('errors.currentPasswordWrong'));
        expect(posts).toHaveLength(1);
        await ApiClient.login(server.url, account.email, account.password);

        // The right one changes it: every sign-in ends, this one too, and the login page says why.
        await page.getByTestId('password-current').fill(account.password);
        await page.getByTestId('password-submit').click();
        await expectPath(page, '/login');
        await expectText(page.getByTestId('login-flash'), tr('profile.password.changed'));
        expect(await storage(page, 'token')).toBeNull();

        // The old password no longer signs in; the new one does.
        await page.getByTestId('login-email').fill(account.email);
        await page.getByTestId('login-password').fill(account.password);
        await page.getByTestId('login-submit').click();
        await page.getByTestId('login-error').waitFor();
        await page.getByTestId('login-password').fill(fresh);
        await page.getByTestId('login-submit').click();
        await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
        await expectText(page.getByTestId('user-menu').locator('.user-menu-name'), /Parola Deneme$/);

        // The form at 390 px in the dark theme.
        await page.setViewportSize({ width: 390, height: 844 });
        await page.evaluate(() => localStorage.setItem('theme', 'dark'));
        await page.goto(`/profile/${decodeJwt((await storage(page, 'token'))!).sub}`);
        await page.getByTestId('password-form').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
        await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
        await page.getByTestId('password-submit').click();
        await expectText(fieldError(page, 'password-current'), tr('validation.required'));
        await screenshot(page, 'profile-password-390-dark');
      },
      account,
    );
  });
});
