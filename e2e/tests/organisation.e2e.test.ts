import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, login, PAGE_LOAD_TIMEOUT, screenshot } from '../src/browser';
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

/**
 * Searches the page's table for `query` (default: the text itself) and waits for a row showing `text`.
 * Queries stay ASCII: SQLite's lower() folds ASCII only, so a capital such as İ does not match.
 */
async function searchRow(page: Page, resource: string, text: string, query = text) {
  await page.getByTestId(`${resource}-search`).fill(query);
  await page.getByTestId(`${resource}-search`).press('Enter');
  const row = page.getByTestId(`${resource}-table`).locator('tr.ant-table-row').filter({ hasText: text });
  await row.first().waitFor();
  return row.first();
}

/** The record id of a table row, read from its edit button's test id (`company-edit-12`). */
async function rowId(row: ReturnType<Page['locator']>, resource: string): Promise<number> {
  const testId = await row.locator(`[data-testid^="${resource}-edit-"]`).getAttribute('data-testid');
  return Number(testId!.slice(`${resource}-edit-`.length));
}

/** Saves the open drawer form and waits for the success toast and the drawer to close. */
async function saveForm(page: Page, resource: string): Promise<void> {
  await page.getByTestId(`${resource}-save`).click();
  await toast(page, tr('common.success')).first().waitFor();
  await page.getByTestId(`${resource}-form`).waitFor({ state: 'detached' });
}

