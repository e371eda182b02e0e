import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, i18n, loadAllTexts } from '../../lib/i18n';
import { alarmTextIn } from './components/alarm-parts';

/**
 * An alarm's numbers are written in the reader's notation: the string-fault alarm's lost energy came out as
 * "4.2" in Turkish, where a decimal comma is expected; a vendor's alarm code is never grouped.
 */
describe('alarm text', () => {
  beforeAll(async () => {
    await loadAllTexts();
  });

  const stringFault = {
    message: 'alarms.msg.stringFault',
    message_params: { string: 7, ratio: 38, energy: 4.25 },
  };

  it("writes the numbers of an alarm in the reader's notation", async () => {
    await changeLanguage('tr_TR');
    expect(alarmTextIn(i18n.t, 'tr_TR')(stringFault)).toContain('4,25 kWh');
    await changeLanguage('de_DE');
    expect(alarmTextIn(i18n.t, 'de_DE')(stringFault)).toContain('4,25 kWh');
    await changeLanguage('en_US');
    expect(alarmTextIn(i18n.t, 'en_US')(stringFault)).toContain('4.25 kWh');
  });

  it('never groups a number, so a vendor code reads as the vendor writes it', async () => {
    await changeLanguage('tr_TR');
    const coded = alarmTextIn(
      i18n.t,
      'tr_TR',
    )({
      message: 'alarms.msg.stringFault',
      message_params: { string: 12345, ratio: 0, energy: 12345.5 },
    });
    expect(coded).toContain('12345');
    expect(coded).toContain('12345,5 kWh');
  });
});
