import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, launchBrowser, PAGE_LOAD_TIMEOUT, screenshot } from '../src/browser';
import { decodeJwt, expectPath, expectText, fieldError, storage, tr, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

const HOUR = 3600;
const DAY = 24 * HOUR;

describe('login page', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const run = (name: string, body: (page: Page) => Promise<void>) =>
    withPage(browser, server.url, `login-${name}`, body);

  /** Counts the sign-in calls the page sends. */
  const countLoginCalls = (page: Page) => {
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/api\/users\/login$/i.test(r.url())) calls.push(r.url());
    });
    return calls;
  };

  it('loads at most 200 KB of JavaScript before sign-in, gzipped as a server compressing on the fly does', () =>
    run('first-load-bytes', async (page) => {
      const scripts: Promise<number>[] = [];
      page.on('requestfinished', (request) => {
        if (request.resourceType() !== 'script') return;
        // Level 6: the default of gzip and of servers that compress each answer as it goes.
        scripts.push(
          request.response().then(async (r) => (r ? gzipSync(await r.body(), { level: 6 }).length : 0)),
        );
      });
      await page.goto('/login', { waitUntil: 'networkidle' });
      await page.getByTestId('login-form').waitFor();
      const gzipBytes = (await Promise.all(scripts)).reduce((sum, n) => sum + n, 0);
      expect(scripts.length).toBeGreaterThan(0);
      expect(gzipBytes).toBeLessThanOrEqual(200 * 1024);
    }));

  it('shows the validation messages of spec §5 and sends nothing while the form is invalid', () =>
    run('validation', async (page) => {
      const calls = countLoginCalls(page);
      await page.goto('/login');
      await page.getByTestId('login-submit').click();
      await expectText(fieldError(page, 'login-email'), 'Bu alan zorunludur');
      await expectText(fieldError(page, 'login-password'), tr('validation.required'));
      await screenshot(page, 'login-validation');

      await page.getByTestId('login-email').fill('abc');
      await expectText(fieldError(page, 'login-email'), tr('validation.invalidEmail'));
      await page.getByTestId('login-submit').click();
      await expectText(fieldError(page, 'login-email'), tr('validation.invalidEmail'));

      await page.getByTestId('login-email').fill(DEMO.admin.email);
      await fieldError(page, 'login-email').waitFor({ state: 'detached' });
      await page.getByTestId('login-submit').click();
      await expectText(fieldError(page, 'login-password'), tr('validation.required'));
      expect(calls).toEqual([]);
      expect(page.url()).toMatch(/\/login$/);
    }));

  it('shows the translated error for a wrong password and stays on /login without a token', () =>
    run('wrong-password', async (page) => {
      const calls = countLoginCalls(page);
      await page.goto('/login');
      await page.getByTestId('login-email').fill(DEMO.admin.email);
      await page.getByTestId('login-password').fill('Wrong!Password9');
      await page.getByTestId('login-submit').click();
      await expectText(page.getByTestId('login-error'), tr('errors.invalidCredentials'));
      expect(calls).toHaveLength(1);
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await storage(page, 'token')).toBeNull();
      expect(await page.getByTestId('menu').count()).toBe(0);
      // Editing the form clears the message.
      await page.getByTestId('login-password').fill('x');
      await page.getByTestId('login-error').waitFor({ state: 'detached' });
    }));

  it('stores the token on success and shows the menu; the session lasts 8 hours', () =>
    run('success', async (page) => {
      await page.goto('/login');
      expect(await page.getByTestId('login-remember').isChecked()).toBe(false);
      await page.getByTestId('login-email').fill(DEMO.operator.email);
      await page.getByTestId('login-password').fill(DEMO.operator.password);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      await expectPath(page, '/map');
      const token = await storage(page, 'token');
      expect(token).toBeTruthy();
      const claims = decodeJwt(token!);
      expect(claims.exp - claims.iat).toBeGreaterThan(8 * HOUR - 120);
      expect(claims.exp - claims.iat).toBeLessThanOrEqual(8 * HOUR);
      expect(Math.abs(claims.exp - (Date.now() / 1000 + 8 * HOUR))).toBeLessThan(300);
    }));

  it('with remember me, the stored token lasts about 30 days', () =>
    run('remember', async (page) => {
      await page.goto('/login');
      await page.getByTestId('login-email').fill(DEMO.admin.email);
      await page.getByTestId('login-password').fill(DEMO.admin.password);
      await page.getByTestId('login-remember').check();
      await page.getByTestId('login-submit').click();
      await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      const claims = decodeJwt((await storage(page, 'token'))!);
      expect(Math.abs(claims.exp - (Date.now() / 1000 + 30 * DAY))).toBeLessThan(300);
      // The session survives a reload with the long-lived token (restored, not re-issued short).
      await page.reload();
      await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      const after = decodeJwt((await storage(page, 'token'))!);
      expect(after.exp - after.iat).toBeGreaterThan(29 * DAY);
    }));

  it('has a 17-slot background slider that advances every 5 s; the stored index cycles 1..9', () =>
    run('slider', async (page) => {
      // A fake clock, paused once the page runs, makes the 5000 ms interval exact and instant to wait for.
      // The pause lies 1 s ahead of the time read from the page: the page's clock keeps running between the
      // read and the pause (more than 10 ms while the first frame is laid out on a loaded machine), and
      // the first change is due 5 s after the slider mounts, so it still comes after the pause.
      await page.clock.install();
      await page.goto('/login');
      const slider = page.getByTestId('login-slider');
      await slider.waitFor({ state: 'attached' });
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
      expect(await slider.getAttribute('data-slide-count')).toBe('17');
      expect(await slider.locator('.login-slide').count()).toBe(17);
      expect(await slider.locator('.login-slide.is-active').count()).toBe(1);

      const stored = Number(await storage(page, 'loginBackgroundIndex'));
      expect(stored).toBeGreaterThanOrEqual(1);
      expect(stored).toBeLessThanOrEqual(9);
      expect(await slider.getAttribute('data-background-index')).toBe(String(stored));

      const slideIndex = async () => Number(await slider.getAttribute('data-slide-index'));
      // The first change comes within 5 s of the page showing…
      const first = await slideIndex();
      let waited = 0;
      while ((await slideIndex()) === first) {
        expect(waited).toBeLessThan(5_000);
        await page.clock.runFor(100);
        waited += 100;
      }
      expect(await slideIndex()).toBe((first + 1) % 17);
      // …and the next exactly 5 s after it.
      const second = await slideIndex();
      await page.clock.runFor(4_850);
      expect(await slideIndex()).toBe(second);
      await page.clock.runFor(200);
      await vi.waitFor(async () => expect(await slideIndex()).toBe((second + 1) % 17));
      const next = await slideIndex();
      expect(await slider.locator('.login-slide').nth(next).getAttribute('class')).toContain('is-active');
      expect(await slider.locator('.login-slide.is-active').count()).toBe(1);
      // And on, every 5 s, through all 17 slots back to the first.
      await page.clock.runFor(15 * 5_000);
      await vi.waitFor(async () => expect(await slideIndex()).toBe(first));

      await page.clock.resume();
      // Each visit advances the stored index, and it wraps from 9 back to 1.
      await page.reload();
      await slider.waitFor({ state: 'attached' });
      expect(Number(await storage(page, 'loginBackgroundIndex'))).toBe((stored % 9) + 1);
      await page.evaluate(() => window.localStorage.setItem('loginBackgroundIndex', '9'));
      await page.reload();
      await slider.waitFor({ state: 'attached' });
      expect(await storage(page, 'loginBackgroundIndex')).toBe('1');
      expect(await slider.getAttribute('data-background-index')).toBe('1');
    }));
});
