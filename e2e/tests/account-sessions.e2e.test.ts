import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, login, newPage } from '../src/browser';
import {
  ApiClient,
  emlText,
  expectPath,
  expectText,
  fieldError,
  storage,
  toast,
  tr,
  withPage,
} from '../src/console';
import { startServer, type RunningServer } from '../src/server';

/** The link of the newest outbox message to `email` that confirms a new address. */
function confirmLinkFor(outbox: readonly string[], email: string): string | undefined {
  const mails = outbox.filter((eml) => new RegExp(`^To:.*${email.replace(/[.+]/g, '\\$&')}`, 'im').test(eml));
  const last = mails.at(-1);
  return last ? /https?:\/\/[^\s"<>]+\/confirm-email\/[A-Za-z0-9_-]+/.exec(emlText(last))?.[0] : undefined;
}

/** Accounts and sessions (docs/security.md): logout ends the token on the server; the profile asks for the current password. */
describe('account sessions', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('logout revokes the token on the server, not only in the browser', async () => {
    const { context, page } = await newPage(browser, server.url);
    try {
      await login(page, DEMO.operator);
      const token = (await storage(page, 'token'))!;
      expect(token).toBeTruthy();
      const dashboard = () =>
        fetch(`${server.url}/api/users/dashboard`, { headers: { authorization: `Bearer ${token}` } });
      expect((await dashboard()).status).toBe(200);

      await page.getByTestId('user-menu').click();
      await page.getByTestId('logout').click();
      await expectPath(page, '/login');
      expect(await storage(page, 'token')).toBeNull();
      // A copy of the token (another tab, a thief) no longer works.
      expect((await dashboard()).status).toBe(401);
      const admin = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
      const sessions = await admin.get<{ items: { user_agent: string | null; email: string; id: string }[] }>(
        'admin/sessions',
      );
      const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string };
      expect(sessions.items.map((s) => s.id)).not.toContain(sid.sid);
    } finally {
      await context.close();
    }
  });

  it('the profile form asks for the current password before a new email, which waits for its link', () =>
    withPage(
      browser,
      server.url,
      'account-email',
      async (page: Page) => {
        await page.getByTestId('user-menu').click();
        await page.getByTestId('profile-link').click();
        await page.getByTestId('profile-form').waitFor();
        const next = 'operator.new@example.com';
        await page.getByTestId('profile-email').fill(next);
        await page.getByTestId('profile-save').click();
        await expectText(fieldError(page, 'profile-current_password'), tr('validation.required'));

        await page.getByTestId('profile-current_password').fill('not-my-password');
        await page.getByTestId('profile-save').click();
        await expectText(fieldError(page, 'profile-current_password'), tr('errors.currentPasswordWrong'));

        await page.getByTestId('profile-current_password').fill(DEMO.operator.password);
        await page.getByTestId('profile-save').click();
        await expectPath(page, '/map');
        await toast(page, next).waitFor();

        // Until the link is opened the old address is the account's.
        const api = await ApiClient.login(server.url, DEMO.operator.email, DEMO.operator.password);
        expect(api.sessionToken).toBeTruthy();
        let link: string | undefined;
        for (let i = 0; i < 100 && !link; i++) {
          link = confirmLinkFor(server.outbox(), next);
          if (!link) await new Promise((r) => setTimeout(r, 100));
        }
        expect(link).toBeDefined();
        await page.goto(new URL(link!).pathname);
        await expectText(page.getByTestId('confirm-email-done'), tr('auth.confirmEmail.success'));
        await ApiClient.login(server.url, next, DEMO.operator.password);
      },
      DEMO.operator,
    ));
});
