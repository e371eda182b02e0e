import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as simulator from '@solar/simulator';
import { createTestApp, type TestApp } from '../test/test-app';
import { startInProcessSimulator } from './in-process-simulator';

async function countRows(t: TestApp, table: 'telemetry_raw' | 'telemetry_1d') {
  const row = await t.ctx.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The latest stored reading of every signal with one of these keys (counters), by signal id. */
async function latestReadingsOf(
  t: TestApp,
  keys: string[],
): Promise<Map<number, { value: number; ts: number }>> {
  const rows = await t.ctx.db
    .selectFrom('telemetry_latest')
    .innerJoin('signals', 'signals.id', 'telemetry_latest.signal_id')
    .select(['signals.id', 'telemetry_latest.value', 'telemetry_latest.ts'])
    .where('signals.key', 'in', keys)
    .execute();
  return new Map(rows.map((r) => [r.id, { value: Number(r.value), ts: Number(r.ts) }]));
}
/** The latest stored value of every signal with one of these keys, by signal id. */
const latestOf = async (t: TestApp, keys: string[]): Promise<Map<number, number>> =>
  new Map([...(await latestReadingsOf(t, keys))].map(([id, r]) => [id, r.value]));
const latestTotalEnergy = (t: TestApp) => latestOf(t, ['total_energy']);
const COUNTER_KEYS = ['total_energy', 'export_energy', 'import_energy'];
/** The simulator's counters are written to the watt-hour. */
const COUNTER_RESOLUTION_KWH = 0.001;

/** Each signal's plant's AC capacity (kW), by signal id. */
async function plantCapacityBySignal(t: TestApp): Promise<Map<number, number>> {
  const rows = await t.ctx.db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .select(['signals.id', 'plants.ac_capacity_kw'])
    .execute();
  return new Map(rows.map((r) => [r.id, Number(r.ac_capacity_kw)]));
}

describe('in-process simulator (the demo plants, alive)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });

  /** Starts the simulator on what is stored (a restart), lets it take its first live sample, stops it. */
  const restartSimulator = async () => {
    const sim = await startInProcessSimulator(t.ctx, t.app.log, {
      simulator,
      backfillDays: 1,
      intervalMs: 60_000,
    });
    await sim.backfilled;
    await sim.stop();
  };
  afterAll(() => t.close());

  it('back-fills history on a first start, then samples live through ctx.telemetry', async () => {
    const stored: number[] = [];
    const off = t.ctx.telemetry.onStored((points) => stored.push(points.length));
    const sim = await startInProcessSimulator(t.ctx, t.app.log, {
      simulator,
      backfillDays: 1,
      intervalMs: 100,
      backfillStepMs: 15 * 60_000,
    });
    await sim.backfilled;
    expect(sim.deviceIds.size).toBeGreaterThan(10);
    const raw = await countRows(t, 'telemetry_raw');
    // One day at 15-minute steps for every signal of every demo device, give or take outages.
    expect(raw).toBeGreaterThan(96 * 100);
    expect(await countRows(t, 'telemetry_1d')).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 350));
    await sim.stop();
    off();
    expect(stored.length).toBeGreaterThan(2);

    // The back-filled day produced energy: every inverter's counter rose above zero.
    const totals = await latestTotalEnergy(t);
    expect(totals.size).toBeGreaterThan(5);
    expect([...totals.values()].every((v) => v > 0)).toBe(true);

    // The demo's inverter with strings stored its strings' currents over the day, adding up to its DC
    // current at each stored instant (to the 0.01 A each reading is rounded to).
    const strings = await t.ctx.db
      .selectFrom('telemetry_raw')
      .innerJoin('signals', 'signals.id', 'telemetry_raw.signal_id')
      .select(['signals.device_id', 'signals.key', 'telemetry_raw.ts', 'telemetry_raw.value'])
      .where((eb) =>
        eb.or([eb('signals.key', 'like', 'string%_dc_current'), eb('signals.key', '=', 'dc_current')]),
      )
      .execute();
    const stringDevice = strings.find((r) => r.key.startsWith('string'))?.device_id;
    expect(stringDevice).toBeDefined();
    const sums = new Map<number, number>();
    const dc = new Map<number, number>();
    for (const r of strings.filter((r) => r.device_id === stringDevice)) {
      if (r.key === 'dc_current') dc.set(Number(r.ts), Number(r.value));
      else sums.set(Number(r.ts), (sums.get(Number(r.ts)) ?? 0) + Number(r.value));
    }
    expect(sums.size).toBeGreaterThan(48);
    expect([...dc.values()].some((v) => v > 1)).toBe(true);
    for (const [ts, sum] of sums) expect(Math.abs(sum - dc.get(ts)!), String(ts)).toBeLessThan(0.1);
  });

  it('does not back-fill again on restart, and carries the energy counters on', async () => {
    const before = await latestTotalEnergy(t);
    const rawBefore = await countRows(t, 'telemetry_raw');
    await restartSimulator();
    const rawAfter = await countRows(t, 'telemetry_raw');
    // Only the one live sample (a point per signal at most), not another day of history.
    const signals = await t.ctx.db
      .selectFrom('signals')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(rawAfter - rawBefore).toBeGreaterThan(0);
    expect(rawAfter - rawBefore).toBeLessThanOrEqual(Number(signals.n));
    const after = await latestTotalEnergy(t);
    for (const [signalId, value] of before) expect(after.get(signalId)).toBeGreaterThanOrEqual(value);
  });

  it("starts every counter, the meters' too, where it was stored: a restart is no jump in energy", async () => {
    const before = await latestReadingsOf(t, COUNTER_KEYS);
    // Inverter, meter export and meter import counters.
    expect(before.size).toBeGreaterThan(10);
    const plantKwOf = await plantCapacityBySignal(t);
    await restartSimulator();
    const after = await latestReadingsOf(t, COUNTER_KEYS);
    // Between a counter's last stored sample and the restart's first, it may advance by at most what its
    // plant produces at full AC capacity in the time between the two samples, plus the counters' resolution
    // (the simulator writes them to the watt-hour).
    const jumps = [...before]
      .map(([id, stored]) => {
        const next = after.get(id);
        const hours = ((next?.ts ?? Number.NaN) - stored.ts) / 3_600_000;
        return {
          id,
          change: (next?.value ?? Number.NaN) - stored.value,
          bound: plantKwOf.get(id)! * hours + COUNTER_RESOLUTION_KWH,
        };
      })
      .filter(({ change, bound }) => !(change >= 0 && change <= bound));
    expect(jumps).toEqual([]);
  });

  it('stores nothing after stop', async () => {
    const sim = await startInProcessSimulator(t.ctx, t.app.log, {
      simulator,
      backfillDays: 0,
      intervalMs: 50,
    });
    await sim.backfilled;
    await sim.stop();
    const n = await countRows(t, 'telemetry_raw');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await countRows(t, 'telemetry_raw')).toBe(n);
  });
});
