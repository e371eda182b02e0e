import { readFileSync } from 'node:fs';
import net from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, PAGE_LOAD_TIMEOUT, screenshot, launchBrowser } from '../src/browser';
import { ApiClient, expectText, pickOption, toast, tr, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';
import type { RegisterTemplatesAnswer } from '@solar/shared';

/** Registers from this address on do not exist on the test device: it answers exception 2 for them. */
const MISSING_FROM = 40_000;

/**
 * A Modbus TCP device for the browser test (Modbus Messaging on TCP/IP §3.1): it answers Read Holding and
 * Read Input Registers with zeros, and an address it does not have with exception 2, illegal data address.
 */
function startRegisterDevice(): Promise<{ port: number; close: () => void }> {
  const server = net.createServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 7 && buffer.length >= 6 + buffer.readUInt16BE(4)) {
        const frame = buffer.subarray(0, 6 + buffer.readUInt16BE(4));
        buffer = buffer.subarray(frame.length);
        const fc = frame[7]!;
        const address = frame.readUInt16BE(8);
        const count = frame.readUInt16BE(10);
        const pdu =
          (fc !== 3 && fc !== 4) || address + count > MISSING_FROM
            ? Buffer.from([fc | 0x80, fc === 3 || fc === 4 ? 2 : 1])
            : Buffer.concat([Buffer.from([fc, count * 2]), Buffer.alloc(count * 2)]);
        const head = Buffer.alloc(7);
        frame.copy(head, 0, 0, 4);
        head.writeUInt16BE(pdu.length + 1, 4);
        head[6] = frame[6]!;
        socket.write(Buffer.concat([head, pdu]));
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as net.AddressInfo).port, close: () => server.close() }),
    ),
  );
}

/** A meter's map as a file a user imports. */
const METER_FILE = {
  format: 'solar-console/register-template@1',
  id: 'e2e-meter',
  vendor: 'Örnek',
  label: 'E2E sayaç',
  device_type: 'meter',
  source: 'e2e',
  signals: [
    {
      key: 'active_power',
      name: 'Aktif güç',
      unit: 'kW',
      register_type: 'input',
      address: 52,
      data_type: 'float32',
      word_order: 'big',
      scale: 0.001,
      is_counter: false,
    },
  ],
  alarm_words: [],
  alarm_codes: [],
};

