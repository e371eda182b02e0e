import { describe, expect, it } from 'vitest';
import { signalKindOf } from './signal-kinds';

const kind = (key: string, unit: string | null, isCounter = false, sunspecType: string | null = null) =>
  signalKindOf({ key, unit, isCounter, sunspecType });

describe('signalKindOf', () => {
  it("reads the seed's and SunSpec's signals as the detectors' kinds, in their units", () => {
    expect(kind('ac_power', 'kW')).toEqual({ kind: 'ac_power', unit: 'kw', factor: 1, counterBits: null });
    expect(kind('active_power', 'W')).toMatchObject({ kind: 'ac_power', unit: 'kw', factor: 0.001 });
    expect(kind('dc_power', 'kW')).toMatchObject({ kind: 'dc_power' });
    expect(kind('mppt2_dc_power', 'kW')).toMatchObject({ kind: 'dc_power' });
    expect(kind('total_energy', 'kWh', true)).toMatchObject({
      kind: 'energy_counter',
      unit: 'kwh',
      factor: 1,
    });
    expect(kind('total_energy', 'Wh', true, 'acc32')).toEqual({
      kind: 'energy_counter',
      unit: 'kwh',
      factor: 0.001,
      counterBits: 32,
    });
    expect(kind('export_energy', 'MWh', true)).toMatchObject({ factor: 1000 });
    expect(kind('export_energy', null, true)).toMatchObject({ kind: 'energy_counter', factor: 1 });
    expect(kind('irradiance', 'W/m²')).toMatchObject({ kind: 'irradiance_poa', unit: 'w/m²' });
    expect(kind('ghi', 'W/m2')).toMatchObject({ kind: 'irradiance_ghi' });
    expect(kind('module_temperature', '°C')).toMatchObject({ kind: 'temperature_module', unit: '°c' });
    expect(kind('ambient_temperature', '°C')).toMatchObject({ kind: 'temperature_ambient' });
    expect(kind('temperature', '°C')).toMatchObject({ kind: 'temperature_device' });
    expect(kind('frequency', 'Hz')).toMatchObject({ kind: 'frequency', unit: 'hz' });
    expect(kind('ac_voltage', 'kV')).toMatchObject({ kind: 'voltage', unit: 'v', factor: 1000 });
    expect(kind('dc_current', 'A')).toMatchObject({ kind: 'current', unit: 'a' });
  });

  it('leaves what it cannot place or convert as other', () => {
    expect(kind('daily_energy', 'kWh')).toMatchObject({ kind: 'other', unit: 'kwh' });
    expect(kind('status_code', null)).toMatchObject({ kind: 'other', unit: '' });
    expect(kind('reactive_power', 'kW')).toMatchObject({ kind: 'other' });
    expect(kind('odd_counter', 'm³', true)).toMatchObject({ kind: 'other' });
    expect(kind('wind_speed', 'm/s')).toMatchObject({ kind: 'other', unit: 'm/s' });
  });
});
