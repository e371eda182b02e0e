import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, launchBrowser, PAGE_LOAD_TIMEOUT, screenshot } from '../src/browser';
import { ApiClient, expectText, openAs, pickOption, t } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface Named {
  id: number;
  name: string;
}
interface SignalRow extends Named {
  key: string;
}
interface AlarmRow {
  id: number;
  device_id: number | null;
  message: string;
  status_id: number;
}

/** Matches a text anywhere in an element's text. */
const containing = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

/** The English (or any locale's) text of a catalogue message with its parameters filled in. */
const filled = (text: string, params: Record<string, string | number>) =>
  text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));

describe('alarm messages, fault titles and signal names in the reader language', () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let plant: Named;
  let inverter: Named;
  let acPower: SignalRow;
  let alarmId: number;
  let faultId: number;

  beforeAll(async () => {
    // No simulator: the values of the inverter are the ones this test sends.
    [server, browser] = await Promise.all([
      startServer({ SIMULATOR: 'false', MODBUS_POLLER: 'false' }),
      launchBrowser(),
    ]);
    // The demo's admin writes in Turkish: what the server stores for this fault is Turkish text.
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    plant = (await api.get<{ items: Named[] }>('plants?sort=name&pageSize=200')).items[0]!;
    inverter = (
      await api.get<{ items: Named[] }>(`devices?plant_id=${plant.id}&type=inverter&sort=name&pageSize=200`)
    ).items[0]!;
    const signals = (await api.get<{ items: SignalRow[] }>(`signals?device_id=${inverter.id}&pageSize=200`))
      .items;
    acPower = signals.find((s) => s.key === 'ac_power')!;
    const status = signals.find((s) => s.key === 'status_code')!;
    // The demo names its signals in Turkish; the reader's language comes from the catalogue.
    expect(acPower.name).toBe('AC Güç');
    const now = Date.now();
    await api.post('telemetry', {
      points: [
        { signal_id: acPower.id, ts: now - 2_000, value: 42 },
        // SunSpec operating state 7: the inverter is in fault; the engine raises its own alarm text.
        { signal_id: status.id, ts: now - 1_000, value: 7 },
      ],
    });
    await vi.waitFor(
      async () => {
        const alarm = (await api.get<AlarmRow[]>(`alarms?device_id=${inverter.id}&status_id=1`)).find(
          (a) => a.message === 'alarms.msg.inverterFault',
        );
        expect(alarm).toBeDefined();
        alarmId = alarm!.id;
      },
      { timeout: 15_000, interval: 200 },
    );
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const english = (key: string, params: Record<string, string | number> = {}) =>
    filled(t('en_US', key), params);
  const turkish = (key: string, params: Record<string, string | number> = {}) =>
    filled(t('tr_TR', key), params);

  it('shows an English reader the engine alarm and the signal names in English on /alarms and the plant page', async () => {
    const { page, errors, close } = await openAs(browser, server.url, DEMO.admin, '/alarms', {
      locale: 'en_US',
      theme: 'light',
      width: 1440,
    });
    try {
      await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      const message = page.getByTestId(`alarm-message-${alarmId}`);
      await expectText(message, english('alarms.msg.inverterFault', { code: 7 }), 15_000);

      await page.goto(`/santral-detay/${plant.id}`);
      const value = page.getByTestId(`device-value-${acPower.id}`);
      await expectText(value, new RegExp(`^${english('signals.standardNames.ac_power')}: `), 15_000);
      await expect(value.textContent()).resolves.not.toContain('AC Güç');
      const plantAlarms = page.getByTestId('plant-alarms');
      await expectText(plantAlarms, containing(english('alarms.msg.inverterFault', { code: 7 })), 15_000);
      await expect(plantAlarms.textContent()).resolves.not.toContain(
        turkish('alarms.msg.inverterFault', { code: 7 }),
      );
      await screenshot(page, 'alarm-texts-plant-en-1440-light');

      // Signal lists: the device's signals and the signal of a custom alarm rule.
      const acPowerName = english('signals.standardNames.ac_power');
      await page.goto(`/signals/${inverter.id}`);
      await expectText(page.locator(`tr[data-row-key="${acPower.id}"]`), containing(acPowerName), 15_000);
      const rule = await api.post<Named>('alarms/custom/0', {
        name: `Çok yüksek güç ${Date.now()}`,
        priority_id: 2,
        tag_id: acPower.id,
        operant: '>',
        value: 500,
        is_active: true,
      });
      await page.goto('/customized-alarms');
      const ruleRow = page.locator(`tr[data-row-key="${rule.id}"]`);
      // The rule's name is what its author typed; the signal it watches is named in the reader's language.
      await expectText(ruleRow, containing(`${rule.name}${acPowerName}`), 15_000);
      await screenshot(page, 'alarm-texts-custom-alarms-en-1440-light');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows the fault made from the alarm with its title in the reader language, list and detail', async () => {
    const approved = await api.post<{ fault_id: number }>(`alarms/${alarmId}/fault`, {});
    faultId = approved.fault_id;
    const stored = await api.get<{ title: string; title_code: string | null }>(`faults/${faultId}`);
    // Stored as the approver wrote it (Turkish), with the code that lets every reader have their own.
    expect(stored).toMatchObject({
      title: `${inverter.name}: ${turkish('alarms.msg.inverterFault', { code: 7 })}`,
      title_code: 'alarms.msg.inverterFault',
    });
    const inEnglish = `${inverter.name}: ${english('alarms.msg.inverterFault', { code: 7 })}`;

    for (const theme of ['light', 'dark'] as const)
      for (const width of [1440, 390]) {
        const { page, errors, close } = await openAs(browser, server.url, DEMO.admin, '/fault', {
          locale: 'en_US',
          theme,
          width,
        });
        try {
          await page.getByTestId('fault-table').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
          const row = page.getByTestId(`fault-row-${faultId}`);
          await expectText(row, containing(inEnglish), 15_000);
          await expect(row.textContent()).resolves.not.toContain('İnverter');
          await screenshot(page, `alarm-texts-faults-en-${width}-${theme}`);

          await page.goto(`/fault-detail/${faultId}`);
          await expectText(page.getByTestId('fault-title'), containing(inEnglish), 15_000);
          await expect(page.getByTestId('fault-detail-page').textContent()).resolves.not.toContain(
            'İnverter',
          );
          await screenshot(page, `alarm-texts-fault-detail-en-${width}-${theme}`);
          expect(errors).toEqual([]);
        } finally {
          await close();
        }
      }

    // A Turkish reader reads it in Turkish, from the same code.
    const { page, close } = await openAs(browser, server.url, DEMO.admin, `/fault-detail/${faultId}`, {
      locale: 'tr_TR',
      theme: 'light',
      width: 1440,
    });
    try {
      await expectText(
        page.getByTestId('fault-title'),
        containing(`${inverter.name}: ${turkish('alarms.msg.inverterFault', { code: 7 })}`),
        PAGE_LOAD_TIMEOUT,
      );
    } finally {
      await close();
    }
  });
  it('edits the coded fault in English: the form shows the English title, kept as the code; search finds it by its English words', async () => {
    const inEnglish = `${inverter.name}: ${english('alarms.msg.inverterFault', { code: 7 })}`;
    interface StoredFault {
      title: string;
      title_code: string | null;
      priority_id: number;
      updated_at: string;
    }
    const before = await api.get<StoredFault>(`faults/${faultId}`);
    const { page, errors, close } = await openAs(
      browser,
      server.url,
      DEMO.admin,
      `/fault-detail/${faultId}`,
      {
        locale: 'en_US',
        theme: 'light',
        width: 1440,
      },
    );
    try {
      await page.getByTestId('fault-edit').click({ timeout: PAGE_LOAD_TIMEOUT });
      await page.getByTestId('fault-form').waitFor();
      // The reader's language, not the Turkish text stored when the alarm was approved.
      expect(await page.getByTestId('fault-field-title').inputValue()).toBe(inEnglish);
      expect(await page.getByTestId('fault-field-description').inputValue()).toBe(inEnglish);
      await screenshot(page, 'alarm-texts-fault-edit-en-1440-light');
      await pickOption(page, 'fault-field-priority_id', english('alarms.priority.low'));
      await page.getByTestId('fault-save').click();
      await page.getByTestId('fault-form').waitFor({ state: 'hidden' });
      // Saved unchanged: still the alarm's message, so every reader keeps their own language.
      await vi.waitFor(
        async () => {
          const saved = await api.get<StoredFault>(`faults/${faultId}`);
          expect(saved).toMatchObject({ title: before.title, title_code: before.title_code, priority_id: 1 });
        },
        { timeout: 15_000, interval: 200 },
      );
      await expectText(page.getByTestId('fault-title'), containing(inEnglish), 15_000);

      // The list's search finds it by the words an English (or German) reader sees, not only the stored text.
      await page.goto('/fault');
      await page.getByTestId('fault-table').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
      const search = page.getByTestId('fault-search');
      const row = page.getByTestId(`fault-row-${faultId}`);
      for (const q of ['Inverter in fault state', 'Wechselrichter']) {
        await search.fill(q);
        await search.press('Enter');
        await expectText(row, containing(inEnglish), 15_000);
      }
      await search.fill('No fault reads like this');
      await search.press('Enter');
      await row.waitFor({ state: 'detached' });

      // A title the reader types is theirs: the code goes, and every reader sees the typed text.
      await page.goto(`/fault-detail/${faultId}`);
      await page.getByTestId('fault-edit').click({ timeout: PAGE_LOAD_TIMEOUT });
      await page.getByTestId('fault-field-title').fill('Inverter 7 tripped again');
      await page.getByTestId('fault-save').click();
      await expectText(page.getByTestId('fault-title'), containing('Inverter 7 tripped again'), 15_000);
      expect(await api.get<StoredFault>(`faults/${faultId}`)).toMatchObject({
        title: 'Inverter 7 tripped again',
        title_code: null,
      });

      // The drawer at 390 px in the dark theme: the button in the header, the fields in one column.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.evaluate(() => localStorage.setItem('theme', 'dark'));
      await page.reload();
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await page.getByTestId('fault-edit').click({ timeout: PAGE_LOAD_TIMEOUT });
      await page.getByTestId('fault-form').waitFor();
      expect(await page.getByTestId('fault-field-title').inputValue()).toBe('Inverter 7 tripped again');
      // The description was the alarm's message as this reader saw it; with the code gone it stays so.
      expect(await page.getByTestId('fault-field-description').inputValue()).toBe(inEnglish);
      await screenshot(page, 'alarm-texts-fault-edit-en-390-dark');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
