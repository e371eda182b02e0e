import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectPageErrors, DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectText, t, tokenFor } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

/** One widget as the grid places it on the current breakpoint. */
interface Placed {
  id: string;
  type: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Every widget of the grid with its place, in id order. */
async function placements(page: Page): Promise<Placed[]> {
  const items = await page.locator('[data-testid="dashboard-grid"] [data-widget-type]').evaluateAll((nodes) =>
    nodes.map((n) => {
      const d = (n as HTMLElement).dataset;
      return {
        id: (d.testid ?? '').replace(/^widget-/, ''),
        type: d.widgetType ?? '',
        x: Number(d.gridX),
        y: Number(d.gridY),
        w: Number(d.gridW),
        h: Number(d.gridH),
      };
    }),
  );
  return items.sort((a, b) => a.id.localeCompare(b.id));
}

/** Presses the mouse on the element's centre (or an offset from its top left), moves it by steps and lets go. */
async function drag(page: Page, from: Locator, to: { x: number; y: number }, at?: { x: number; y: number }) {
  const box = (await from.boundingBox())!;
  const start = at
    ? { x: box.x + at.x, y: box.y + at.y }
    : { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 10, start.y + 10, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 15 });
  await page.mouse.up();
}

/** Grid changes settle after the pointer lets go; a loaded machine takes its time. */
const SETTLE = { timeout: 15_000, interval: 200 };

