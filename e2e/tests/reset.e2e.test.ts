import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, launchBrowser, PAGE_LOAD_TIMEOUT, screenshot } from '../src/browser';
import {
  ApiClient,
  expectPath,
  expectText,
  fieldError,
  resetLinkFor,
  storage,
  tr,
  withPage,
  type ApiUser,
} from '../src/console';
import { startServer, type RunningServer } from '../src/server';

const USER = {
  name: 'Deniz',
  surname: 'Sıfırlama',
  username: 'deniz.reset',
  telephone: '+90 555 000 11 22',
  email: 'deniz.reset@example.com',
  password: 'OldPass123',
};
const NEW_PASSWORD = 'NewPass456';

/** Fills the login form and submits it. */
async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

describe('forgot and reset password', () => {
  let server: RunningServer;
  let browser: Browser;
  let link = '';
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    // A fresh operator, created by the admin over HTTP.
    const admin = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const roles = await admin.get<{ items: { id: number; name: string }[] }>('roles');
    const operatorRole = roles.items.find((r) => r.name === 'Operatör');
    if (!operatorRole) throw new Error('no Operatör role');
    const created = await admin.post<ApiUser>('users/0', {
      name: USER.name,
      surname: USER.surname,
      username: USER.username,
      telephone: USER.telephone,
      email: USER.email,
      language_id: 1,
      is_active: true,
      role_id: operatorRole.id,
      user_units: [],
      password: USER.password,
    });
    expect(created.email).toBe(USER.email);
    // The account works before the reset.
    await ApiClient.login(server.url, USER.email, USER.password);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const run = (name: string, body: (page: Page) => Promise<void>) =>
    withPage(browser, server.url, `reset-${name}`, body);

  it('validates the forgot-password email', () =>
    run('forgot-validation', async (page) => {
      await page.goto('/forgot-password');
      await page.getByTestId('forgot-submit').click();
      await expectText(fieldError(page, 'forgot-email'), tr('validation.required'));
      await page.getByTestId('forgot-email').fill('abc');
      await page.getByTestId('forgot-submit').click();
      await expectText(fieldError(page, 'forgot-email'), tr('validation.invalidEmail'));
      expect(await page.getByTestId('forgot-success').count()).toBe(0);
      await page.getByTestId('forgot-back-to-login').click();
      await expectPath(page, '/login');
    }));

  it('requests a link from the login page and receives it by mail', () =>
    run('request', async (page) => {
      await page.goto('/login');
      await page.getByTestId('login-forgot').click();
      await expectPath(page, '/forgot-password');
      await page.getByTestId('forgot-email').fill(USER.email);
      await page.getByTestId('forgot-submit').click();
      await expectText(page.getByTestId('forgot-success'), tr('auth.forgot.success'));
      expect(await page.getByTestId('forgot-form').count()).toBe(0);

      // The mail is written after the answer.
      await vi.waitFor(() => expect(resetLinkFor(server.outbox(), USER.email)).toBeTruthy(), {
        timeout: 10_000,
        interval: 100,
      });
      link = resetLinkFor(server.outbox(), USER.email)!;
      expect(link.startsWith(`${server.url}/reset-password/`)).toBe(true);
    }));

  it('sets a new password through the link: mismatch message, then success on /login', () =>
    run('set', async (page) => {
      expect(link, 'the previous test got the link').toBeTruthy();
      await page.goto(link);
      await page.getByTestId('reset-form').waitFor();
      expect(await page.getByTestId('reset-checking').count()).toBe(0);

      await page.getByTestId('reset-password').fill(NEW_PASSWORD);
      await page.getByTestId('reset-password-repeat').fill('Different789');
      await page.getByTestId('reset-submit').click();
      await expectText(fieldError(page, 'reset-password-repeat'), tr('validation.passwordsDoNotMatch'));
      await screenshot(page, 'reset-mismatch');
      expect(tr('validation.passwordsDoNotMatch')).toBe('Girdiğiniz iki şifre birbiriyle eşleşmiyor');
      expect(new URL(page.url()).pathname).toMatch(/^\/reset-password\//);

      await page.getByTestId('reset-password-repeat').fill(NEW_PASSWORD);
      await fieldError(page, 'reset-password-repeat').waitFor({ state: 'detached' });
      await page.getByTestId('reset-submit').click();
      await expectPath(page, '/login');
      await expectText(page.getByTestId('login-flash'), tr('auth.reset.success'));
    }));

  it('the old password fails and the new one signs in', () =>
    run('login-after', async (page) => {
      await page.goto('/login');
      await submitLogin(page, USER.email, USER.password);
      await expectText(page.getByTestId('login-error'), tr('errors.invalidCredentials'));
      expect(await storage(page, 'token')).toBeNull();

      await submitLogin(page, USER.email, NEW_PASSWORD);
      await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      expect(await storage(page, 'token')).toBeTruthy();
      // The visible name, not the button's screen-reader label after it.
      await expectText(
        page.getByTestId('user-menu').locator('.user-menu-name'),
        new RegExp(`${USER.name} ${USER.surname}$`),
      );
    }));

  it('a used link shows the expired-or-used message and a way to request a new one', () =>
    run('used-link', async (page) => {
      await page.goto(link);
      await expectText(page.getByTestId('reset-invalid-title'), tr('auth.reset.invalidTitle'));
      await expectText(page.getByTestId('reset-invalid'), tr('errors.resetLinkInvalid'));
      expect(await page.getByTestId('reset-form').count()).toBe(0);
      await screenshot(page, 'reset-used-link');
      await page.getByTestId('reset-request-new').click();
      await expectPath(page, '/forgot-password');
      await page.getByTestId('forgot-form').waitFor();
    }));

  it('an unknown link shows the same message; its login link returns to /login', () =>
    run('unknown-link', async (page) => {
      await page.goto('/reset-password/not-a-real-guid');
      await expectText(page.getByTestId('reset-invalid'), tr('errors.resetLinkInvalid'));
      await page.getByTestId('reset-back-to-login').click();
      await expectPath(page, '/login');
    }));
});
