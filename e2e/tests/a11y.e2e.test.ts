import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, Result } from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { animationsDone, launchBrowser } from '../src/browser';
import { pageVisits, THEME_NAMES, Visitor, type PageVisit } from '../src/pages';
import { startServer, type RunningServer } from '../src/server';

// Evaluated rather than added as a script tag: the console's CSP (script-src 'self') rightly refuses inline scripts.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DESKTOP = { width: 1440, height: 900 };

/** WCAG 2.1 A and AA, the level the issue asks for. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

type Axe = { run: (context: Node, options: object) => Promise<AxeResults> };

/** Serious and critical violations on the page as readable lines (rule, impact, target, summary). */
async function violations(page: Page, where: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // Building a CSS selector for every checked node is most of axe's time on a long table: the first
  // pass goes without, and only a page that fails is checked again to say where.
  const run = (selectors: boolean) =>
    page.evaluate(
      ({ tags, selectors }) =>
        (window as unknown as { axe: Axe }).axe.run(document, {
          runOnly: { type: 'tag', values: tags },
          resultTypes: ['violations'],
          selectors,
        }),
      { tags: TAGS, selectors },
    );
  const serious = (results: AxeResults) =>
    results.violations.filter((v: Result) => v.impact === 'serious' || v.impact === 'critical');
  if (serious(await run(false)).length === 0) return [];
  return serious(await run(true)).flatMap((v: Result) =>
    v.nodes.map(
      (n) =>
        `${where}: ${v.id} (${v.impact}) ${n.target.join(' ')} — ${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()}`,
    ),
  );
}

/** Presses Tab until the focused element matches the selector, up to a limit. */
async function tabTo(page: Page, selector: string, limit = 60): Promise<void> {
  for (let i = 1; i <= limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

describe('accessibility: axe-core WCAG 2.1 A/AA on every page, light and dark; keyboard use', () => {
  let server: RunningServer;
  let browser: Browser;
  let visits: PageVisit[];
  let visitor: Visitor | undefined;
  const visit = (name: string) => visits.find((v) => v.name === name)!;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    // A11Y_PAGES=single-line,kameralar checks only those visits (a quick look while fixing one page).
    const only = process.env.A11Y_PAGES?.split(',');
    visits = (await pageVisits(server)).filter((v) => !only || only.includes(v.name));
    visitor = await Visitor.open(browser, server, DESKTOP);
  });
  afterAll(async () => {
    await visitor?.close();
    await browser?.close();
    await server?.stop();
  });

  it('has no serious or critical violation on any page, in either theme', async () => {
    const found: string[] = [];
    for (const v of visits) {
      const page = await visitor!.go(v);
      for (const theme of await visitor!.themeOrder(v)) {
        await visitor!.theme(v, theme);
        found.push(...(await violations(page, `${v.name} ${theme}`)));
      }
    }
    if (found.length) console.error(found.join('\n'));
    expect(found).toEqual([]);
  }, 180_000);

  it('has none with a management drawer open, nor with a modal over it, in either theme', async () => {
    const found: string[] = [];
    const devices = visit('device-management');
    for (const [i, theme] of THEME_NAMES.entries()) {
      const page = await visitor!.go(devices);
      await visitor!.theme(devices, theme);
      // A device's form in its drawer (a device without an ingest key per theme, for the modal below).
      await page.locator('[data-testid^="device-edit-"]').nth(i).click();
      await page.getByTestId('ingest-key-create').waitFor();
      await animationsDone(page);
      found.push(...(await violations(page, `device drawer ${theme}`)));

      // A new ingest key shows once, in a modal over the drawer.
      await page.getByTestId('ingest-key-create').click();
      await page.getByTestId('ingest-key-value').waitFor();
      await animationsDone(page);
      found.push(...(await violations(page, `ingest key modal ${theme}`)));
      await page.keyboard.press('Escape');
      await page.getByTestId('ingest-key-value').waitFor({ state: 'hidden' });
      // The drawer hears Escape once focus is back in it, which a loaded machine can take a while to do
      // after the modal closes: press again until it goes.
      await vi.waitFor(
        async () => {
          await page.keyboard.press('Escape');
          await page.getByTestId('device-drawer').waitFor({ state: 'hidden', timeout: 1_500 });
        },
        { timeout: 20_000, interval: 200 },
      );
    }
    await visitor!.theme(devices, 'light');
    if (found.length) console.error(found.join('\n'));
    expect(found).toEqual([]);
  }, 120_000);

  it('works by keyboard: Tab reaches the menu and a page action, Enter opens a drawer, Escape closes it', async () => {
    // A fresh load, so Tab starts at the top of the page.
    const page = await visitor!.go(visit('plant-management'));
    await page.reload();
    await visit('plant-management').ready(page);

    /** The focused element's computed outline: a visible ring has a style other than none and a width. */
    const expectFocusRing = async () => {
      const ring = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement!);
        return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
      });
      expect(ring.style).not.toBe('none');
      expect(ring.width).toBeGreaterThanOrEqual(2);
    };

    await tabTo(page, '[data-testid="menu"], [data-testid="menu"] *');
    await expectFocusRing();
    await tabTo(page, '[data-testid="plant-create"]');
    await expectFocusRing();

    await page.keyboard.press('Enter');
    await page.getByTestId('plant-drawer').waitFor();
    // Focus moves into the drawer, so the form is the next thing the keyboard reaches.
    await page.waitForFunction(() => document.activeElement?.closest('.ant-drawer') !== null);
    await page.keyboard.press('Escape');
    await page.getByTestId('plant-drawer').waitFor({ state: 'hidden' });

    // A row's icon link (to a plant's devices) has a ring too: ours, not Ant Design's.
    await tabTo(page, '.row-icon-link, [data-testid^="plant-edit-"]');
    await expectFocusRing();

    // The user menu opens with Enter and closes with Escape.
    await page.getByTestId('user-menu').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('profile-link').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('profile-link').waitFor({ state: 'hidden' });
  });

  it('reaches the phone menu by keyboard: the header button opens the drawer and Escape closes it', async () => {
    const v = visit('fault');
    const page = visitor!.page(v);
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      // A fresh load, so Tab starts at the top of the page.
      await visitor!.go(v);
      await page.reload();
      await v.ready(page);
      await tabTo(page, '[data-testid="menu-open"]');
      await page.keyboard.press('Enter');
      await page.getByTestId('menu').waitFor();
      expect(await page.getByTestId('menu-open').getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Escape');
      await page.getByTestId('menu').waitFor({ state: 'hidden' });
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});
