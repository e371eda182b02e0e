import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as simulator from '@solar/simulator';
import type { InjectedDataFault } from '@solar/simulator';
import type { DataQualityAnswer, DataQualityFlag } from '@solar/shared';
import { makeUser, type TestUser } from '../../test/org-fixtures';
import { istanbulDate, istanbulInstant } from '../../test/plant-day';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { startInProcessSimulator, type ScheduledDataFault } from '../../simulator/in-process-simulator';

const MIN = 60_000;
const DAY_MS = 86_400_000;
/** The history's step: the demo's (5 minutes), so the detectors see what they see in the demo. */
const STEP_MS = 5 * MIN;
/** Full local days of history written (the newest is yesterday); faults go on the days named below. */
const HISTORY_DAYS = 12;
/**
 * The server's clock, fixed: the weather is a function of the instant, so a fixed history is the same
 * history on every run (the faults' days, clouds and rains do not move with the date the suite runs on).
 */
const NOW_MS = Date.UTC(2026, 10, 29, 9, 0);
/**
 * A flag's period may reach past the truth's by one reading at either end: a detector sees a fault from the
 * reading that shows it (a stuck value is only seen as stuck from its first repeat, a reset between the
 * reading before and the reading after it), so its edges fall on readings, one 5-minute step from the
 * truth's instant at most. Whole-day faults (clock shift, replayed day) have whole local days as truth.
 */
const PERIOD_TOLERANCE_MS = STEP_MS;

/**
 * Faults the engine misses on this history today (found by this test; the detectors are not fixed yet): none.
 * The soiled irradiance sensor is found by the sensor-drift check (detectors/sensor-drift.ts) on the last day,
 * whose ratio of power to irradiance has climbed on each of its last three comparable days.
 */
const NOT_FOUND_YET = new Set<simulator.DataFaultKind>([]);

/**
 * The days of the faults, as days before today (Europe/Istanbul, the demo plant's zone): each fault on a
 * day of its own, the control day before them all, and the two days before a replayed day clean (the
 * replay detector compares a day with those). The sensor's dirt builds over the last days.
 */
const DAYS_BEFORE = {
  control: 10,
  stuck: 9,
  spikes: 8,
  counterReset: 7,
  clockShift: 6,
  replayed: 4,
  soiledFrom: 3,
} as const;

/**
 * The simulator's truth against the data-quality engine: the demo plant Serik GES-1 (four inverters and a
 * weather station, a field of its own) is simulated alone over twelve days with one injected fault of
 * each kind (the simulator's own injection), stored through the telemetry store as the demo's history is,
 * and every local day is run by the engine over HTTP. Each fault of the plant's truth must come back as a
 * flag of its reason on its signal (or device, for faults of the whole device) within its period, and the
 * control day must carry no flag of any of these reasons.
 */
