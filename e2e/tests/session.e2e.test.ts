import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, login, PAGE_LOAD_TIMEOUT } from '../src/browser';
import {
  decodeJwt,
  expectPath,
  expectText,
  serverJwtSecret,
  signJwt,
  storage,
  toast,
  withPage,
} from '../src/console';
import { startServer, type RunningServer } from '../src/server';

const EXPIRED_MESSAGE = 'Oturum süreniz doldu. Lütfen tekrar giriş yapınız.';

/** A token like the page's own, re-signed with `secret` and with the given lifetime claims. */
function forgeToken(real: string, secret: string, times: { iat: number; exp: number }): string {
  return signJwt({ ...decodeJwt(real), ...times }, secret);
}

const now = () => Math.floor(Date.now() / 1000);
const setToken = (page: Page, token: string) =>
  page.evaluate((value) => window.localStorage.setItem('token', value), token);

/** Expects the session-expired message on /login with the token gone. */
async function expectLoggedOutWithMessage(page: Page): Promise<void> {
  // After a reload or a navigation the message comes with the console's load (its router and toasts: the
  // message and the redirect wait for them, lib/navigation and lib/notify), so it gets a page load's time.
  await toast(page, EXPIRED_MESSAGE).waitFor({ timeout: PAGE_LOAD_TIMEOUT });
  await expectPath(page, '/login');
  await page.getByTestId('login-form').waitFor();
  expect(await storage(page, 'token')).toBeNull();
  expect(await page.getByTestId('menu').count()).toBe(0);
}

describe('session: expired tokens, anti-forgery header, content security policy', () => {
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
    withPage(browser, server.url, `session-${name}`, body, as);

  it('an expired token makes the next call end the session with the message (in the running app)', () =>
    run(
      'expired-in-app',
      async (page) => {
        const real = (await storage(page, 'token'))!;
        const expired = forgeToken(real, serverJwtSecret(server.dataDir), {
          iat: now() - 9 * 3600,
          exp: now() - 3600,
        });
        await page.getByTestId('user-menu').click();
        await page.getByTestId('profile-link').click();
        await page.getByTestId('profile-form').waitFor();
        await setToken(page, expired);
        const answer = page.waitForResponse((r) => /\/api\/users\/profile\/\d+$/i.test(r.url()));
        await page.getByTestId('profile-save').click();
        expect((await answer).status()).toBe(401);
        await expectLoggedOutWithMessage(page);
      },
      DEMO.operator,
    ));

  it('an expired token found on reload ends the session with the message', () =>
    run(
      'expired-reload',
      async (page) => {
        const real = (await storage(page, 'token'))!;
        const expired = forgeToken(real, serverJwtSecret(server.dataDir), {
          iat: now() - 9 * 3600,
          exp: now() - 60,
        });
        await setToken(page, expired);
        await page.reload();
        await expectLoggedOutWithMessage(page);
      },
      DEMO.operator,
    ));

  it('a token signed with a wrong secret ends the session with the message', () =>
    run(
      'wrong-secret',
      async (page) => {
        const real = (await storage(page, 'token'))!;
        const foreign = forgeToken(real, 'not-the-server-secret-but-32-chars-long!!', {
          iat: now(),
          exp: now() + 3600,
        });
        await setToken(page, foreign);
        await page.goto('/user-management');
        await expectLoggedOutWithMessage(page);
      },
      DEMO.admin,
    ));

  // Tokens that are no session: malformed, or well-formed (and even validly signed) without the claims
  // the console reads. Each is treated like an expired token at every route, and never sent.
  const notSessions: [string, () => string][] = [
    ['that is malformed', () => 'garbage.not-a.jwt'],
    ['whose claims name no user', () => 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MX0.x'],
    [
      'signed by the server but lacking permissions',
      () =>
        signJwt(
          { sub: '1', name: 'x', role_id: 1, iat: now(), exp: now() + 3600 },
          serverJwtSecret(server.dataDir),
        ),
    ],
  ];
  for (const [kind, token] of notSessions)
    it(`a token ${kind} ends the session with the message at every route, without calling the API`, () =>
      run(`not-a-session-${kind.replace(/\W+/g, '-')}`, async (page) => {
        const sent: string[] = [];
        page.on('request', (r) => {
          if (r.headers().authorization) sent.push(r.url());
        });
        await page.goto('/login');
        for (const path of ['/map', '/alarms', '/profile/1', '/']) {
          await setToken(page, token());
          await page.goto(path);
          await expectLoggedOutWithMessage(page);
          expect(await page.getByTestId('not-found').count(), path).toBe(0);
        }
        expect(sent).toEqual([]);
      }));

  it('sends X-XSRF-TOKEN equal to the XSRF-TOKEN cookie on every API request', () =>
    run('xsrf', async (page) => {
      const requests: Request[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/api/')) requests.push(r);
      });
      await login(page, DEMO.operator);
      // A GET after a reload, and a POST from the profile form.
      await page.reload();
      await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      await page.getByTestId('user-menu').click();
      await page.getByTestId('profile-link').click();
      await page.getByTestId('profile-form').waitFor();
      await page.getByTestId('profile-save').click();
      await toast(page, 'İşlem Başarılı').waitFor();

      const cookie = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN');
      expect(cookie?.value).toBeTruthy();
      expect(cookie?.httpOnly).toBe(false);
      const methods = new Set(requests.map((r) => r.method()));
      expect(methods).toEqual(new Set(['GET', 'POST']));
      expect(requests.length).toBeGreaterThanOrEqual(4);
      for (const request of requests) {
        const headers = await request.allHeaders();
        expect(headers['x-xsrf-token'], `${request.method()} ${request.url()}`).toBe(cookie!.value);
      }
    }));

  it('serves / with a CSP allowing only own scripts, and the console runs under it without violations', () =>
    run('csp', async (page) => {
      const violations: string[] = [];
      page.on('console', (m) => {
        if (m.text().includes('Content Security Policy')) violations.push(m.text());
      });
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) =>
          console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      const response = await page.goto('/');
      const csp = response!.headers()['content-security-policy'] ?? '';
      const scriptSrc = csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('script-src '));
      expect(scriptSrc).toBe("script-src 'self'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("object-src 'none'");

      await expectPath(page, '/login');
      await page.getByTestId('login-email').fill(DEMO.admin.email);
      await page.getByTestId('login-password').fill(DEMO.admin.password);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      await page.getByTestId('theme-toggle').click();
      await page.getByTestId('language-switcher').click();
      await page.getByTestId('language-option-en_US').click();
      await expectText(page.getByTestId('page-title'), 'Map');
      await page.getByTestId('menu-dashboard').click();
      await expectText(page.getByTestId('page-title'), 'Dashboard');
      await page.getByTestId('user-menu').click();
      await page.getByTestId('profile-link').click();
      await page.getByTestId('profile-form').waitFor();
      expect(violations).toEqual([]);
    }));
});
