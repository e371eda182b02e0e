import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, vi } from 'vitest';
import { DEMO, PAGE_LOAD_TIMEOUT, screenshot } from './browser';
import { tokenFor } from './console';

/** The wall-clock parts of an instant in a zone, two digits each (the year four). */
export function wall(
  ms: number,
  timeZone: string,
): Record<'day' | 'month' | 'year' | 'hour' | 'minute' | 'second', string> {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(ms);
  const of = (type: string) => parts.find((p) => p.type === type)!.value;
  return {
    day: of('day'),
    month: of('month'),
    year: of('year'),
    hour: of('hour'),
    minute: of('minute'),
    second: of('second'),
  };
}

/** YYYY-MM-DD of an instant in a zone. */
export const localDay = (ms: number, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone }).format(ms);

/**
 * A page signed in as the demo admin, with the browser's clock in `timezoneId`, in `locale` (Turkish unless
 * told), light, at 1440 px, opened at `path`; `now` sets the page's clock to that instant, from which it runs on.
 */
export async function openZonedPage(
  browser: Browser,
  serverUrl: string,
  path: string,
  { timezoneId, locale = 'tr_TR', now }: { timezoneId: string; locale?: string; now?: number },
): Promise<{ page: Page; context: BrowserContext }> {
  const token = await tokenFor(serverUrl, DEMO.admin);
  const context = await browser.newContext({
    baseURL: serverUrl,
    viewport: { width: 1440, height: 900 },
    locale: locale.replace('_', '-'),
    timezoneId,
    storageState: {
      cookies: [],
      origins: [
        {
          origin: serverUrl,
          localStorage: [
            { name: 'token', value: token },
            { name: 'locale', value: locale },
          ],
        },
      ],
    },
  });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('[page error]', error.message));
  if (now !== undefined) await page.clock.install({ time: now });
  await page.goto(path);
  await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
  return { page, context };
}

/**
 * Screenshots of the page at 1440 and 390 px in the light theme, then in the dark one; `ready` waits for (or
 * brings back) what the pictures should show.
 */
export async function lookInBothThemes(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    // The theme switch is in the header at desktop width.
    await page.setViewportSize({ width: 1440, height: 900 });
    if (theme === 'dark') {
      // A drawer's mask or an open dropdown covers the header: closed first, `ready` opens it again.
      await page.keyboard.press('Escape');
      await page.getByTestId('theme-toggle').click();
      await vi.waitFor(async () =>
        expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark'),
      );
    }
    await ready();
    await screenshot(page, `${name}-${theme}-1440`);
    await page.setViewportSize({ width: 390, height: 844 });
    await ready();
    await screenshot(page, `${name}-${theme}-390`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
