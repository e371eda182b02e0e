import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectPageErrors, DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectPath, expectText, t, tokenFor, tr } from '../src/console';
import { startServer, type RunningServer } from '../src/server';
import { startTileServer, type TileServer } from '../src/tiles';

interface OverviewItem {
  plant_id: number;
  name: string;
  latitude: number | null;
  longitude: number | null;
}

/** Cluster animations (zooming in, splitting) take a moment; counts are taken once they settle. */
const WAIT = { timeout: 10_000, interval: 250 };

/** Plants the page shows: each marker counts one, each cluster the number it shows. */
async function plantsOnMap(page: Page): Promise<number> {
  return page.evaluate(() => {
    const single = document.querySelectorAll('.plant-marker-icon').length;
    const clustered = [...document.querySelectorAll('.plant-cluster')].reduce(
      (sum, c) => sum + Number(c.textContent),
      0,
    );
    return single + clustered;
  });
}

/** Opens /map signed in, in a language and theme, and waits until markers are drawn. */
async function openMap(
  browser: Browser,
  server: RunningServer,
  account: { email: string; password: string },
  options: { locale?: string; theme?: 'light' | 'dark'; width?: number } = {},
): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: options.width ?? 1440, height: 900 },
    storageState: {
      cookies: [],
      origins: [
        {
          origin: server.url,
          localStorage: [
            { name: 'token', value: await tokenFor(server.url, account) },
            { name: 'locale', value: options.locale ?? 'tr_TR' },
            { name: 'theme', value: options.theme ?? 'light' },
          ],
        },
      ],
    },
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto('/map');
  await page.getByTestId('plant-map').waitFor();
  await page.locator('.plant-marker-icon, .plant-cluster').first().waitFor();
  return { page, errors, close: () => context.close() };
}

describe('the plant map', () => {
  let server: RunningServer;
  let offline: RunningServer;
  let browser: Browser;
  let tiles: TileServer;
  let placed: OverviewItem[];
  let operatorPlaced: OverviewItem[];
  let deadTileUrl: string;

  beforeAll(async () => {
    tiles = await startTileServer();
    // A port nothing listens on: a tile server that cannot be reached, as on a site without internet.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    deadTileUrl = `http://127.0.0.1:${deadPort}`;
    [server, offline, browser] = await Promise.all([
      startServer({ MAP_TILE_URL: tiles.template }),
      startServer({ MAP_TILE_URL: `${deadTileUrl}/{z}/{x}/{y}.png` }),
      launchBrowser(),
    ]);
    const admin = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const operator = await ApiClient.login(server.url, DEMO.operator.email, DEMO.operator.password);
    const hasPlace = (p: OverviewItem) => p.latitude !== null && p.longitude !== null;
    placed = (await admin.get<{ items: OverviewItem[] }>('plants/overview')).items.filter(hasPlace);
    operatorPlaced = (await operator.get<{ items: OverviewItem[] }>('plants/overview')).items.filter(
      hasPlace,
    );
    expect(placed.length).toBeGreaterThan(operatorPlaced.length);
    expect(operatorPlaced.length).toBeGreaterThan(0);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), offline?.stop(), tiles?.close()]);
  });

  it('shows one marker or cluster per plant in scope on the configured tiles, and a popup opens the plant', async () => {
    const { page, errors, close } = await openMap(browser, server, DEMO.admin);
    try {
      await vi.waitFor(async () => expect(await plantsOnMap(page)).toBe(placed.length), WAIT);
      expect(tiles.requested.length).toBeGreaterThan(0);
      await expect.poll(() => page.locator('.leaflet-tile-loaded').count()).toBeGreaterThan(0);
      expect(await page.getByTestId('map-offline').count()).toBe(0);
      await screenshot(page, 'map-admin');

      // A plant standing alone (clusters split when clicked: markercluster zooms in on them) names itself
      // on its marker and opens its figures.
      await page.evaluate(() => ((window as unknown as { mapMarker: number }).mapMarker = 1));
      const single = page.locator('.plant-marker-icon[data-plant-id]');
      await vi.waitFor(
        async () => {
          if ((await single.count()) === 0) {
            await page.locator('.plant-cluster').first().click();
            throw new Error('every plant is still in a cluster');
          }
        },
        { timeout: 15_000, interval: 1_000 },
      );
      const marker = single.first();
      const targetId = await marker.getAttribute('data-plant-id');
      const target = placed.find((p) => String(p.plant_id) === targetId)!;
      expect(await marker.getAttribute('title')).toContain(target.name);
      await marker.click();
      const popup = page.getByTestId('plant-popup');
      await expectText(popup.locator('.plant-popup-name'), target.name);
      await expect.poll(() => popup.getByTestId('status-tag').count()).toBe(1);
      await popup.getByTestId('plant-popup-link').click();
      await expectPath(page, `/santral-detay/${target.plant_id}`);
      await expectText(page.getByTestId('page-title'), tr('pages.plantDetail'));
      // Inside the app: the page was not reloaded.
      expect(await page.evaluate(() => (window as unknown as { mapMarker?: number }).mapMarker)).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it("shows the operator only their company's plants, in English", async () => {
    const { page, errors, close } = await openMap(browser, server, DEMO.operator, { locale: 'en_US' });
    try {
      await vi.waitFor(async () => expect(await plantsOnMap(page)).toBe(operatorPlaced.length), WAIT);
      await expectText(page.getByTestId('page-title'), t('en_US', 'pages.map'));
      await expectText(page.getByTestId('map-fit'), t('en_US', 'mapView.showAll'));
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('without tiles, still shows every plant on the shipped country outlines and says why', async () => {
    const { page, errors, close } = await openMap(browser, offline, DEMO.admin, { locale: 'de_DE' });
    try {
      await vi.waitFor(async () => expect(await plantsOnMap(page)).toBe(placed.length), WAIT);
      await expectText(
        page.getByTestId('map-offline').locator('.ant-alert-title'),
        t('de_DE', 'mapView.tilesUnavailable'),
      );
      await expect.poll(() => page.locator('path.map-country').count()).toBeGreaterThan(100);
      await screenshot(page, 'map-offline-de');
      // Chromium logs each failed tile request; those, and nothing else, are expected.
      expect(errors.filter((e) => !e.includes(deadTileUrl))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('is usable at 390 px wide in the dark theme, in Macedonian', async () => {
    const { page, errors, close } = await openMap(browser, server, DEMO.admin, {
      locale: 'mk_MK',
      theme: 'dark',
      width: 390,
    });
    try {
      await vi.waitFor(async () => expect(await plantsOnMap(page)).toBe(placed.length), WAIT);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const box = await page.getByTestId('plant-map').boundingBox();
      expect(box!.width).toBeGreaterThan(340);
      expect(box!.height).toBeGreaterThan(350);
      await expectText(page.getByTestId('map-fit'), t('mk_MK', 'mapView.showAll'));
      await screenshot(page, 'map-dark-390-mk');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
