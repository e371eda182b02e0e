import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadAllTexts } from './i18n';
import { signalName } from './signal-name';

/**
 * A signal's name follows the reader's language while it is still the standard Turkish name its template
 * wrote, including the numbered names of a device's strings, and stays as a person wrote it otherwise.
 */
describe('signalName', () => {
  beforeAll(async () => {
    await loadAllTexts();
  });

  it('names a standard signal and each numbered string input in the reader language', async () => {
    await changeLanguage('de_DE');
    expect(signalName({ key: 'ac_power', name: 'AC Güç' })).toBe('AC-Leistung');
    expect(signalName({ key: 'string7_dc_current', name: 'PV7 Akımı' })).toBe('PV7-Strom');
    expect(signalName({ key: 'string24_dc_voltage', name: 'PV24 Gerilimi' })).toBe('PV24-Spannung');
    await changeLanguage('mk_MK');
    expect(signalName({ key: 'string7_dc_current', name: 'PV7 Akımı' })).toBe('PV7 струја');
    expect(signalName({ key: 'huawei_device_status', name: 'Cihaz Durumu (Huawei)' })).toBe(
      'Статус на уредот (Huawei)',
    );
  });

  it("keeps a person's own name, and a name whose number is not its key's", async () => {
    await changeLanguage('en_US');
    expect(signalName({ key: 'string7_dc_current', name: 'East roof, string 7' })).toBe(
      'East roof, string 7',
    );
    expect(signalName({ key: 'string7_dc_current', name: 'PV8 Akımı' })).toBe('PV8 Akımı');
    expect(signalName({ key: 'stringx_dc_current', name: 'PVx Akımı' })).toBe('PVx Akımı');
    expect(signalName({ key: 'ac_power', name: '' })).toBe('ac_power');
  });
});
