import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../../test/org-fixtures';
import { makePlantWithDay, type PlantWithDay } from '../../test/plant-day';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import type { DetectedFlag } from './detectors/types';
import { replaceDayFlags } from './data-quality.repository';

const DAY = '2026-06-15';
const FROM = Date.UTC(2026, 5, 15, 7, 0);

/** A stale flag of one signal over an hour of the day. */
const staleFlag = (signalId: number, deviceId: number): DetectedFlag => ({
  signalId,
  deviceId,
  reason: 'stale',
  fromMs: FROM,
  toMs: FROM + 3_600_000,
  readings: 12,
  detail: {},
});

/**
 * A run of the data-quality engine reads a plant day's signals, then stores what it found. A signal deleted
 * in between (an administrator at work while the job runs) must cost its own flags only: before, its flag
 * broke the foreign key and the whole day's flags were lost with it ("a plant day failed").
 */
describe(`flags of a signal deleted during a run (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let plant: PlantWithDay;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    plant = await makePlantWithDay(t, admin, { name: 'DeletedOwner' });
  });
  afterAll(() => t.close());

  it("stores the day's other flags and leaves the deleted signal's out", async () => {
    const gone = await plant.addSignal(plant.weatherStation, 'ambient_temperature');
    const flags = [staleFlag(plant.signals.poa, plant.weatherStation), staleFlag(gone, plant.weatherStation)];
    const res = await t.http.delete(`/api/signals/${gone}`, { token: admin.token });
    expect(res.statusCode, res.body).toBeLessThan(300);

    const stored = await replaceDayFlags(t.ctx.db, plant.tree.plantId, DAY, flags, Date.now());
    expect(stored).toBe(1);
    const rows = await t.ctx.db
      .selectFrom('data_quality_flags')
      .select('signal_id')
      .where('plant_id', '=', plant.tree.plantId)
      .where('local_day', '=', DAY)
      .execute();
    expect(rows.map((r) => Number(r.signal_id))).toEqual([plant.signals.poa]);
  });
});
