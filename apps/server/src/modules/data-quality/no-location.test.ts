import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUN_BASED_CHECKS, type DataQualityAnswer, type DataQualityRecheckAnswer } from '@solar/shared';
import { makeUser, save, type TestUser } from '../../test/org-fixtures';
import {
  PLANT_DAY_AC_KW,
  PLANT_DAY_KWP,
  PLANT_DAY_ZONE,
  istanbulDate,
  istanbulInstant,
  makePlantWithDay,
  type PlantWithDay,
} from '../../test/plant-day';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { HOUR, konyaDay, poaSeries } from './detectors/synthetic-day';

const DAY_MS = 86_400_000;

/**
 * Two plants get the same day of a clear-sky irradiance profile an hour late (a logger's clock an hour
 * off): the plant with a location gets a clock shift; the plant without one must not be judged against
 * the sun at 0° 0° (which calls the same profile an hour and a quarter early: a false clock shift) — its answer names the
 * sun-based checks it did not run, and its gap still shows, as the checks without the sun still run.
 */
describe(`data quality of a plant without a location (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let located: PlantWithDay;
  let unlocated: PlantWithDay;
  /** Each plant's plane-of-array sensor in W/m² (the fixture's `irradiance` has no unit: no kind). */
  const poa = new Map<PlantWithDay, number>();
  const day = istanbulDate(Date.now() - 5 * DAY_MS);
  // Readings missing 14:00–15:00: a gap, which needs no sun.
  const gapFrom = istanbulInstant(day, 14 * 60);
  const gapTo = istanbulInstant(day, 15 * 60);

  const recheck = async (plant: PlantWithDay) => {
    const res = await t.http.post(
      `/api/plants/${plant.tree.plantId}/data-quality/recheck`,
      { day },
      { token: admin.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DataQualityRecheckAnswer>();
  };
  const quality = async (path: string) => {
    const res = await t.http.get(path, { token: admin.token, query: { from: day, to: day } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DataQualityAnswer>();
  };
  const poaSensor = async (plant: PlantWithDay) => {
    const signal = await save(t, admin.token, '/api/signals/0', {
      device_id: plant.weatherStation,
      key: 'irradiance_poa',
      name: 'POA',
      unit: 'W/m²',
      is_counter: false,
    });
    poa.set(plant, signal.id);
  };
  const lateDay = (plant: PlantWithDay) => {
    // The plant's own position (makePlantWithDay: 37.7 N 33.5 E), an hour late.
    const truth = konyaDay(day, { latitude: 37.7, longitude: 33.5 });
    return poaSeries(truth, {}, HOUR)
      .readings.filter((r) => r.ts < gapFrom || r.ts >= gapTo)
      .map((r) => ({ signal_id: poa.get(plant)!, ts: r.ts, value: r.value }));
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    located = await makePlantWithDay(t, admin, { name: 'Located' });
    unlocated = await makePlantWithDay(t, admin, { name: 'Nowhere' });
    await save(t, admin.token, `/api/plants/${unlocated.tree.plantId}`, {
      field_id: unlocated.tree.fieldId,
      name: 'Nowhere Plant',
      time_zone: PLANT_DAY_ZONE,
      dc_capacity_kwp: PLANT_DAY_KWP,
      ac_capacity_kw: PLANT_DAY_AC_KW,
      latitude: null,
      longitude: null,
      tilt_deg: 30,
      azimuth_deg: 180,
    });
    await poaSensor(located);
    await poaSensor(unlocated);
    await located.ingest(lateDay(located));
    await unlocated.ingest(lateDay(unlocated));
  });
  afterAll(() => t.close());

  it('flags the late clock of the plant with a location, and skips nothing there', async () => {
    expect((await recheck(located)).skipped_checks).toEqual([]);
    const answer = await quality(`/api/plants/${located.tree.plantId}/data-quality`);
    expect(answer.skipped_checks).toEqual([]);
    const shift = answer.flags.find((f) => f.signal_id === poa.get(located) && f.reason === 'clock_shift');
    expect(shift?.detail.shiftMinutes).toBe(60);
  });

  it('raises no sun-based flag without a location, names the checks it skipped, and still finds the gap', async () => {
    const run = await recheck(unlocated);
    const answer = await quality(`/api/plants/${unlocated.tree.plantId}/data-quality`);
    const sunReasons = [
      'clock_shift',
      'dst_error',
      'irradiance_above_clear_sky',
      'irradiance_night_offset',
      'irradiance_power_drift',
      'irradiance_neighbour_disagreement',
      'clipping',
    ];
    expect(answer.flags.filter((f) => sunReasons.includes(f.reason))).toEqual([]);
    // The irradiance's stale and spike checks look at daylight: not run either.
    const poaFlags = answer.flags.filter((f) => f.signal_id === poa.get(unlocated));
    expect(poaFlags.filter((f) => f.reason === 'stale' || f.reason === 'spike')).toEqual([]);
    // The gap needs no sun: found, at its period.
    expect(
      poaFlags.find(
        (f) => f.reason === 'gap' && Date.parse(f.from) === gapFrom && Date.parse(f.to) === gapTo,
      ),
    ).toBeDefined();
    // The answers name what was not run: the recheck's, the plant's and the device's.
    expect(run.skipped_checks).toEqual([...SUN_BASED_CHECKS]);
    expect(answer.skipped_checks).toEqual([...SUN_BASED_CHECKS]);
    const device = await quality(`/api/devices/${unlocated.weatherStation}/data-quality`);
    expect(device.skipped_checks).toEqual([...SUN_BASED_CHECKS]);
  });
});
