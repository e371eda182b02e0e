import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectPageErrors, DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectPath, expectText, t, tr, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface Named {
  id: number;
  name: string;
}
interface SignalRow extends Named {
  key: string;
}

/** A 4×3 red PNG: the smallest real image the proxy accepts (its type is checked by its first bytes). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGP4z8AARww4OQD1MQv1NXv7ggAAAABJRU5ErkJggg==',
  'base64',
);

describe('inverter and camera pages', () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let camServer: http.Server;
  let plant: Named;
  let inverter: Named;
  let liveCamera: Named;
  let downCamera: Named;
  /** AC and DC power samples posted for the inverter today (up to an hour's, every 5 minutes). */
  let powerSamples = 0;

  beforeAll(async () => {
    // No simulator: the inverter's only values are the ones this test posts, and the demo cameras are down.
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);

    // A camera of our own: a local HTTP server answering a PNG.
    camServer = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
    );
    await new Promise<void>((r) => camServer.listen(0, '127.0.0.1', r));
    const camBase = `http://127.0.0.1:${(camServer.address() as AddressInfo).port}`;
    // A port nothing listens on: a camera that is down.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));

    plant = (await api.get<{ items: Named[] }>('plants?sort=name&pageSize=200')).items[0]!;
    inverter = (
      await api.get<{ items: Named[] }>(`devices?plant_id=${plant.id}&type=inverter&sort=name&pageSize=200`)
    ).items[0]!;
    const camera = (body: object) =>
      api.post<Named>('devices/0', { plant_id: plant.id, type: 'camera', protocol: 'http', ...body });
    liveCamera = await camera({ name: 'E2E Kamera Canlı', snapshot_url: `${camBase}/snap.png` });
    downCamera = await camera({
      name: 'E2E Kamera Kapalı',
      snapshot_url: `http://127.0.0.1:${deadPort}/snap.png`,
    });

    // An hour of the inverter's power every 5 minutes, ending now, and its SunSpec state 4 (MPPT).
    const signals = (await api.get<{ items: SignalRow[] }>(`signals?device_id=${inverter.id}&pageSize=200`))
      .items;
    const id = (key: string) => signals.find((s) => s.key === key)?.id;
    // Within the plant's local today: shortly after its midnight the hour starts at midnight instead.
    const { items: overview } = await api.get<{ items: { plant_id: number; time_zone: string }[] }>(
      'plants/overview',
    );
    const timeZone = overview.find((p) => p.plant_id === plant.id)!.time_zone;
    const localDay = (ts: number) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(ts);
    const now = Date.now();
    let start = now - 60 * 60_000;
    while (localDay(start) !== localDay(now)) start += 60_000;
    const points: { signal_id: number; ts: number; value: number }[] = [];
    for (let ts = now, i = 0; ts >= start; ts -= 5 * 60_000, i++) {
      points.push(
        { signal_id: id('ac_power')!, ts, value: 40 + i },
        { signal_id: id('dc_power')!, ts, value: 42 + i },
      );
      powerSamples = i + 1;
    }
    points.push({ signal_id: id('status_code')!, ts: now, value: 4 });
    // The lifetime counter over that time (kWh): the day's energy and specific yield come from it.
    points.push(
      { signal_id: id('total_energy')!, ts: start, value: 250_000 },
      { signal_id: id('total_energy')!, ts: now, value: 250_040 },
    );
    const answer = await api.post<{ stored: number }>('telemetry', { points });
    expect(answer.stored).toBe(points.length);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    camServer?.close();
  });

  it('shows the inverter status text in the chosen language and draws its charts, in both themes', () =>
    withPage(
      browser,
      server.url,
      'inverter-detail',
      async (page) => {
        const errors = collectPageErrors(page);
        for (const [locale, theme] of [
          ['tr_TR', 'light'],
          ['en_US', 'dark'],
        ] as const) {
          await page.evaluate(
            (prefs) => {
              localStorage.setItem('locale', prefs.locale);
              localStorage.setItem('theme', prefs.theme);
            },
            { locale, theme },
          );
          await page.goto(`/inverter-detay/${inverter.id}`);
          await expectText(page.getByTestId('inverter-name'), inverter.name);
          await expectText(page.getByTestId('inverter-state-text'), t(locale, 'kpi.inverterState.mppt'));
          expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
          // The day's chart holds AC, DC and the efficiency derived from them; the comparison has this plant's inverters.
          const chart = page.getByTestId('inverter-power-chart');
          await chart.locator('canvas').first().waitFor();
          expect(await chart.getAttribute('data-series-count')).toBe('3');
          expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThanOrEqual(3 * powerSamples);
          const bars = page.getByTestId('inverter-comparison');
          await bars.locator('canvas').first().waitFor();
          expect(Number(await bars.getAttribute('data-bars'))).toBeGreaterThan(0);
          expect(await page.getByTestId('inverter-stat-energyDay').textContent()).toMatch(/40/);
          await page.getByTestId('device-alarms').waitFor();
          await screenshot(page, `inverter-detail-${theme}`);
          // On a phone: the page fits its width (the charts and tables scroll inside their cards).
          await page.setViewportSize({ width: 390, height: 844 });
          await vi.waitFor(async () =>
            expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390),
          );
          await screenshot(page, `inverter-detail-${theme}-390`);
          await page.setViewportSize({ width: 1440, height: 900 });
        }
        expect(errors).toEqual([]);
      },
      DEMO.admin,
    ));

  it('shows a live camera image, and a translated message with a retry for a camera that is down', () =>
    withPage(
      browser,
      server.url,
      'camera-detail',
      async (page) => {
        const errors = collectPageErrors(page);
        await page.goto(`/kamera-detay/${liveCamera.id}`);
        await expectText(page.getByTestId('camera-name'), liveCamera.name);
        const image = page.getByTestId('camera-image');
        await vi.waitFor(async () =>
          expect(await image.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(4),
        );
        expect(await page.getByTestId('camera-state').getAttribute('data-state')).toBe('live');

        await page.evaluate(() => localStorage.setItem('theme', 'dark'));
        await page.goto(`/kamera-detay/${downCamera.id}`);
        // Every camera failure is answered at the server's fixed deadline (5 s, docs/security.md "Device
        // networks"), so that a closed port and a silent one cannot be told apart.
        await expectText(
          page.getByTestId('camera-error').locator('.ant-alert-title'),
          tr('errors.cameraUnreachable'),
          20_000,
        );
        expect(await page.getByTestId('camera-state').getAttribute('data-state')).toBe('unreachable');
        await page.getByTestId('camera-retry').click();
        // Every camera failure is answered at the server's fixed deadline (5 s, docs/security.md "Device
        // networks"), so that a closed port and a silent one cannot be told apart.
        await expectText(
          page.getByTestId('camera-error').locator('.ant-alert-title'),
          tr('errors.cameraUnreachable'),
          20_000,
        );
        await screenshot(page, 'camera-detail-down-dark');
        await page.setViewportSize({ width: 390, height: 844 });
        await vi.waitFor(
          async () =>
            expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390),
          { timeout: 10_000, interval: 100 },
        );
        await screenshot(page, 'camera-detail-down-dark-390');
        // Chromium logs each failed image request; those of the camera that is down are expected, nothing else.
        expect(errors.filter((e) => !e.includes(`/api/cameras/${downCamera.id}/snapshot`))).toEqual([]);
      },
      DEMO.admin,
    ));

  it('shows a tile per camera on the camera wall, each naming its plant, and a tile opens the camera', () =>
    withPage(
      browser,
      server.url,
      'camera-wall',
      async (page) => {
        await page.getByTestId('menu-kameralar').click();
        await expectPath(page, '/kameralar');
        await expectText(page.getByTestId('page-title'), tr('pages.cameras'));
        // Every camera in the admin's scope: the demo's one per plant plus this test's two.
        const cameraCount = (await api.get<{ items: Named[] }>('devices?type=camera&pageSize=200')).items
          .length;
        // vi.waitFor's default is one second: the wall's tiles come after its device query, later on a busy machine.
        await vi.waitFor(
          async () => expect(await page.getByTestId('camera-tile').count()).toBe(cameraCount),
          {
            timeout: 10_000,
            interval: 100,
          },
        );
        // Each tile names its plant.
        for (const camera of [liveCamera, downCamera]) {
          const named = page.locator(`[data-testid="camera-tile"][data-camera-id="${camera.id}"]`);
          expect(await named.getAttribute('data-plant-id')).toBe(String(plant.id));
          await expectText(named.getByTestId('camera-tile-plant'), plant.name);
        }
        const tile = page.locator(`[data-testid="camera-tile"][data-camera-id="${liveCamera.id}"]`);
        // One evaluate on a wall of tiles that refresh every 3 s took 1.4 s on a loaded machine: longer than
        // waitFor's default second, so the wait has room.
        await vi.waitFor(
          async () =>
            expect(
              await tile.getByTestId('camera-image').evaluate((i: HTMLImageElement) => i.naturalWidth),
            ).toBe(4),
          { timeout: 20_000, interval: 250 },
        );
        await screenshot(page, 'camera-wall-light');
        await page.setViewportSize({ width: 390, height: 844 });
        await vi.waitFor(
          async () =>
            expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390),
          { timeout: 10_000, interval: 100 },
        );
        await screenshot(page, 'camera-wall-light-390');
        await tile.getByRole('link', { name: liveCamera.name }).click();
        await expectPath(page, `/kamera-detay/${liveCamera.id}`);
        await expectText(page.getByTestId('camera-name'), liveCamera.name);
      },
      DEMO.admin,
    ));
});
