import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@solar/shared';
import { DEMO, launchBrowser } from '../src/browser';
import { LOCALES, expectText, fieldError, resetLinkFor, t, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

/**
 * Every form shows our translated messages (spec §5) and never the browser's own bubble. The browser
 * validates a form's native constraints (type=email, required, pattern…) before `submit` and, when one
 * fails, fires `invalid` on the field, shows its bubble in the browser's language and never fires
 * `submit`, so our validation on submit would not run. These tests count both events around a click on
 * the submit button: no `invalid`, one `submit`, and our text under the field, in every locale.
 */

/** Starts counting `invalid` and `submit` events on the page (capture phase: before any handler). */
async function countFormEvents(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { formEvents: { invalid: number; submit: number } };
    w.formEvents = { invalid: 0, submit: 0 };
    document.addEventListener('invalid', () => w.formEvents.invalid++, true);
    document.addEventListener('submit', () => w.formEvents.submit++, true);
  });
}

const formEvents = (page: Page) =>
  page.evaluate(() => (window as unknown as { formEvents: { invalid: number; submit: number } }).formEvents);

/**
 * Clicks the submit button and expects our message under the field, the submission to have reached
 * our handler without the browser's validation, and the form to opt out of native validation.
 */
async function submitAndExpect(
  page: Page,
  ids: { form: string; submit: string; field: string },
  expected: string,
): Promise<void> {
  await countFormEvents(page);
  await page.getByTestId(ids.submit).click();
  await expectText(fieldError(page, ids.field), expected);
  expect(await formEvents(page)).toEqual({ invalid: 0, submit: 1 });
  expect(await page.getByTestId(ids.form).evaluate((form) => (form as HTMLFormElement).noValidate)).toBe(
    true,
  );
}

/** True when the browser itself would refuse the form (a native constraint fails). */
const nativelyInvalid = (page: Page, formId: string) =>
  page.getByTestId(formId).evaluate((form) => !(form as HTMLFormElement).checkValidity());

/** Opens a logged-out page in a locale, saved before the page's scripts run (as the console saves it). */
async function openIn(page: Page, locale: Locale, path: string): Promise<void> {
  await page.addInitScript((value) => window.localStorage.setItem('locale', value), locale);
  await page.goto(path);
}

describe('forms show our translated validation messages, never the browser’s', () => {
  let server: RunningServer;
  let browser: Browser;
  let resetPath = '';
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    // A reset link for the operator, requested over HTTP as the forgot-password page does.
    const health = await fetch(`${server.url}/api/health`);
    const cookie = health.headers
      .getSetCookie()
      .find((c) => c.startsWith('XSRF-TOKEN='))!
      .split(';')[0]!;
    const answer = await fetch(`${server.url}/api/Users/resetpasswordrequest`, {
      method: 'POST',
      headers: {
        cookie,
        'x-xsrf-token': cookie.slice('XSRF-TOKEN='.length),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: DEMO.operator.email }),
    });
    expect(answer.status).toBe(200);
    await vi.waitFor(() => expect(resetLinkFor(server.outbox(), DEMO.operator.email)).toBeTruthy(), {
      timeout: 10_000,
      interval: 100,
    });
    resetPath = new URL(resetLinkFor(server.outbox(), DEMO.operator.email)!).pathname;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  describe.each(LOCALES.map((locale) => [locale]))('%s', (locale: Locale) => {
    const run = (name: string, body: (page: Page) => Promise<void>, as?: typeof DEMO.operator) =>
      withPage(browser, server.url, `form-validation-${locale}-${name}`, body, as);

    it('login: an invalid email gets our message, not the browser’s', () =>
      run('login', async (page) => {
        const logins: string[] = [];
        page.on('request', (r) => {
          if (/\/api\/users\/login$/i.test(r.url())) logins.push(r.url());
        });
        await openIn(page, locale, '/login');
        await page.getByTestId('login-email').fill('not-an-email');
        await page.getByTestId('login-password').fill('whatever');
        // The field is still type=email: the browser alone would have refused this form.
        expect(await nativelyInvalid(page, 'login-form')).toBe(true);
        await submitAndExpect(
          page,
          { form: 'login-form', submit: 'login-submit', field: 'login-email' },
          t(locale, 'validation.invalidEmail'),
        );
        await page.getByTestId('login-email').fill('');
        await expectText(fieldError(page, 'login-email'), t(locale, 'validation.required'));
        expect(logins).toEqual([]);
      }));

    it('forgot-password: an invalid email gets our message', () =>
      run('forgot', async (page) => {
        await openIn(page, locale, '/forgot-password');
        await page.getByTestId('forgot-email').fill('not-an-email');
        expect(await nativelyInvalid(page, 'forgot-form')).toBe(true);
        await submitAndExpect(
          page,
          { form: 'forgot-form', submit: 'forgot-submit', field: 'forgot-email' },
          t(locale, 'validation.invalidEmail'),
        );
        expect(await page.getByTestId('forgot-success').count()).toBe(0);
      }));

    it('reset-password: a weak password and a different repeat get our messages', () =>
      run('reset', async (page) => {
        await openIn(page, locale, resetPath);
        await page.getByTestId('reset-password').fill('abc');
        await page.getByTestId('reset-password-repeat').fill('abd');
        await submitAndExpect(
          page,
          { form: 'reset-form', submit: 'reset-submit', field: 'reset-password' },
          t(locale, 'validation.weakPassword'),
        );
        await expectText(
          fieldError(page, 'reset-password-repeat'),
          t(locale, 'validation.passwordsDoNotMatch'),
        );
      }));

    it('profile: an emptied name gets our required message', () =>
      run(
        'profile',
        async (page) => {
          await page.evaluate((value) => window.localStorage.setItem('locale', value), locale);
          await page.reload();
          await page.getByTestId('user-menu').click();
          await page.getByTestId('profile-link').click();
          await page.getByTestId('profile-form').waitFor();
          const saves: string[] = [];
          page.on('request', (r) => {
            if (/\/api\/users\/profile\//i.test(r.url())) saves.push(r.url());
          });
          await page.getByTestId('profile-name').fill('');
          await submitAndExpect(
            page,
            { form: 'profile-form', submit: 'profile-save', field: 'profile-name' },
            t(locale, 'validation.required'),
          );
          expect(saves).toEqual([]);
        },
        DEMO.operator,
      ));
  });
});
