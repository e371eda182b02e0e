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

async function latestTotalEnergy(t: TestApp): Promise<Map<number, number>> {
  const rows = await t.ctx.db
    .selectFrom('telemetry_latest')
    .innerJoin('signals', 'signals.id', 'telemetry_latest.signal_id')
    .select(['signals.id', 'telemetry_latest.value'])
    .where('signals.key', '=', 'total_energy')
    .execute();
  return new Map(rows.map((r) => [r.id, Number(r.value)]));
}

describe('in-process simulator (the demo plants, alive)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
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
  });

  it('does not back-fill again on restart, and carries the energy counters on', async () => {
    const before = await latestTotalEnergy(t);
    const rawBefore = await countRows(t, 'telemetry_raw');
    const sim = await startInProcessSimulator(t.ctx, t.app.log, {
      simulator,
      backfillDays: 1,
      intervalMs: 60_000,
    });
    await sim.backfilled;
    await sim.stop();
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
