import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ROUTES, LOCALES, type Locale } from '@solar/shared';
import { collectPageErrors, DEMO, launchBrowser, PAGE_LOAD_TIMEOUT, screenshot } from '../src/browser';
import { ApiClient, expectText, t, tokenFor } from '../src/console';
import { settled, THEME_NAMES } from '../src/pages';
import { repoRoot, startServer, type RunningServer } from '../src/server';

/** The monitoring pages an operator keeps open all day, by route path. */
const MONITORING_PATHS = [
  '/map',
  '/santraller',
  '/santral-detay/:plantId',
  '/inverter-detay/:inverterId',
  '/kameralar',
  '/kamera-detay/:cameraId',
  '/single-line',
];

/** 11/22/26 or 11:45 PM: how Intl writes a date or time when it falls back to en-US. */
const US_DATE_TIME = /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\d{1,2}:\d{2}(:\d{2})? ?[AP]M\b/;

/** Every text of a locale file, flattened to key → text. */
function texts(locale: Locale): Map<string, string> {
  const file = path.join(repoRoot, 'packages/i18n/locales', `${locale}.json`);
  const out = new Map<string, string>();
  const walk = (node: unknown, prefix: string) => {
    if (typeof node === 'string') out.set(prefix, node);
    else if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) walk(v, prefix ? `${prefix}.${k}` : k);
  };
  walk(JSON.parse(readFileSync(file, 'utf8')), '');
  return out;
}

/**
 * Texts that betray a missing translation in `locale`: a Turkish text whose key reads differently in the
 * locale or is missing from it (a component that hard-codes or falls back to Turkish), and every key itself
 * (i18next shows the key when it finds no text).
 */
function untranslatedMarkers(locale: Locale): Set<string> {
  const source = texts('tr_TR');
  const target = texts(locale);
  const own = new Set(target.values());
  const markers = new Set<string>(source.keys());
  if (locale !== 'tr_TR')
    for (const [key, text] of source) {
      const translated = target.get(key);
      // Short texts (units, "PR", "kW") are the same in every language; only longer ones can betray.
      if (translated !== text && text.length > 3 && !own.has(text)) markers.add(text);
    }
  return markers;
}

const STANDARD_NAMES = 'signals.standardNames.';
/** The standard Turkish signal names by entry (`key` or `key__variant`), as the web's signalName reads them. */
const standardNames = [...texts('tr_TR')]
  .filter(([entry]) => entry.startsWith(STANDARD_NAMES))
  .map(([entry, name]) => ({ entry: entry.slice(STANDARD_NAMES.length), name }));

/** True for a signal whose stored name is the standard Turkish name of its key (apps/web/src/lib/signal-name.ts). */
const isStandardName = (signal: { key: string; name: string }) =>
  standardNames.some(
    ({ entry, name }) =>
      (entry === signal.key || entry.startsWith(`${signal.key}__`)) && name === signal.name.trim(),
  );

/** The trimmed texts of every visible text node in the page's header, menu and content. */
function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent || !parent.checkVisibility({ visibilityProperty: true })) continue;
      found.push(text);
    }
    return found;
  });
}

describe('monitoring pages in all four languages and both themes', () => {
  let server: RunningServer;
  let browser: Browser;
  let paths: { route: (typeof CONSOLE_ROUTES)[number]; url: string }[];
  /**
   * User data, shown as typed in every language: plant names and the names people gave their signals. A
   * signal whose name is still the standard Turkish name of its key ("Işınım") is not among them: the page
   * shows the catalogue's name in the reader's language (signals.standardNames), so its Turkish name on a
   * page in another language is a leftover like any other.
   */
  const userData = new Set<string>();

  beforeAll(async () => {
    // The demo as `npm start` runs it: the simulator produces live values and serves the demo cameras.
    [server, browser] = await Promise.all([
      startServer({ SIMULATOR: 'true', SIMULATOR_BACKFILL_DAYS: '1' }),
      launchBrowser(),
    ]);
    const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const devices = (
      await api.get<{ items: { id: number; type: string; plant_id: number }[] }>('devices?pageSize=200')
    ).items;
    for (const plant of (await api.get<{ items: { name: string }[] }>('plants?pageSize=200')).items)
      userData.add(plant.name);
    for (let page = 1; ; page++) {
      const { items, total } = await api.get<{ items: { key: string; name: string }[]; total: number }>(
        `signals?pageSize=200&page=${page}`,
      );
      for (const signal of items) if (!isStandardName(signal)) userData.add(signal.name);
      if (page * 200 >= total) break;
    }
    const inverter = devices.find((d) => d.type === 'inverter')!;
    const camera = devices.find((d) => d.type === 'camera')!;
    const ids: Record<string, number> = {
      plantId: inverter.plant_id,
      inverterId: inverter.id,
      cameraId: camera.id,
    };
    paths = MONITORING_PATHS.map((p) => {
      const route = CONSOLE_ROUTES.find((r) => r.path === p);
      if (!route) throw new Error(`${p} is not in the route table`);
      return { route, url: p.replace(/:([A-Za-z]+)/g, (_, name: string) => String(ids[name])) };
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const locale of LOCALES)
    it(`renders every monitoring page in ${locale}, light and dark, with no key, Turkish leftover or console error`, async () => {
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: { width: 1440, height: 900 },
        reducedMotion: 'reduce',
        storageState: {
          cookies: [],
          origins: [
            {
              origin: server.url,
              localStorage: [
                { name: 'token', value: await tokenFor(server.url, DEMO.admin) },
                { name: 'locale', value: locale },
                { name: 'theme', value: 'light' },
              ],
            },
          ],
        },
      });
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      const markers = untranslatedMarkers(locale);
      for (const name of userData) markers.delete(name);
      const problems: string[] = [];
      try {
        await page.goto('/');
        await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
        for (const theme of THEME_NAMES) {
          if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) {
            await page.getByTestId('theme-toggle').click();
            await page.waitForFunction((v) => document.documentElement.dataset.theme === v, theme);
          }
          for (const { route, url } of paths) {
            // Through the router, as a click in the menu does: the app stays loaded, only the page changes.
            await page.evaluate((target) => {
              window.history.pushState(null, '', target);
              window.dispatchEvent(new PopStateEvent('popstate'));
            }, url);
            await expectText(page.getByTestId('page-title'), t(locale, route.titleKey), 15_000);
            await settled(page);
            for (const text of await visibleTexts(page)) {
              if (markers.has(text)) problems.push(`${url} (${theme}): "${text}"`);
              // An American date or clock outside English: Intl fell back to en-US (Chromium has no mk data).
              if (locale !== 'en_US' && US_DATE_TIME.test(text))
                problems.push(`${url} (${theme}): en-US format "${text}"`);
            }
            if (locale !== 'tr_TR' || theme === 'dark')
              await screenshot(page, `monitoring-${locale}-${theme}-${url.split('/')[1]}`);
          }
        }
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale.slice(0, 2));
      } catch (error) {
        await screenshot(page, `failed-monitoring-${locale}`).catch(() => undefined);
        throw error;
      } finally {
        await context.close();
      }
      expect(problems, 'untranslated texts').toEqual([]);
      expect(errors, 'console errors').toEqual([]);
    }, 240_000);
});
