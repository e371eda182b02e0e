import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, PAGE_LOAD_TIMEOUT } from '../src/browser';
import { expectPath, expectText, tr, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

describe('routing: logged-out and logged-in paths', () => {
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
    withPage(browser, server.url, `routing-${name}`, body, as);

  it('redirects / to /login when logged out', () =>
    run('root', async (page) => {
      await page.goto('/');
      await expectPath(page, '/login');
      await page.getByTestId('login-form').waitFor();
      expect(await page.getByTestId('menu').count()).toBe(0);
    }));

  it('shows the 404 page for an unknown path logged out, and its back button returns', () =>
    run('not-found-back', async (page) => {
      await page.goto('/login');
      await page.getByTestId('login-form').waitFor();
      await page.goto('/no-such-page');
      await expectText(page.getByTestId('not-found-title'), 'Sayfa Bulunamadı');
      expect(await page.getByTestId('login-form').count()).toBe(0);
      await page.getByTestId('not-found-back').click();
      await expectPath(page, '/login');
      await page.getByTestId('login-form').waitFor();
    }));

  it('shows the 404 page for a console path logged out; back with no history goes to /login', () =>
    run('not-found-console', async (page) => {
      await page.goto('/user-management');
      await expectText(page.getByTestId('not-found-title'), tr('pages.notFound'));
      expect(await page.getByTestId('menu').count()).toBe(0);
      await page.getByTestId('not-found-back').click();
      await expectPath(page, '/login');
      await page.getByTestId('login-form').waitFor();
    }));

  it('sends a logged-in user on an unknown path to the first permitted page', () =>
    run(
      'unknown-logged-in',
      async (page) => {
        await page.goto('/definitely/not/a/page');
        await expectPath(page, '/map');
        await expectText(page.getByTestId('page-title'), tr('pages.map'));
        expect(await page.getByTestId('not-found').count()).toBe(0);
      },
      DEMO.operator,
    ));

  it('sends a logged-in user from /login and / to the console', () =>
    run(
      'login-logged-in',
      async (page) => {
        await page.goto('/login');
        await expectPath(page, '/map');
        await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
        expect(await page.getByTestId('login-form').count()).toBe(0);
        await page.goto('/');
        await expectPath(page, '/map');
        await expectText(page.getByTestId('page-title'), tr('pages.map'));
      },
      DEMO.admin,
    ));

  it('keeps a logged-in user on the same page across a reload', () =>
    run(
      'reload',
      async (page) => {
        await page.getByTestId('menu-alarms').click();
        await expectPath(page, '/alarms');
        await expectText(page.getByTestId('page-title'), tr('pages.alarms'));
        await page.reload();
        await expectText(page.getByTestId('page-title'), tr('pages.alarms'), PAGE_LOAD_TIMEOUT);
        expect(new URL(page.url()).pathname).toBe('/alarms');
      },
      DEMO.operator,
    ));
});
