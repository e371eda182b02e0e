import { describe, expect, it } from 'vitest';
import { ALARM_PRIORITY } from '../alarms';
import { signalBody } from '../signals';
import {
  REGISTER_TEMPLATES,
  VENDOR_ALARM_WORDS,
  expandRegisterTemplate,
  registerTemplateSchema,
} from './index';
import huaweiJson from './huawei-sun2000.json' with { type: 'json' };

const huawei = REGISTER_TEMPLATES['huawei-sun2000']!;

describe('Huawei SUN2000 register template', () => {
  it('is shipped as JSON that the template schema accepts as it is', () => {
    expect(registerTemplateSchema.parse(huaweiJson)).toEqual(huawei);
    expect(huawei.device_type).toBe('inverter');
  });

  it("maps the registers of Huawei's interface definition to the standard signals", () => {
    const byKey = new Map(expandRegisterTemplate(huawei, 24).map((s) => [s.key, s]));
    // Addresses, types and gains as the SUN2000 definition gives them (W, kWh ×100, °C ×10, V ×10, A ×100).
    expect(byKey.get('ac_power')).toMatchObject({
      address: 32080,
      data_type: 'int32',
      scale: 0.001,
      unit: 'kW',
    });
    expect(byKey.get('dc_power')).toMatchObject({ address: 32064, data_type: 'int32', scale: 0.001 });
    expect(byKey.get('total_energy')).toMatchObject({
      address: 32106,
      data_type: 'uint32',
      scale: 0.01,
      is_counter: true,
    });
    expect(byKey.get('daily_energy')).toMatchObject({ address: 32114, data_type: 'uint32', scale: 0.01 });
    expect(byKey.get('temperature')).toMatchObject({ address: 32087, data_type: 'int16', scale: 0.1 });
    expect(byKey.get('huawei_device_status')).toMatchObject({ address: 32089, data_type: 'uint16' });
    expect(['huawei_alarm_1', 'huawei_alarm_2', 'huawei_alarm_3'].map((k) => byKey.get(k)?.address)).toEqual([
      32008, 32009, 32010,
    ]);
    expect(byKey.get('string1_dc_voltage')).toMatchObject({ address: 32016, scale: 0.1, unit: 'V' });
    expect(byKey.get('string1_dc_current')).toMatchObject({ address: 32017, scale: 0.01, unit: 'A' });
    expect(byKey.get('string24_dc_voltage')).toMatchObject({ address: 32062, name: 'PV24 Gerilimi' });
    expect(byKey.get('string24_dc_current')!.address).toBe(32063);
    for (const s of byKey.values()) {
      expect(s.register_type).toBe('holding');
      expect(s.word_order).toBe('big');
    }
    // Every signal is one a device may hold.
    for (const s of byKey.values()) {
      expect(signalBody.safeParse({ device_id: 1, ...s }).success, s.key).toBe(true);
    }
    expect(expandRegisterTemplate(huawei).filter((s) => s.key.startsWith('string'))).toHaveLength(4);
    expect(() => expandRegisterTemplate(huawei, 25)).toThrow(RangeError);
    // No two signals read the same register, but for the status read raw and through its value map.
    expect(byKey.get('status_code')).toMatchObject({ address: 32089, data_type: 'uint16' });
    expect(byKey.get('status_code')!.value_map!['512']).toBe(4);
    const registers = [...byKey.values()]
      .filter((s) => !s.value_map)
      .flatMap((s) => Array.from({ length: /32|64/.test(s.data_type) ? 2 : 1 }, (_, i) => s.address + i));
    expect(new Set(registers).size).toBe(registers.length);
  });

  it("turns the alarm bit fields into Huawei's alarm IDs with their priority", () => {
    const word1 = VENDOR_ALARM_WORDS.get('huawei_alarm_1')!;
    expect(word1.vendor).toBe('Huawei');
    expect(word1.bits.get(0)).toEqual({
      code: 2001,
      message: 'alarms.msg.huawei.c2001',
      priority: ALARM_PRIORITY.high,
    });
    expect(word1.bits.get(2)!.code).toBe(2011);
    expect(word1.bits.get(7)).toMatchObject({ code: 2032, message: 'alarms.msg.huawei.c2032' });
    const word2 = VENDOR_ALARM_WORDS.get('huawei_alarm_2')!;
    expect(word2.bits.get(2)).toMatchObject({ code: 2062, message: 'alarms.msg.huawei.c2062' });
    expect(word2.bits.get(3)).toMatchObject({ code: 2063, priority: ALARM_PRIORITY.medium });
    expect(word2.bits.get(4)).toMatchObject({ code: 2064, message: 'alarms.msg.huawei.c2064' });
    // A code without its own text is named by vendor and code.
    expect(word2.bits.get(6)).toMatchObject({ code: 2066, message: 'alarms.msg.vendorAlarm', priority: 1 });
    expect(VENDOR_ALARM_WORDS.get('huawei_alarm_3')!.bits.get(6)!.code).toBe(2015);
  });
});