// These judge the methods against known truth, not the storage: the module's own tests cover both databases,
// and on PostgreSQL this file alone took about three minutes of a CI run, so it runs on SQLite only.
describe.skipIf(dialectUnderTest !== 'sqlite')(
  `data-quality engine against the simulator's truth (${dialectUnderTest})`,
  () => {
    let t: TestApp;
    let admin: TestUser;
    let plantId = 0;
    let faults: InjectedDataFault[] = [];
    let flags: DataQualityFlag[] = [];
    const today = istanbulDate(NOW_MS);
    const dayBefore = (n: number) => istanbulDate(Date.parse(`${today}T12:00:00Z`) - n * DAY_MS);
    const at = (n: number, minuteOfDay: number) => istanbulInstant(dayBefore(n), minuteOfDay);

    beforeAll(async () => {
      t = await createTestApp({}, { now: () => NOW_MS });
      admin = await makeUser(t, { admin: true });
      const plant = await t.ctx.db
        .selectFrom('plants')
        .select(['id', 'time_zone'])
        .where('name', '=', 'Serik GES-1')
        .executeTakeFirstOrThrow();
      expect(plant.time_zone).toBe('Europe/Istanbul');
      plantId = plant.id;
      // Only this plant is simulated: the others' history would only cost time.
      await t.ctx.db.updateTable('plants').set({ is_active: 0 }).where('id', '!=', plantId).execute();

      const schedule: ScheduledDataFault[] = [
        {
          plant: 0,
          device: { type: 'weather_station', index: 0 },
          kind: 'stuck_sensor',
          signalKey: 'irradiance',
          fromMs: at(DAYS_BEFORE.stuck, 10 * 60),
          toMs: at(DAYS_BEFORE.stuck, 13 * 60),
        },
        {
          plant: 0,
          device: { type: 'inverter', index: 0 },
          kind: 'spikes',
          signalKey: 'ac_power',
          fromMs: at(DAYS_BEFORE.spikes, 8 * 60),
          toMs: at(DAYS_BEFORE.spikes, 15 * 60),
        },
        {
          plant: 0,
          device: { type: 'inverter', index: 1 },
          kind: 'counter_reset',
          signalKey: 'total_energy',
          fromMs: at(DAYS_BEFORE.counterReset, 11 * 60),
          toMs: at(DAYS_BEFORE.counterReset, 11 * 60),
        },
        {
          plant: 0,
          device: { type: 'inverter', index: 2 },
          kind: 'clock_shift',
          fromMs: at(DAYS_BEFORE.clockShift, 12 * 60),
          toMs: at(DAYS_BEFORE.clockShift, 12 * 60),
          wholeLocalDay: true,
        },
        {
          plant: 0,
          device: { type: 'weather_station', index: 0 },
          kind: 'replayed_day',
          fromMs: at(DAYS_BEFORE.replayed, 12 * 60),
          toMs: at(DAYS_BEFORE.replayed, 12 * 60),
          wholeLocalDay: true,
        },
        {
          plant: 0,
          device: { type: 'weather_station', index: 0 },
          kind: 'soiled_irradiance_sensor',
          signalKey: 'irradiance',
          fromMs: at(DAYS_BEFORE.soiledFrom, 0),
          toMs: at(0, 0),
          magnitude: 0.01,
        },
      ];
      const sim = await startInProcessSimulator(t.ctx, t.app.log, {
        simulator,
        // From the start of the local day HISTORY_DAYS before today, so every day named above is whole.
        backfillDays: (NOW_MS - at(HISTORY_DAYS, 0)) / DAY_MS,
        backfillStepMs: STEP_MS,
        intervalMs: 3_600_000,
        schedule: () => [],
        dataFaults: () => schedule,
      });
      expect(await sim.backfilled).toBe(true);
      await sim.stop();
      faults = sim.truth()[0]!.dataFaults;
      expect(faults.map((f) => f.kind).sort()).toEqual([...simulator.DATA_FAULT_KINDS].sort());

      for (let n = HISTORY_DAYS - 1; n >= 1; n--) {
        const res = await t.http.post(
          `/api/plants/${plantId}/data-quality/recheck`,
          { day: dayBefore(n) },
          { token: admin.token },
        );
        expect(res.statusCode, res.body).toBe(200);
      }
      const res = await t.http.get(`/api/plants/${plantId}/data-quality`, {
        token: admin.token,
        query: { from: dayBefore(HISTORY_DAYS - 1), to: dayBefore(1) },
      });
      expect(res.statusCode, res.body).toBe(200);
      flags = res.json<DataQualityAnswer>().flags;
    }, 240_000);
    afterAll(() => t.close());

    /** The signal ids of a device's signals with a key (all of them without one). */
    async function signalsOf(fault: InjectedDataFault): Promise<number[]> {
      let q = t.ctx.db.selectFrom('signals').select('id').where('device_id', '=', Number(fault.deviceId));
      if (fault.signalKey && fault.kind !== 'clock_shift' && fault.kind !== 'replayed_day')
        q = q.where('key', '=', fault.signalKey);
      return (await q.execute()).map((r) => r.id);
    }

    const describeFlags = (list: DataQualityFlag[]) =>
      list.map((f) => `${f.reason} ${f.signal_key ?? '-'} ${f.from}…${f.to}`).join('\n');

    for (const kind of simulator.DATA_FAULT_KINDS) {
      // A fault the engine does not find yet is an expected failure, so the suite says when it is fixed.
      const test = NOT_FOUND_YET.has(kind) ? it.fails : it;
      test(`flags the ${kind} with its reason within its period`, async () => {
        const fault = faults.find((f) => f.kind === kind)!;
        const signals = new Set(await signalsOf(fault));
        // A counter reset has an instant: the sample it happened at.
        const fromMs = kind === 'counter_reset' ? fault.instantsMs[0]! : fault.fromMs;
        const toMs = kind === 'counter_reset' ? fromMs : fault.toMs;
        const ofFault = flags.filter(
          (f) =>
            f.reason === fault.reason &&
            (f.signal_id === null ? f.device_id === Number(fault.deviceId) : signals.has(f.signal_id)),
        );
        expect(
          ofFault.length,
          `no ${fault.reason} flag; the plant's flags:\n${describeFlags(flags)}`,
        ).toBeGreaterThan(0);
        for (const f of ofFault) {
          const [flagFrom, flagTo] = [Date.parse(f.from), Date.parse(f.to)];
          expect(flagFrom, describeFlags([f])).toBeGreaterThanOrEqual(fromMs - PERIOD_TOLERANCE_MS);
          expect(flagTo, describeFlags([f])).toBeLessThanOrEqual(toMs + PERIOD_TOLERANCE_MS);
        }
      });
    }

    it("flags none of the faults' reasons on their signals on the clean control day", async () => {
      const control = dayBefore(DAYS_BEFORE.control);
      for (const fault of faults) {
        const signals = new Set(await signalsOf(fault));
        const found = flags.filter(
          (f) =>
            f.local_day === control &&
            f.reason === fault.reason &&
            (f.signal_id === null ? f.device_id === Number(fault.deviceId) : signals.has(f.signal_id)),
        );
        expect(found, describeFlags(found)).toEqual([]);
      }
    });
  },
);
