/**
 * A built-in topology like the demo seed (apps/server/src/seed/organisation.ts): six plants in Konya,
 * Antalya and Štip (three fields, as the seed has them) with 100 kW inverters, a meter, a weather station and a transformer each. Signal ids
 * are made up (plant × 10000 + device × 100 + n); the server passes real ones.
 */
import type { VirtualDeviceDefinition, VirtualPlantDefinition } from './plant';

/** The signal keys of each device type, as the demo seed defines them. */
export const SIGNAL_KEYS = {
  inverter: [
    'ac_power',
    'dc_power',
    'daily_energy',
    'total_energy',
    'ac_voltage',
    'ac_current',
    'dc_voltage',
    'dc_current',
    'temperature',
    'status_code',
  ],
  meter: [
    'active_power',
    'import_energy',
    'export_energy',
    'voltage',
    'current',
    'frequency',
    'power_factor',
  ],
  weather_station: ['irradiance', 'module_temperature', 'ambient_temperature', 'wind_speed'],
  transformer: ['temperature', 'load'],
} as const;

type ExampleType = keyof typeof SIGNAL_KEYS;

const PLANTS = [
  {
    name: 'karapinar-ges-1',
    commissioning: '2021-06-15',
    field: { id: 'karapinar', latitude: 37.7161, longitude: 33.551 },
    latitude: 37.7182,
    longitude: 33.5471,
    inverters: 8,
    tilt: 30,
    azimuth: 180,
    tz: 'Europe/Istanbul',
  },
  {
    name: 'karapinar-ges-2',
    commissioning: '2022-04-01',
    field: { id: 'karapinar', latitude: 37.7161, longitude: 33.551 },
    latitude: 37.7123,
    longitude: 33.5566,
    inverters: 6,
    tilt: 28,
    azimuth: 180,
    tz: 'Europe/Istanbul',
  },
  {
    name: 'serik-ges-1',
    commissioning: '2023-03-20',
    field: { id: 'serik', latitude: 36.9162, longitude: 31.0993 },
    latitude: 36.9171,
    longitude: 31.1008,
    inverters: 4,
    tilt: 25,
    azimuth: 175,
    tz: 'Europe/Istanbul',
  },
  {
    name: 'stip-spp-1',
    commissioning: '2020-09-10',
    field: { id: 'stip', latitude: 41.7358, longitude: 22.1914 },
    latitude: 41.7392,
    longitude: 22.1861,
    inverters: 12,
    tilt: 32,
    azimuth: 180,
    tz: 'Europe/Skopje',
  },
  {
    name: 'stip-spp-2',
    commissioning: '2022-07-05',
    field: { id: 'stip', latitude: 41.7358, longitude: 22.1914 },
    latitude: 41.7331,
    longitude: 22.1985,
    inverters: 10,
    tilt: 32,
    azimuth: 185,
    tz: 'Europe/Skopje',
  },
  {
    name: 'karbinci-spp',
    commissioning: '2024-05-17',
    field: { id: 'stip', latitude: 41.7358, longitude: 22.1914 },
    latitude: 41.8164,
    longitude: 22.2367,
    inverters: 5,
    tilt: 30,
    azimuth: 180,
    tz: 'Europe/Skopje',
  },
];

const INVERTER_KW = 100;
const DC_AC_RATIO = 1.2;

/** The six demo plants (or the first `count`), with string plant and device ids. */
export function exampleTopology(count = PLANTS.length): VirtualPlantDefinition[] {
  return PLANTS.slice(0, count).map((p, plantIndex) => {
    let deviceIndex = 0;
    const device = (
      deviceId: string,
      type: ExampleType,
      ratedPowerKw: number | null,
    ): VirtualDeviceDefinition => {
      deviceIndex++;
      return {
        deviceId,
        type,
        ratedPowerKw,
        signals: SIGNAL_KEYS[type].map((key, n) => ({
          signalId: (plantIndex + 1) * 10_000 + deviceIndex * 100 + n + 1,
          key,
        })),
      };
    };
    const acKw = p.inverters * INVERTER_KW;
    return {
      plantId: p.name,
      timeZone: p.tz,
      latitude: p.latitude,
      longitude: p.longitude,
      tiltDeg: p.tilt,
      azimuthDeg: p.azimuth,
      dcCapacityKwp: acKw * DC_AC_RATIO,
      // Lifetime counters start at what the plant produced since (plant.ts startCounters).
      commissioningDate: p.commissioning,
      field: p.field,
      devices: [
        device('tr-1', 'transformer', Math.ceil((acKw * 1.1) / 50) * 50),
        ...Array.from({ length: p.inverters }, (_, i) =>
          device(`inv-${String(i + 1).padStart(2, '0')}`, 'inverter', INVERTER_KW),
        ),
        device('meter-1', 'meter', null),
        device('ws-1', 'weather_station', null),
      ],
    };
  });
}