describe('register templates in the device management page', () => {
  let server: RunningServer;
  let browser: Browser;
  let device: { close: () => void; port: number };
  let deviceId: number;
  /** The company of the device's plant: the administrator saves the templates there. */
  let companyName: string;
  let api: ApiClient;
  const deviceName = `E2E Şablon INV ${Date.now().toString(36)}`;

  beforeAll(async () => {
    [server, browser, device] = await Promise.all([startServer(), launchBrowser(), startRegisterDevice()]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const plant = (
      await api.get<{ items: { id: number; company_name: string }[] }>('plants?page=1&pageSize=1&sort=name')
    ).items[0]!;
    companyName = plant.company_name;
    deviceId = (
      await api.post<{ id: number }>('devices/0', {
        plant_id: plant.id,
        name: deviceName,
        type: 'inverter',
        protocol: 'modbus_tcp',
        ip: '127.0.0.1',
        port: device.port,
        slave_id: 1,
        poll_interval_s: 3600,
        is_active: false,
      })
    ).id;
  });
  afterAll(async () => {
    device?.close();
    await browser?.close();
    await server?.stop();
  });

  const run = (name: string, body: (page: Page) => Promise<void>) =>
    withPage(browser, server.url, `register-templates-${name}`, body, DEMO.admin);

  /** Opens the device management page and waits until both tables have their rows. */
  async function openPage(page: Page): Promise<void> {
    await page.goto('/device-management');
    for (const table of ['device-table', 'register-template-table'])
      await page
        .getByTestId(table)
        .locator('tr.ant-table-row')
        .first()
        .waitFor({ timeout: PAGE_LOAD_TIMEOUT });
  }

  it('copies the shipped Huawei map, edits it in the drawer, tests it on a device and applies it', () =>
    run('edit-apply', async (page) => {
      await openPage(page);
      const card = page.getByTestId('register-templates');
      await card.getByTestId('register-template-copy-shipped:huawei-sun2000').click();
      await page.getByTestId('register-template-form').waitFor();
      expect(await page.getByTestId('register-template-field-id').inputValue()).toBe('huawei-sun2000-copy');
      await pickOption(page, 'register-template-field-company_id', companyName);
      await page.getByTestId('register-template-field-label').fill('Çatı SUN2000 (kopya)');
      // The first register moved where the device has none.
      const first = page.getByTestId('register-template-signal-0-address');
      await first.fill(String(MISSING_FROM + 10));
      const firstKey = await page.getByTestId('register-template-signal-0-key').inputValue();

      // On a phone the drawer takes the screen, no more.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect
        .poll(async () => (await page.locator('.ant-drawer-content-wrapper').boundingBox())?.width)
        .toBeLessThanOrEqual(390);
      await screenshot(page, 'register-template-form-light-390');
      await page.setViewportSize({ width: 1440, height: 900 });

      await page.getByTestId('register-template-save').click();
      await toast(page, tr('common.success')).first().waitFor();
      await page.getByTestId('register-template-form').waitFor({ state: 'detached' });
      const row = card.locator('tr.ant-table-row').filter({ hasText: 'Çatı SUN2000 (kopya)' });
      await row.waitFor();
      await expectText(row.locator('.ant-tag'), tr('registerTemplates.sources.company'));
      // What the drawer has no field for came along: the vendor state's map and the fault-code registers.
      const { templates } = await api.get<RegisterTemplatesAnswer>('register-templates');
      const shipped = templates.find((x) => x.source === 'shipped' && x.template.id === 'huawei-sun2000')!;
      const copy = templates.find((x) => x.template.label === 'Çatı SUN2000 (kopya)')!;
      const stateMap = (x: typeof copy) => x.template.signals.find((s) => s.key === 'status_code')?.value_map;
      expect(stateMap(shipped)).toBeTruthy();
      expect(stateMap(copy)).toEqual(stateMap(shipped));
      expect(copy.template.alarm_codes).toEqual(shipped.template.alarm_codes);

      // Apply on the device, in the dark theme: the test names the register the device does not have.
      await page.getByTestId('theme-toggle').click();
      await page.getByTestId('device-search').fill(deviceName.slice(-8));
      await page.getByTestId('device-search').press('Enter');
      await page.getByTestId(`device-apply-template-${deviceId}`).click();
      await page.getByTestId('apply-template-drawer').waitFor();
      await pickOption(page, 'apply-template-select', 'Çatı SUN2000 (kopya)');
      await page.getByTestId('apply-template-test').click();
      const outcome = page.getByTestId(`register-check-outcome-${firstKey}`);
      await expectText(
        outcome,
        `${tr('registerTemplates.outcomes.exception').replace('{{code}}', '2')} (${tr('registerTemplates.illegalAddress')})`,
      );
      expect(await outcome.locator('xpath=ancestor::tr').getAttribute('class')).toContain(
        'register-check-failing',
      );
      expect(await page.locator('tr.register-check-failing').count()).toBe(1);
      await screenshot(page, 'register-template-check-dark');
      await page.setViewportSize({ width: 390, height: 844 });
      await expect
        .poll(async () => (await page.locator('.ant-drawer-content-wrapper').boundingBox())?.width)
        .toBeLessThanOrEqual(390);
      await screenshot(page, 'register-template-check-dark-390');
      await page.setViewportSize({ width: 1440, height: 900 });

      await page.getByTestId('apply-template-apply').click();
      // The copy's signals with its default string inputs; the device had none.
      const applied = new RegExp(
        tr('registerTemplates.applied').replace('{{created}}', '\\d+').replace('{{skipped}}', '0'),
      );
      await page.locator('.ant-message-notice').filter({ hasText: applied }).first().waitFor();
    }));

  it('imports a template from a JSON file and downloads it again as the same file', () =>
    run('import-export', async (page) => {
      await openPage(page);
      await page.getByTestId('register-template-file').setInputFiles({
        name: 'e2e-meter.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(METER_FILE), 'utf8'),
      });
      await page.getByTestId('register-template-form').waitFor();
      expect(await page.getByTestId('register-template-field-vendor').inputValue()).toBe('Örnek');
      await pickOption(page, 'register-template-field-company_id', companyName);
      await page.getByTestId('register-template-save').click();
      await toast(page, tr('common.success')).first().waitFor();
      const row = page
        .getByTestId('register-templates')
        .locator('tr.ant-table-row')
        .filter({ hasText: 'E2E sayaç' });
      await row.waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        row.locator('[data-testid^="register-template-export-company:"]').click(),
      ]);
      expect(download.suggestedFilename()).toBe('e2e-meter.json');
      expect(JSON.parse(readFileSync(await download.path(), 'utf8'))).toEqual(METER_FILE);

      // Not a template: one message, no drawer.
      await page.getByTestId('register-template-file').setInputFiles({
        name: 'x.json',
        mimeType: 'application/json',
        buffer: Buffer.from('{"nope": 1}', 'utf8'),
      });
      await expectText(
        page.getByTestId('register-template-import-error'),
        tr('registerTemplates.importFailed'),
      );
    }));
});