describe('organisation management pages', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const run = (name: string, body: (page: Page) => Promise<void>) =>
    withPage(browser, server.url, `organisation-${name}`, body);

  it('the admin creates a company, field, plant, Modbus TCP device and signal through the forms', () =>
    run('create-chain', async (page) => {
      await login(page, DEMO.admin);
      const stamp = Date.now().toString(36);
      const company = `E2E Enerji ${stamp}`;
      const field = `E2E Saha ${stamp}`;
      const plant = `E2E Santral ${stamp}`;
      const device = `E2E İnverter ${stamp}`;

      // Company: translated labels, an invalid phone is refused with the translated message.
      await page.goto('/company-management');
      await expectText(page.getByTestId('page-title'), tr('pages.companyManagement'));
      await page.getByTestId('company-table').waitFor();
      await page.getByTestId('company-create').click();
      await page.getByTestId('company-form').waitFor();
      await expect(page.getByTestId('company-form').textContent()).resolves.toContain(
        tr('companies.tax_number'),
      );
      await expect(page.getByTestId('company-form').textContent()).resolves.toContain(
        tr('companies.tax_office'),
      );
      await page.getByTestId('company-save').click();
      await expectText(fieldError(page, 'company-field-name'), tr('validation.required'));
      await page.getByTestId('company-field-name').fill(company);
      await page.getByTestId('company-field-tax_number').fill('1234567890');
      await page.getByTestId('company-field-tax_office').fill('Kadıköy');
      await page.getByTestId('company-field-phone').fill('telefon');
      await page.getByTestId('company-save').click();
      await expectText(fieldError(page, 'company-field-phone'), tr('validation.invalidPhone'));
      await page.getByTestId('company-field-phone').fill('+90 216 555 01 02');
      await page.getByTestId('company-field-email').fill('info@e2e-enerji.example');
      await saveForm(page, 'company');
      await searchRow(page, 'company', company, stamp);
      await screenshot(page, 'organisation-companies-light');

      // Field: the company select and validated coordinates.
      await page.goto('/field-management');
      await page.getByTestId('field-create').click();
      await page.getByTestId('field-form').waitFor();
      await pickOption(page, 'field-field-company_id', company);
      await page.getByTestId('field-field-name').fill(field);
      await page.getByTestId('field-field-city').fill('İstanbul');
      await page.getByTestId('field-field-latitude').fill('95');
      await page.getByTestId('field-field-longitude').fill('28.97');
      await page.getByTestId('field-save').click();
      await expectText(fieldError(page, 'field-field-latitude'), tr('validation.latitudeRange'));
      await page.getByTestId('field-field-latitude').fill('41.01');
      await saveForm(page, 'field');
      await searchRow(page, 'field', field, stamp);

      // Plant: field select, capacities, subscriber numbers as tags, time zone.
      await page.goto('/plant-management');
      await page.getByTestId('plant-create').click();
      await page.getByTestId('plant-form').waitFor();
      await expect(page.getByTestId('plant-form').textContent()).resolves.toContain(
        tr('plants.subscriber_numbers'),
      );
      await pickOption(page, 'plant-field-field_id', field);
      await page.getByTestId('plant-field-name').fill(plant);
      await page.getByTestId('plant-field-dc_capacity_kwp').fill('1200');
      await page.getByTestId('plant-field-ac_capacity_kw').fill('1000');
      await page.getByTestId('plant-field-subscriber_numbers').locator('input').fill('4001234567');
      await page.getByTestId('plant-field-subscriber_numbers').locator('input').press('Enter');
      await pickOption(page, 'plant-field-time_zone', 'Europe/Skopje');
      await screenshot(page, 'organisation-plant-form-light');
      await saveForm(page, 'plant');
      await searchRow(page, 'plant', plant, stamp);

      // Device: Modbus TCP settings only; invalid IP and port 70000 show the translated messages.
      await page.goto('/device-management');
      await page.getByTestId('device-create').click();
      await page.getByTestId('device-form').waitFor();
      await pickOption(page, 'device-field-plant_id', plant);
      await page.getByTestId('device-field-name').fill(device);
      await page.getByTestId('device-field-brand').fill('SMA');
      await expect(page.getByTestId('device-form').textContent()).resolves.toContain(tr('devices.slave_id'));
      await page.getByTestId('device-field-ip').fill('300.1.2.3');
      await page.getByTestId('device-field-port').fill('70000');
      await page.getByTestId('device-save').click();
      await expectText(fieldError(page, 'device-field-ip'), tr('validation.invalidIp'));
      await expectText(fieldError(page, 'device-field-port'), tr('validation.portRange'));
      await screenshot(page, 'organisation-device-errors-light');
      // Other protocols show only their own settings.
      await pickOption(page, 'device-field-protocol', tr('devices.protocols.modbus_rtu'));
      await page.getByTestId('device-field-baud_rate').waitFor();
      await pickOption(page, 'device-field-protocol', tr('devices.protocols.http'));
      expect(await page.getByTestId('device-field-slave_id').count()).toBe(0);
      await pickOption(page, 'device-field-protocol', tr('devices.protocols.modbus_tcp'));
      await page.getByTestId('device-field-ip').fill('192.168.10.21');
      await page.getByTestId('device-field-port').fill('502');
      await page.getByTestId('device-field-slave_id').fill('3');
      await saveForm(page, 'device');
      const deviceRow = await searchRow(page, 'device', device, stamp);
      await expect(deviceRow.textContent()).resolves.toContain('192.168.10.21:502');
      const deviceId = await rowId(deviceRow, 'device');

      // Signals of the device, reached from the devices table.
      await page.getByTestId(`device-signals-${deviceId}`).click();
      await expectPath(page, `/signals/${deviceId}`);
      await expectText(
        page.getByTestId('signal-device-name'),
        tr('signals.ofDevice').replace('{{name}}', device),
      );
      await page.getByTestId('signal-create').click();
      await page.getByTestId('signal-form').waitFor();
      await page.getByTestId('signal-field-key').fill('AC Power');
      await page.getByTestId('signal-save').click();
      await expectText(fieldError(page, 'signal-field-key'), tr('validation.invalidKey'));
      await page.getByTestId('signal-field-key').fill('ac_power');
      await page.getByTestId('signal-field-name').fill('AC güç');
      await page.getByTestId('signal-field-unit').fill('kW');
      await page.getByTestId('signal-field-address').fill('30775');
      await saveForm(page, 'signal');
      const signalRow = await searchRow(page, 'signal', 'ac_power');
      const signalId = await rowId(signalRow, 'signal');
      await screenshot(page, 'organisation-signals-light');

      // Dark theme: the same pages stay readable.
      await page.getByTestId('theme-toggle').click();
      await page.goto('/device-management');
      await page.getByTestId('device-table').locator('tr.ant-table-row').first().waitFor();
      await page.getByTestId(`device-edit-${deviceId}`).click();
      await page.getByTestId('device-form').waitFor();
      await screenshot(page, 'organisation-device-form-dark');
      await page.getByTestId('device-cancel').click();
      await page.goto('/role-management');
      await page.getByTestId('role-create').click();
      await page.getByTestId('role-field-permissions').waitFor();
      await page.getByTestId('role-perm-col-view').click();
      await screenshot(page, 'organisation-role-form-dark');
      await page.getByTestId('role-cancel').click();

      // Delete with confirmation: the device with a signal is refused, the signal goes.
      await page.goto('/device-management');
      await searchRow(page, 'device', device, stamp);
      await page.getByTestId(`device-delete-${deviceId}`).click();
      await page.getByTestId('device-delete-confirm').click();
      await toast(page, tr('errors.hasChildren')).first().waitFor();
      await page.goto(`/signals/${deviceId}`);
      await page.getByTestId(`signal-delete-${signalId}`).click();
      await page.getByTestId('signal-delete-confirm').click();
      await toast(page, tr('common.success')).first().waitFor();
      await page.getByTestId(`signal-delete-${signalId}`).waitFor({ state: 'detached' });
    }));

  it('a Modbus RTU device is on a serial port of the server or behind an RTU-over-TCP gateway', () =>
    run('device-rtu', async (page) => {
      await login(page, DEMO.admin);
      await page.goto('/device-management');
      await page.getByTestId('device-create').click();
      await page.getByTestId('device-form').waitFor();
      await pickOption(page, 'device-field-protocol', tr('devices.protocols.modbus_rtu'));
      // A serial port by default: its path, no address.
      await page.getByTestId('device-field-serial_path').waitFor();
      expect(await page.getByTestId('device-field-ip').count()).toBe(0);
      await page.getByTestId('device-field-serial_path').fill('ttyUSB0');
      await page.getByTestId('device-save').click();
      await expectText(fieldError(page, 'device-field-serial_path'), tr('validation.invalidValue'));
      await screenshot(page, 'organisation-device-rtu-serial-light');
      await page.setViewportSize({ width: 390, height: 844 });
      // The drawer's form is 640 px wide on a desktop; on a phone it takes the screen, no more.
      await expect
        .poll(async () => (await page.locator('.ant-drawer-content-wrapper').boundingBox())?.width)
        .toBeLessThanOrEqual(390);
      await screenshot(page, 'organisation-device-rtu-serial-light-390');
      await page.setViewportSize({ width: 1440, height: 900 });
      // A gateway: its address and port, no path.
      await page.getByTestId('device-field-rtu_link').getByText(tr('devices.rtuLinks.gateway')).click();
      await page.getByTestId('device-field-ip').waitFor();
      expect(await page.getByTestId('device-field-serial_path').count()).toBe(0);
      await screenshot(page, 'organisation-device-rtu-gateway-light');
    }));

  it('a view-only user sees the tables without create, edit or delete buttons', () =>
    run('view-only', async (page) => {
      const admin = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
      const pages = [
        'company_management',
        'field_management',
        'plant_management',
        'device_management',
        'device_signals',
        'user_management',
        'role_management',
      ];
      const role = await admin.post<{ id: number }>('roles/0', {
        name: `E2E İzleyici ${Date.now().toString(36)}`,
        permissions: pages.map((p) => ({ page: p, method: 'view' })),
      });
      const { items } = await admin.get<{ items: { id: number }[] }>('companies?pageSize=1');
      const email = `viewer-${Date.now().toString(36)}@example.com`;
      const password = 'Viewer!Pass1';
      await admin.post('users/0', {
        name: 'Vera',
        surname: 'Viewer',
        username: email.split('@')[0],
        telephone: '+90 555 000 00 00',
        email,
        role_id: role.id,
        company_id: items[0]!.id,
        password,
      });

      await login(page, { email, password });
      for (const [path, resource] of [
        ['/company-management', 'company'],
        ['/field-management', 'field'],
        ['/plant-management', 'plant'],
        ['/device-management', 'device'],
        ['/user-management', 'user'],
        ['/role-management', 'role'],
      ] as const) {
        await page.goto(path);
        await page.getByTestId(`${resource}-table`).locator('tr.ant-table-row').first().waitFor();
        expect(await page.getByTestId(`${resource}-create`).count(), path).toBe(0);
        expect(await page.locator(`[data-testid^="${resource}-edit-"]`).count(), path).toBe(0);
        expect(await page.locator(`[data-testid^="${resource}-delete-"]`).count(), path).toBe(0);
      }
      await screenshot(page, 'organisation-view-only-light');
    }));

  it('the demo operator (no management permissions) cannot open the management pages', () =>
    run('operator', async (page) => {
      await login(page, DEMO.operator);
      await page.goto('/company-management');
      await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      await expect.poll(() => new URL(page.url()).pathname).not.toBe('/company-management');
      expect(await page.getByTestId('company-create').count()).toBe(0);
      expect(await page.getByTestId('menu-company-management').count()).toBe(0);
    }));
});
