import type { Browser, Page } from 'playwright-core';
import type { CustomAlarm, FaultDetail, TelemetryCatalogAnswer } from '@solar/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, launchBrowser } from '../src/browser';
import {
  ApiClient,
  expectPath,
  expectText,
  fieldError,
  pickOption,
  toast,
  tr,
  withPage,
} from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface Target {
  plant: { id: number; name: string };
  device: { id: number; name: string };
  signal: { id: number; name: string; unit: string | null };
}

/** The first demo plant with a device that has a signal, from the catalog the pickers use. */
async function firstSignal(api: ApiClient): Promise<Target> {
  const { plants } = await api.get<TelemetryCatalogAnswer>('telemetry/catalog');
  for (const plant of plants) {
    const { devices = [] } = await api.get<TelemetryCatalogAnswer>(`telemetry/catalog?plant_id=${plant.id}`);
    const device = devices.find((d) => d.signals.length > 0);
    if (device) return { plant, device, signal: device.signals[0]! };
  }
  throw new Error('no demo signal');
}

describe('custom alarms and faults', () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let target: Target;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    target = await firstSignal(api);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const run = (name: string, body: (page: Page) => Promise<void>) =>
    withPage(browser, server.url, `faults-${name}`, body, DEMO.admin);

  it('the admin creates a custom rule with the tag picker on /customized-alarms', () =>
    run('custom-rule', async (page) => {
      const name = `E2E Kural ${Date.now().toString(36)}`;
      await page.goto('/customized-alarms');
      await page.getByTestId('custom-alarm-table').waitFor();
      await page.getByTestId('custom-alarm-create').click();
      await page.getByTestId('custom-alarm-form').waitFor();

      // Saving empty shows the shared schema's translated messages.
      await page.getByTestId('custom-alarm-save').click();
      await expectText(fieldError(page, 'custom-alarm-field-name'), tr('validation.required'));

      await page.getByTestId('custom-alarm-field-name').fill(name);
      await pickOption(page, 'custom-alarm-field-plant_id', target.plant.name);
      await pickOption(page, 'custom-alarm-field-device_id', target.device.name);
      await pickOption(page, 'custom-alarm-field-tag_id', target.signal.name);
      await pickOption(page, 'custom-alarm-field-operant', '>=');
      await page.getByTestId('custom-alarm-field-value').fill('9999');
      if (target.signal.unit)
        await expect(page.getByTestId('custom-alarm-form').textContent()).resolves.toContain(
          target.signal.unit,
        );
      await page.getByTestId('custom-alarm-field-on_delay_s').fill('30');
      await page.getByTestId('custom-alarm-save').click();
      await toast(page, tr('common.success')).first().waitFor();
      await page.getByTestId('custom-alarm-form').waitFor({ state: 'detached' });

      const row = page
        .getByTestId('custom-alarm-table')
        .locator('tr.ant-table-row')
        .filter({ hasText: name });
      await row.waitFor();
      const rule = (await api.get<CustomAlarm[]>('alarms/custom')).find((r) => r.name === name)!;
      expect(rule).toMatchObject({ tag_id: target.signal.id, operant: '>=', value: 9999, on_delay_s: 30 });
      await expectText(page.getByTestId(`custom-alarm-condition-${rule.id}`), /^>= 9\.?999/);

      // The active switch saves at once.
      await page.getByTestId(`custom-alarm-active-${rule.id}`).click();
      await vi.waitFor(
        async () =>
          expect(
            (await api.get<CustomAlarm[]>('alarms/custom')).find((r) => r.id === rule.id)?.is_active,
          ).toBe(false),
        { timeout: 10_000, interval: 200 },
      );
    }));

  it('the admin creates a fault by hand, comments on it and acknowledges it', () =>
    run('fault', async (page) => {
      const title = `E2E Arıza ${Date.now().toString(36)}`;
      await page.goto('/fault');
      await page.getByTestId('fault-table').waitFor();
      await page.getByTestId('fault-create').click();
      await page.getByTestId('fault-form').waitFor();
      await pickOption(page, 'fault-field-plant_id', target.plant.name);
      await pickOption(page, 'fault-field-device_id', target.device.name);
      await page.getByTestId('fault-field-title').fill(title);
      await page.getByTestId('fault-field-description').fill('İnverter sahada kontrol edilecek.');
      await pickOption(page, 'fault-field-priority_id', tr('alarms.priority.high'));
      await page.getByTestId('fault-save').click();

      // Saving opens the new fault's detail page.
      await page.getByTestId('fault-detail-page').waitFor();
      await expect(page.getByTestId('fault-title').textContent()).resolves.toContain(title);
      const id = Number(new URL(page.url()).pathname.split('/').pop());
      await expectText(page.getByTestId('fault-tta'), '—');

      // The list shows it; a row click opens the detail page.
      await page.goto('/fault');
      await page.getByTestId(`fault-row-${id}`).click();
      await expectPath(page, `/fault-detail/${id}`);
      await expectText(page.getByTestId('fault-status-tag').first(), tr('faults.status.open'));

      // Comment: an empty one is refused, a written one joins the thread.
      await page.getByTestId('fault-comment-add').click();
      await expectText(page.getByTestId('fault-comment-error'), tr('validation.required'));
      await page.getByTestId('fault-comment-input').fill('Ekip yola çıktı.');
      await page.getByTestId('fault-comment-add').click();
      await expectText(page.getByTestId('fault-comment').last(), /Ekip yola çıktı\./);

      // Resolving needs a resolution; moving to in progress acknowledges the fault.
      await pickOption(page, 'fault-field-status', tr('faults.status.resolved'));
      await page.getByTestId('fault-work-save').click();
      await expectText(fieldError(page, 'fault-field-resolution'), tr('faults.page.resolutionRequired'));
      await pickOption(page, 'fault-field-status', tr('faults.status.in_progress'));
      await page.getByTestId('fault-work-save').click();
      await expectText(page.getByTestId('fault-status-tag').first(), tr('faults.status.in_progress'));
      await expectText(page.getByTestId('fault-tta'), /\d/);
      await expect(page.getByTestId('fault-history').textContent()).resolves.toContain(
        tr('faults.status.in_progress'),
      );

      const fault = await api.get<FaultDetail>(`faults/${id}`);
      expect(fault.status).toBe('in_progress');
      expect(fault.time_to_acknowledge_s).not.toBeNull();
      expect(fault.comments.map((c) => c.body)).toEqual(['Ekip yola çıktı.']);

      // An unknown fault shows the not-found page.
      await page.goto('/fault-detail/999999');
      await page.getByTestId('not-found').waitFor();
    }));

  it('a fault with a signal shows the signal around the alarm time; one without shows no chart', () =>
    run('fault-chart', async (page) => {
      // A few readings of the signal around now, one a minute, ending a minute ago.
      const now = Date.now();
      const points = Array.from({ length: 10 }, (_, i) => ({
        signal_id: target.signal.id,
        ts: now - (10 - i) * 60_000,
        value: 50 + i,
      }));
      const answer = await api.post<{ stored: number }>('telemetry', { points });
      expect(answer.stored).toBe(10);

      const body = {
        plant_id: target.plant.id,
        device_id: target.device.id,
        priority_id: 2,
        status: 'open',
      };
      const withSignal = await api.post<FaultDetail>('faults/0', {
        ...body,
        tag_id: target.signal.id,
        title: `E2E Sinyal ${now.toString(36)}`,
      });
      expect(withSignal.tag_id).toBe(target.signal.id);
      await page.goto(`/fault-detail/${withSignal.id}`);
      await page.getByTestId('fault-chart-card').waitFor();
      const chart = page.getByTestId('fault-chart');
      await chart.locator('canvas').first().waitFor();
      await vi.waitFor(
        async () => expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(0),
        {
          timeout: 10_000,
          interval: 200,
        },
      );

      const withoutSignal = await api.post<FaultDetail>('faults/0', {
        ...body,
        title: `E2E Sinyalsiz ${now.toString(36)}`,
      });
      await page.goto(`/fault-detail/${withoutSignal.id}`);
      await page.getByTestId('fault-detail-page').waitFor();
      expect(await page.getByTestId('fault-chart-card').count()).toBe(0);
    }));
});
