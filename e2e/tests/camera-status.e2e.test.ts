import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectPageErrors, DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectText, tr, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface Device {
  id: number;
  name: string;
  type: string;
  plant_id: number;
}
interface DeviceStatus {
  device_id: number;
  status: string | null;
  communication: string;
  last_data_at: string | null;
}

/** elkjs lays the diagram out on first use: seconds on a loaded two-core machine. */
const DIAGRAM_TIMEOUT_MS = 30_000;

/**
 * A camera sends no telemetry; the camera probe asks it for an image on the lease holder. The demo's
 * cameras are served by the in-process simulator, so the demo shows them online: in the plant's device
 * list, on the single-line diagram and on the camera's own page, by the status the server derives.
 */
describe('a demo camera that serves an image is not offline', () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let camera: Device;

  const statusOfCamera = async () =>
    (await api.get<{ items: DeviceStatus[] }>(`plants/${camera.plant_id}/devices/status`)).items.find(
      (i) => i.device_id === camera.id,
    )!;
  /** The server's status of the camera now, checked to be an online one (normal by day, night after dark). */
  const onlineStatus = async () => {
    const status = await statusOfCamera();
    expect(status.communication).toBe('online');
    expect(['normal', 'night']).toContain(status.status);
    return status.status!;
  };
  const setLook = (page: Page, theme: 'light' | 'dark') =>
    page.evaluate((th) => window.localStorage.setItem('theme', th), theme);

  beforeAll(async () => {
    // The demo as `npm start` runs it (the simulator serves the cameras), without the history back-fill.
    [server, browser] = await Promise.all([
      startServer({ SIMULATOR: 'true', SIMULATOR_BACKFILL_DAYS: '0' }),
      launchBrowser(),
    ]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const devices = (await api.get<{ items: Device[] }>('devices?pageSize=200')).items;
    camera = devices.find((d) => d.type === 'camera')!;
    // The probe's first pass runs once the server is ready; wait for its answer, not for a fixed time.
    await vi.waitFor(onlineStatus, { timeout: 60_000, interval: 250 });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the camera online in the plant’s device list, at 1440 and 390 px in both themes', () =>
    withPage(
      browser,
      server.url,
      'camera-status-device-list',
      async (page) => {
        const errors = collectPageErrors(page);
        const expected = await onlineStatus();
        for (const [width, height] of [
          [1440, 900],
          [390, 844],
        ] as const) {
          await page.setViewportSize({ width, height });
          for (const theme of ['light', 'dark'] as const) {
            await setLook(page, theme);
            await page.goto(`/santral-detay/${camera.plant_id}`);
            const tag = page.locator(
              `[data-testid="plant-devices"] tr[data-row-key="${camera.id}"] [data-testid="status-tag"]`,
            );
            await tag.waitFor({ timeout: 30_000 });
            expect(await tag.getAttribute('data-status')).toBe(expected);
            await expectText(tag, tr(`plantView.status.${expected}`));
            expect((await tag.textContent())?.trim()).not.toBe(tr('plantView.status.offline'));
            await tag.scrollIntoViewIfNeeded();
            await screenshot(page, `camera-status-device-list-${width}-${theme}`);
          }
        }
        expect(errors).toEqual([]);
      },
      DEMO.admin,
    ));

  it('shows the camera online on the single-line diagram', () =>
    withPage(
      browser,
      server.url,
      'camera-status-single-line',
      async (page) => {
        const errors = collectPageErrors(page);
        const expected = await onlineStatus();
        await page.goto(`/single-line?plant=${camera.plant_id}`);
        await page.getByTestId('sl-diagram').waitFor({ timeout: DIAGRAM_TIMEOUT_MS });
        const node = page.locator(`[data-testid="sl-diagram"] [data-device-id="${camera.id}"]`);
        await vi.waitFor(async () => expect(await node.getAttribute('data-status')).toBe(expected), {
          timeout: 15_000,
          interval: 100,
        });
        // Its accessible name says the same status, never "offline".
        const label = (await node.getAttribute('aria-label')) ?? '';
        expect(label).toContain(tr(`plantView.status.${expected}`));
        expect(label).not.toContain(tr('plantView.status.offline'));
        expect(errors).toEqual([]);
      },
      DEMO.admin,
    ));

  it('shows the server’s status and last image on the camera’s page, at 1440 and 390 px in both themes', () =>
    withPage(
      browser,
      server.url,
      'camera-status-detail',
      async (page) => {
        const errors = collectPageErrors(page);
        const expected = await onlineStatus();
        for (const [width, height] of [
          [1440, 900],
          [390, 844],
        ] as const) {
          await page.setViewportSize({ width, height });
          for (const theme of ['light', 'dark'] as const) {
            await setLook(page, theme);
            await page.goto(`/kamera-detay/${camera.id}`);
            const tag = page.getByTestId('camera-status').getByTestId('status-tag');
            await tag.waitFor({ timeout: 30_000 });
            expect(await tag.getAttribute('data-status')).toBe(expected);
            await expectText(tag, tr(`plantView.status.${expected}`));
            // The last image's time, in the plant's zone: a time, not the dash of "never".
            await expectText(page.getByTestId('camera-last-image'), /\d{1,2}[:.]\d{2}/);
            await page.getByTestId('camera-image').waitFor({ timeout: 30_000 });
            await screenshot(page, `camera-status-detail-${width}-${theme}`);
          }
        }
        expect(errors).toEqual([]);
      },
      DEMO.admin,
    ));
});
