import { describe, expect, it } from 'vitest';
import { DEVICE_TYPES } from '@solar/shared';
import { deviceTarget, symbolOf } from './symbol-of';

describe('symbolOf', () => {
  it('draws the grid and busbars by kind and devices by type', () => {
    expect(symbolOf({ kind: 'grid', device_type: null })).toBe('grid');
    expect(symbolOf({ kind: 'busbar', device_type: null })).toBe('busbar');
    expect(
      Object.fromEntries(DEVICE_TYPES.map((type) => [type, symbolOf({ kind: 'device', device_type: type })])),
    ).toEqual({
      inverter: 'inverter',
      meter: 'meter',
      weather_station: 'weather_station',
      transformer: 'transformer',
      protection_relay: 'breaker',
      string_box: 'string_box',
      data_logger: 'logger',
      camera: 'camera',
    });
  });
});

describe('deviceTarget', () => {
  it('opens inverter and camera pages, other devices in the drawer, nothing for junctions', () => {
    expect(deviceTarget({ device_id: 3, device_type: 'inverter' })).toEqual({ page: '/inverter-detay/3' });
    expect(deviceTarget({ device_id: 9, device_type: 'camera' })).toEqual({ page: '/kamera-detay/9' });
    expect(deviceTarget({ device_id: 1, device_type: 'meter' })).toEqual({ drawer: 1 });
    expect(deviceTarget({ device_id: null, device_type: null })).toBeNull();
  });
});