describe('the dashboard', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A signed-in context of the account at a viewport width, in a theme. */
  async function open(
    account: { email: string; password: string },
    width: number,
    theme: 'light' | 'dark' = 'light',
    height = 900,
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width, height },
      storageState: {
        cookies: [],
        origins: [
          {
            origin: server.url,
            localStorage: [
              { name: 'token', value: await tokenFor(server.url, account) },
              { name: 'locale', value: 'tr_TR' },
              { name: 'theme', value: theme },
            ],
          },
        ],
      },
    });
    // Generous: on a loaded two-core machine a page load alone has taken over 20 s.
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      await page.goto('/dashboard');
      await page.getByTestId('dashboard-grid').waitFor({ state: 'attached' });
      await page.locator('[data-widget-type]').first().waitFor();
    } catch (error) {
      await screenshot(page, `failed-dashboard-open-${width}`).catch(() => undefined);
      await context.close();
      throw new Error(`${String(error)}\npage errors: ${errors.join('\n')}`, { cause: error });
    }
    return { context, page, errors };
  }

  it('adds, moves, resizes and removes a widget, and a reload shows the saved layout', async () => {
    // Tall enough to show the whole default grid: a widget is dragged from its bottom to its top.
    const { context, page, errors } = await open(DEMO.admin, 1440, 'light', 2400);
    try {
      // A new user sees the default from their scope: the fleet tiles on top, the full width.
      const initial = await placements(page);
      expect(await page.getByTestId('dashboard-grid').getAttribute('data-breakpoint')).toBe('lg');
      expect(initial.find((w) => w.type === 'fleet_kpis')).toMatchObject({ x: 0, y: 0, w: 12 });
      expect(initial.map((w) => w.type)).toEqual(
        expect.arrayContaining(['plant_status', 'mini_map', 'open_faults']),
      );

      await page.getByTestId('dashboard-edit').click();
      await page.getByTestId('dashboard-add').click();
      await page.getByTestId('add-widget-signal').click();
      const added = (await placements(page)).find((w) => !initial.some((i) => i.id === w.id))!;
      expect(added).toMatchObject({ type: 'signal', x: 0, w: 4 });
      expect(added.y).toBe(Math.max(...initial.map((w) => w.y + w.h)));
      const widget = page.getByTestId(`widget-${added.id}`);
      await expectText(widget.getByTestId('widget-title'), t('tr_TR', 'dashboard.widget.signal'));

      // Move: dragged by its title bar to the top of the grid, beside nothing: it lands on row 0.
      const grid = (await page.getByTestId('dashboard-grid').boundingBox())!;
      await drag(
        page,
        widget.locator('.dashboard-drag-handle'),
        { x: grid.x + 60, y: grid.y + 10 },
        { x: 30, y: 10 },
      );
      await vi.waitFor(async () =>
        expect((await placements(page)).find((w) => w.id === added.id)?.y).toBe(0),
      );

      // Resize: its corner handle pulled right and down makes it wider and taller.
      const before = (await placements(page)).find((w) => w.id === added.id)!;
      const handle = widget.locator('.react-resizable-handle');
      const corner = (await handle.boundingBox())!;
      await drag(page, handle, { x: corner.x + 260, y: corner.y + 140 });
      await vi.waitFor(async () => {
        const after = (await placements(page)).find((w) => w.id === added.id)!;
        expect(after.w).toBeGreaterThan(before.w);
        expect(after.h).toBeGreaterThan(before.h);
      }, SETTLE);

      // Remove another widget.
      const faults = initial.find((w) => w.type === 'open_faults')!;
      await page.getByTestId(`widget-${faults.id}`).getByTestId('widget-remove').click();
      await vi.waitFor(async () =>
        expect((await placements(page)).some((w) => w.id === faults.id)).toBe(false),
      );

      const saved = page.waitForResponse(
        (r) => r.url().endsWith('/api/users/dashboard') && r.request().method() === 'POST',
      );
      await page.getByTestId('dashboard-save').click();
      expect((await saved).status()).toBe(200);
      await expect.poll(() => page.getByTestId('dashboard-page').getAttribute('data-editing')).toBe('false');
      const layout = await placements(page);

      await page.reload();
      await page.getByTestId('dashboard-grid').waitFor({ state: 'attached' });
      await page.locator('[data-widget-type]').first().waitFor();
      expect(await placements(page)).toEqual(layout);

      // Stored as the contract says: { data } with the widget set's version.
      const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
      const stored = await api.get<{ data: { version: number; widgets: { id: string }[] } }>(
        'users/dashboard',
      );
      expect(stored.data.version).toBe(1);
      expect(stored.data.widgets.map((w) => w.id).sort()).toEqual(layout.map((w) => w.id));
      expect(errors).toEqual([]);
    } catch (error) {
      await screenshot(page, 'failed-dashboard-edit');
      throw error;
    } finally {
      await context.close();
    }
  }, 300_000);

  it('drops widgets of another widget set with a notice and keeps the rest', async () => {
    const api = await ApiClient.login(server.url, DEMO.operator.email, DEMO.operator.password);
    await api.post('users/dashboard', {
      data: {
        version: 2,
        widgets: [
          { id: 'a', type: 'fleet_kpis', settings: {} },
          { id: 'b', type: 'carbon_ticker', settings: {} },
          { id: 'c', type: 'active_alarms', settings: {} },
        ],
        layouts: { lg: [{ i: 'a', x: 0, y: 0, w: 12, h: 3 }] },
      },
    });
    const { context, page, errors } = await open(DEMO.operator, 1440);
    try {
      const notice = page.getByTestId('dashboard-notice');
      await notice.waitFor();
      expect(await notice.textContent()).toContain('carbon_ticker');
      expect((await placements(page)).map((w) => [w.id, w.type])).toEqual([
        ['a', 'fleet_kpis'],
        ['c', 'active_alarms'],
      ]);
      await page.getByTestId('fleet-kpis').waitFor();
      expect(errors).toEqual([]);
    } catch (error) {
      await screenshot(page, 'failed-dashboard-dropped');
      throw error;
    } finally {
      await context.close();
    }
  });

  it('is usable 390 px wide: one column, nothing wider than the screen, editable, in the dark theme', async () => {
    const api = await ApiClient.login(server.url, DEMO.operator.email, DEMO.operator.password);
    // Back to no saved layout: the operator's default from their one company's plants.
    await api.post('users/dashboard', { data: null });
    const { context, page, errors } = await open(DEMO.operator, 390, 'dark');
    try {
      expect(await page.getByTestId('dashboard-grid').getAttribute('data-breakpoint')).toBe('xs');
      const widgets = await placements(page);
      expect(widgets.length).toBeGreaterThan(3);
      for (const w of widgets) expect([w.x, w.w]).toEqual([0, 1]);
      await page.getByTestId('fleet-kpis').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      for (const item of await page.locator('[data-widget-type]').all()) {
        const box = (await item.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      }
      await page.getByTestId('dashboard-edit').click();
      await page.getByTestId('dashboard-add').click();
      await page.getByTestId('add-widget-active_alarms').click();
      await vi.waitFor(async () => expect(await placements(page)).toHaveLength(widgets.length + 1), SETTLE);
      await page.getByTestId('dashboard-cancel').click();
      await vi.waitFor(async () => expect(await placements(page)).toHaveLength(widgets.length), SETTLE);
      expect(errors).toEqual([]);
    } catch (error) {
      await screenshot(page, 'failed-dashboard-phone');
      throw error;
    } finally {
      await context.close();
    }
  });
});
