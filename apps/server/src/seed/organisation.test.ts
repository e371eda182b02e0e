import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTimeZone } from '@solar/shared';
import { makeUser } from '../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';
import { DEMO_STRINGS, DEMO_STRING_INVERTER, seedOrganisation } from './organisation';

describe(`seedOrganisation (${dialectUnderTest})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ demo: false });
  });
  afterAll(() => t.close());

  const count = async (table: 'companies' | 'fields' | 'plants' | 'devices' | 'signals') =>
    Number(
      (
        await t.ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('seeds 2 companies, 3 fields and 6 plants with devices and signals, fast and only once', async () => {
    const operator = await makeUser(t, {});
    await t.ctx.db
      .updateTable('users')
      .set({ email: 'operator@example.com' })
      .where('id', '=', operator.id)
      .execute();

    const t0 = performance.now();
    await seedOrganisation(t.ctx);
    expect(performance.now() - t0).toBeLessThan(2000);
    const counts = {
      companies: await count('companies'),
      fields: await count('fields'),
      plants: await count('plants'),
      devices: await count('devices'),
      signals: await count('signals'),
    };
    expect(counts).toMatchObject({ companies: 2, fields: 3, plants: 6 });

    await seedOrganisation(t.ctx);
    expect({
      companies: await count('companies'),
      fields: await count('fields'),
      plants: await count('plants'),
      devices: await count('devices'),
      signals: await count('signals'),
    }).toEqual(counts);

    const db = t.ctx.db;
    const plants = await db.selectFrom('plants').selectAll().execute();
    expect(new Set(plants.map((p) => p.time_zone))).toEqual(new Set(['Europe/Istanbul', 'Europe/Skopje']));
    expect(plants.every((p) => isTimeZone(p.time_zone) && p.latitude! > 36 && p.latitude! < 42.5)).toBe(true);
    for (const plant of plants) {
      const devices = await db.selectFrom('devices').selectAll().where('plant_id', '=', plant.id).execute();
      const byType = (type: string) => devices.filter((d) => d.type === type);
      const [transformer] = byType('transformer');
      expect(byType('transformer')).toHaveLength(1);
      expect(byType('inverter').length).toBeGreaterThanOrEqual(4);
      expect(byType('inverter').length).toBeLessThanOrEqual(12);
      expect(byType('inverter').every((d) => d.parent_device_id === transformer!.id)).toBe(true);
      for (const type of ['meter', 'weather_station', 'camera']) expect(byType(type), type).toHaveLength(1);
      expect(plant.ac_capacity_kw).toBe(byType('inverter').length * 100);
    }
    const inverter = await db
      .selectFrom('devices')
      .select('id')
      .where('type', '=', 'inverter')
      .executeTakeFirstOrThrow();
    const keys = await db
      .selectFrom('signals')
      .select(['key', 'name', 'unit', 'is_counter'])
      .where('device_id', '=', inverter.id)
      .execute();
    expect(keys.map((k) => k.key).sort()).toEqual(
      [
        'ac_current',
        'ac_power',
        'ac_voltage',
        'daily_energy',
        'dc_current',
        'dc_power',
        'dc_voltage',
        'event_bits',
        'status_code',
        'temperature',
        'total_energy',
        'mppt1_dc_voltage',
        'mppt1_dc_current',
        'mppt1_dc_power',
        'mppt2_dc_voltage',
        'mppt2_dc_current',
        'mppt2_dc_power',
        'active_power_limit_pct',
      ].sort(),
    );
    expect(keys.find((k) => k.key === 'total_energy')).toMatchObject({ unit: 'kWh', is_counter: 1 });
    // One demo inverter reports its strings (the heat map and string-fault alarm have data), no other does.
    const stringSignals = await db
      .selectFrom('signals')
      .innerJoin('devices', 'devices.id', 'signals.device_id')
      .select(['devices.id', 'devices.name', 'devices.plant_id', 'signals.key'])
      .where('signals.key', 'like', 'string%_dc_current')
      .execute();
    expect(stringSignals).toHaveLength(DEMO_STRINGS);
    expect(new Set(stringSignals.map((r) => r.id)).size).toBe(1);
    expect(stringSignals[0]).toMatchObject({
      name: DEMO_STRING_INVERTER,
      plant_id: Math.min(...plants.map((p) => p.id)),
    });
    // Turkish display names; the key stays the technical name.
    expect(keys.find((k) => k.key === 'ac_power')?.name).toBe('AC Güç');
    expect(keys.find((k) => k.key === 'temperature')?.name).toBe('İç Sıcaklık');

    // The meter reports grid availability (KPI grid outages); every station reports GHI, and one plant's
    // station has no in-plane sensor, so the demo shows GHI transposed to the plane of array.
    const keysOf = async (type: string) =>
      (
        await db
          .selectFrom('signals')
          .innerJoin('devices', 'devices.id', 'signals.device_id')
          .select(['devices.plant_id', 'signals.key'])
          .where('devices.type', '=', type)
          .execute()
      ).reduce(
        (m, r) => m.set(r.plant_id, [...(m.get(r.plant_id) ?? []), r.key]),
        new Map<number, string[]>(),
      );
    const meterKeys = await keysOf('meter');
    const stationKeys = await keysOf('weather_station');
    for (const plant of plants) {
      expect(meterKeys.get(plant.id), plant.name).toContain('grid_available');
      expect(stationKeys.get(plant.id), plant.name).toContain('ghi');
    }
    expect(plants.filter((p) => !stationKeys.get(p.id)!.includes('irradiance')).map((p) => p.name)).toEqual([
      'Karbinci SPP',
    ]);

    const first = await db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow();
    const op = await db
      .selectFrom('users')
      .select('company_id')
      .where('id', '=', operator.id)
      .executeTakeFirstOrThrow();
    expect(op.company_id).toBe(first.id);
    // The operator sees the first company's three plants and nothing of the second.
    const res = await t.http.get('/api/plants', { token: operator.token });
    expect(res.json<{ total: number }>().total).toBe(3);
  });
});
