import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, openAs } from '../src/console';
import { settled, THEME_NAMES } from '../src/pages';
import { startServer, type RunningServer } from '../src/server';
import { solidPng } from '../src/tiles';

interface Named {
  id: number;
  name: string;
}
interface UserRow extends Named {
  surname: string;
  email: string;
  company_id: number | null;
  is_active: boolean;
}

const DESKTOP = 1440;
const PHONE = 390;

/**
 * How a table shows at the page's width: whether its own scroll area is wider than what it shows, and the
 * header cells (by their text) whose right edge lies beyond the visible part of the table.
 */
function tableFit(page: Page, testId: string): Promise<{ scrolls: boolean; hidden: string[] }> {
  return page.getByTestId(testId).evaluate((table) => {
    const scroller = table.querySelector('.ant-table-content, .ant-table-body') as HTMLElement;
    const visible = scroller.getBoundingClientRect();
    const hidden = [...table.querySelectorAll('thead th')]
      .filter((th) => th.getBoundingClientRect().right > visible.right + 1)
      .map((th) => th.textContent?.trim() ?? '');
    return { scrolls: scroller.scrollWidth > scroller.clientWidth + 1, hidden };
  });
}

describe('screens that hide nothing', () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let cameraServer: http.Server;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    // Cameras of our own: a 4:3 picture (most security cameras) and a tall one (a camera turned upright).
    const pictures: Record<string, Buffer> = {
      '/wide.png': solidPng(640, 480, [40, 120, 200]),
      '/tall.png': solidPng(300, 600, [200, 120, 40]),
    };
    cameraServer = http.createServer((req, res) => {
      const picture = pictures[req.url ?? ''];
      if (!picture) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'image/png' }).end(picture);
    });
    await new Promise<void>((r) => cameraServer.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    cameraServer?.close();
  });

  /** Opens a console page at a width and theme (Turkish unless said) and waits until it has settled. */
  async function open(path: string, width: number, theme: 'light' | 'dark', locale = 'tr_TR') {
    const opened = await openAs(browser, server.url, DEMO.admin, path, { locale, theme, width });
    await opened.page.getByTestId('page-title').waitFor({ timeout: 60_000 });
    await settled(opened.page);
    return opened;
  }

  it('at 1440 px the fault list shows detection, acknowledgement and repair times, and the device table its last columns, without sideways scrolling', async () => {
    // A fault as the demo's alarms make them: a long title, a device, an assignee, acknowledged and repaired.
    const plant = (await api.get<{ items: Named[] }>('plants?sort=name&pageSize=1')).items[0]!;
    const inverter = (
      await api.get<{ items: Named[] }>(`devices?plant_id=${plant.id}&type=inverter&sort=name&pageSize=1`)
    ).items[0]!;
    const { company_id: companyId } = await api.get<{ company_id: number }>(`plants/${plant.id}`);
    const assignee = (await api.get<UserRow[]>('users')).find(
      (u) => u.is_active && u.company_id === companyId,
    )!;
    const body = {
      plant_id: plant.id,
      device_id: inverter.id,
      title:
        'İnverter arıza durumunda (durum kodu 7): DC yalıtım direnci düşük, 3. ve 4. diziler kontrol edilmeli',
      priority_id: 4,
      assignee_user_id: assignee.id,
    };
    const fault = await api.post<{ id: number }>('faults/0', body);
    await api.post(`faults/${fault.id}`, { ...body, status: 'in_progress' });
    await api.post(`faults/${fault.id}`, {
      ...body,
      status: 'resolved',
      resolution: 'Dizi sigortası değiştirildi',
    });

    for (const theme of THEME_NAMES) {
      const { page, errors, close } = await open('/fault', DESKTOP, theme);
      try {
        await page.getByTestId(`fault-row-${fault.id}`).waitFor();
        const fit = await tableFit(page, 'fault-table');
        expect(fit.hidden).toEqual([]);
        expect(fit.scrolls).toBe(false);
        await screenshot(page, `screens-faults-${DESKTOP}-${theme}`);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
      const devices = await open('/device-management', DESKTOP, theme);
      try {
        await devices.page.locator('[data-testid="device-table"] tr.ant-table-row').first().waitFor();
        const fit = await tableFit(devices.page, 'device-table');
        expect(fit.hidden).toEqual([]);
        expect(fit.scrolls).toBe(false);
        await screenshot(devices.page, `screens-devices-${DESKTOP}-${theme}`);
        expect(devices.errors).toEqual([]);
      } finally {
        await devices.close();
      }
    }
    // On a phone both still fit the page: their tables scroll inside their card, not the page.
    for (const path of ['/fault', '/device-management']) {
      const { page, close } = await open(path, PHONE, 'light');
      try {
        await page.locator('tr.ant-table-row').first().waitFor();
        await vi.waitFor(async () =>
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE),
        );
        await screenshot(page, `screens-${path.slice(1)}-${PHONE}-light`);
      } finally {
        await close();
      }
    }
  });

  it('the camera wall fills the width with a grid of tiles at 1440 and 390 px, and no camera picture is cropped', async () => {
    const base = `http://127.0.0.1:${(cameraServer.address() as AddressInfo).port}`;
    const plant = (await api.get<{ items: Named[] }>('plants?sort=name&pageSize=1')).items[0]!;
    const camera = (name: string, file: string) =>
      api.post<Named>('devices/0', {
        plant_id: plant.id,
        type: 'camera',
        protocol: 'http',
        name,
        snapshot_url: `${base}${file}`,
      });
    const wide = await camera('E2E Kamera 4:3', '/wide.png');
    const tall = await camera('E2E Kamera dikey', '/tall.png');
    const cameraCount = (await api.get<{ items: Named[] }>('devices?type=camera&pageSize=200')).items.length;

    /** Where each tile sits, and how each live picture is drawn inside its frame. */
    const measure = (page: Page) =>
      page.evaluate(() => {
        const wall = document.querySelector('[data-testid="camera-wall"]')?.getBoundingClientRect() ?? {
          left: 0,
          right: 0,
          width: 0,
        };
        const tiles = [...document.querySelectorAll('[data-testid="camera-tile"]')].map((tile) => {
          const r = tile.getBoundingClientRect();
          return { top: Math.round(r.top), left: r.left, right: r.right, width: r.width };
        });
        const pictures = [...document.querySelectorAll<HTMLImageElement>('img[data-testid="camera-image"]')]
          .filter((img) => img.naturalWidth > 0)
          .map((img) => {
            const box = img.getBoundingClientRect();
            const frame = img.closest('.camera-frame')!.getBoundingClientRect();
            const fit = getComputedStyle(img).objectFit;
            // The drawn picture inside the img box: `contain` scales it whole; anything else fills or crops.
            const scale =
              fit === 'contain'
                ? Math.min(box.width / img.naturalWidth, box.height / img.naturalHeight)
                : Math.max(box.width / img.naturalWidth, box.height / img.naturalHeight);
            const drawn = { width: img.naturalWidth * scale, height: img.naturalHeight * scale };
            return {
              natural: img.naturalWidth / img.naturalHeight,
              shown: drawn.width / drawn.height,
              // The drawn picture, centred in its box, lies inside both the box and the frame that clips it.
              inside:
                drawn.width <= box.width + 0.5 &&
                drawn.height <= box.height + 0.5 &&
                box.top >= frame.top - 0.5 &&
                box.bottom <= frame.bottom + 0.5 &&
                box.left >= frame.left - 0.5 &&
                box.right <= frame.right + 0.5,
            };
          });
        return { wall: { left: wall.left, right: wall.right, width: wall.width }, tiles, pictures };
      });

    for (const [width, theme] of [
      [DESKTOP, 'light'],
      [DESKTOP, 'dark'],
      [PHONE, 'light'],
      [PHONE, 'dark'],
    ] as const) {
      const { page, errors, close } = await open('/kameralar', width, theme);
      try {
        await vi.waitFor(
          async () => expect(await page.getByTestId('camera-tile').count()).toBe(cameraCount),
          { timeout: 10_000, interval: 100 },
        );
        for (const id of [wide.id, tall.id])
          await page
            .locator(`[data-testid="camera-tile"][data-camera-id="${id}"] img[data-testid="camera-image"]`)
            .waitFor({ timeout: 20_000 });
        const { wall, tiles, pictures } = await measure(page);
        const firstRow = tiles.filter((tile) => tile.top === tiles[0]!.top);
        const rows = new Set(tiles.map((tile) => tile.top)).size;
        if (width === DESKTOP) {
          // Several tiles side by side, the row reaching across the wall, and no row left short before the
          // last (a plant with one camera does not take a row of its own).
          expect(firstRow.length).toBeGreaterThanOrEqual(3);
          expect(rows).toBe(Math.ceil(tiles.length / firstRow.length));
          expect(Math.max(...firstRow.map((tile) => tile.right))).toBeGreaterThan(wall.right - 2);
        } else {
          // One tile a row, as wide as the wall.
          expect(firstRow.length).toBe(1);
          expect(firstRow[0]!.width).toBeGreaterThan(wall.width - 2);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(pictures.length).toBe(2);
        for (const picture of pictures) {
          expect(picture.inside).toBe(true);
          expect(picture.shown).toBeCloseTo(picture.natural, 2);
        }
        await screenshot(page, `screens-camera-wall-${width}-${theme}`);
        // The demo's cameras do not answer here; Chromium logs their failed pictures, nothing else is expected.
        expect(errors.filter((e) => !/\/api\/cameras\/\d+\/snapshot/.test(e))).toEqual([]);
      } finally {
        await close();
      }
    }

    // The camera's own page draws its picture whole too, with the time it was taken under it.
    for (const width of [DESKTOP, PHONE]) {
      const { page, close } = await open(`/kamera-detay/${tall.id}`, width, 'light');
      try {
        await page.getByTestId('camera-image').waitFor({ timeout: 20_000 });
        const { pictures } = await measure(page);
        expect(pictures).toHaveLength(1);
        expect(pictures[0]!.inside).toBe(true);
        expect(pictures[0]!.shown).toBeCloseTo(pictures[0]!.natural, 2);
        await page.locator('.camera-updated').waitFor();
        await screenshot(page, `screens-camera-detail-${width}-light`);
      } finally {
        await close();
      }
    }
  });

  it('at 390 px the single-line diagram lists its devices as rows to read and tap, each opening like its node', async () => {
    for (const theme of THEME_NAMES) {
      const { page, errors, close } = await open('/single-line', PHONE, theme);
      try {
        const nodes = page.locator('[data-testid="sl-canvas"] .sl-device');
        await nodes.first().waitFor();
        const devices = await nodes.evaluateAll((all) =>
          all.map((n) => ({
            id: n.getAttribute('data-device-id'),
            type: n.getAttribute('data-device-type'),
          })),
        );
        const deviceIds = devices.map((d) => d.id);
        // The fitted diagram draws its 12 px texts far smaller on a phone: too small to read or aim at.
        const zoom = Number(await page.getByTestId('sl-diagram').getAttribute('data-zoom'));
        expect(12 * zoom).toBeLessThan(9);
        const rows = page.getByTestId('sl-node-row');
        await vi.waitFor(async () => expect(await rows.count()).toBe(deviceIds.length));
        expect(await rows.evaluateAll((all) => all.map((r) => r.getAttribute('data-device-id')))).toEqual(
          deviceIds,
        );
        const sizes = await rows.evaluateAll((all) =>
          all.map((r) => {
            const box = r.getBoundingClientRect();
            return { right: box.right, height: box.height, font: parseFloat(getComputedStyle(r).fontSize) };
          }),
        );
        for (const size of sizes) {
          expect(size.right).toBeLessThanOrEqual(PHONE);
          expect(size.height).toBeGreaterThanOrEqual(44);
          expect(size.font).toBeGreaterThanOrEqual(14);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE);
        await screenshot(page, `screens-single-line-${PHONE}-${theme}`);

        // A device without a page of its own opens its values drawer; an inverter opens its page.
        const idOf = (type: string) => devices.find((d) => d.type === type)!.id;
        await page.locator(`[data-testid="sl-node-row"][data-device-id="${idOf('meter')}"]`).click();
        await page.locator('.ant-drawer-open').waitFor();
        await page.keyboard.press('Escape');
        await page.locator('.ant-drawer-open').waitFor({ state: 'detached' });
        const inverterId = idOf('inverter');
        await page.locator(`[data-testid="sl-node-row"][data-device-id="${inverterId}"]`).click();
        await page.waitForURL((url) => url.pathname === `/inverter-detay/${inverterId}`);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    }
    // At desktop width the diagram itself is readable: no list beside it.
    const { page, close } = await open('/single-line', DESKTOP, 'light');
    try {
      await page.locator('[data-testid="sl-canvas"] .sl-device').first().waitFor();
      expect(await page.getByTestId('sl-node-list').count()).toBe(0);
    } finally {
      await close();
    }
  });

  it("the map without tiles shows the operator's plants by name inside their country's outline", async () => {
    // A port nothing listens on: a tile server that cannot be reached, as on a site without internet.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const offline = await startServer({ MAP_TILE_URL: `http://127.0.0.1:${deadPort}/{z}/{x}/{y}.png` });
    try {
      const operator = await ApiClient.login(offline.url, DEMO.operator.email, DEMO.operator.password);
      const plants = (
        await operator.get<{ items: { name: string; latitude: number | null }[] }>('plants/overview')
      ).items.filter((p) => p.latitude !== null);
      expect(plants.length).toBeGreaterThan(1);
      for (const [width, theme] of [
        [DESKTOP, 'light'],
        [PHONE, 'dark'],
      ] as const) {
        const { page, errors, close } = await openAs(browser, offline.url, DEMO.operator, '/map', {
          locale: 'tr_TR',
          theme,
          width,
        });
        try {
          await page.getByTestId('map-offline').waitFor({ timeout: 60_000 });
          await page.locator('path.map-country').first().waitFor({ state: 'attached' });
          // Every plant's name is written on the map (a label on its marker or on the cluster holding it).
          await vi.waitFor(
            async () => {
              // Shown, and whole: inside the map, not cut at its edge.
              const labels = await page.locator('.plant-map-label').evaluateAll((all) => {
                const map = document.querySelector('[data-testid="plant-map"]')!.getBoundingClientRect();
                return all
                  .filter((l) => l.checkVisibility())
                  .map((l) => {
                    const r = l.getBoundingClientRect();
                    const whole = r.left >= map.left && r.right <= map.right && r.top >= map.top;
                    return whole ? (l.textContent ?? '') : `cut: ${l.textContent}`;
                  });
              });
              expect(labels.filter((l) => l.startsWith('cut:'))).toEqual([]);
              for (const plant of plants) expect(labels.join(' | ')).toContain(plant.name);
            },
            { timeout: 10_000, interval: 250 },
          );
          // Each plant sits inside a country outline drawn whole within the map: the border around it is seen.
          await vi.waitFor(
            async () => {
              const enclosed = await page.evaluate(() => {
                const map = document.querySelector('[data-testid="plant-map"]')!.getBoundingClientRect();
                const outlines = [...document.querySelectorAll('path.map-country')]
                  .map((p) => p.getBoundingClientRect())
                  .filter(
                    (r) =>
                      r.width > 40 &&
                      r.left >= map.left - 2 &&
                      r.right <= map.right + 2 &&
                      r.top >= map.top - 2 &&
                      r.bottom <= map.bottom + 2,
                  );
                return [...document.querySelectorAll('.plant-marker-icon, .plant-cluster-icon')].map((m) => {
                  const b = m.getBoundingClientRect();
                  const x = b.left + b.width / 2;
                  const y = b.top + b.height / 2;
                  return outlines.some((r) => x > r.left && x < r.right && y > r.top && y < r.bottom);
                });
              });
              expect(enclosed.length).toBeGreaterThan(0);
              expect(enclosed.every(Boolean)).toBe(true);
            },
            { timeout: 10_000, interval: 250 },
          );
          await screenshot(page, `screens-map-offline-${width}-${theme}`);
          expect(errors.filter((e) => !e.includes(`127.0.0.1:${deadPort}`))).toEqual([]);
        } catch (error) {
          await screenshot(page, `failed-screens-map-offline-${width}-${theme}`);
          throw error;
        } finally {
          await close();
        }
      }
    } finally {
      await offline.stop();
    }
  });
});
