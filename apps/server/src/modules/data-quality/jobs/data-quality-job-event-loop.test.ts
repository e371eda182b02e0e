import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/org-fixtures';
import { istanbulDate, istanbulInstant, makePlantWithDay } from '../../../test/plant-day';
import { createTestApp, dialectUnderTest, type TestApp } from '../../../test/test-app';
import { startDataQualityJob } from './data-quality-job';

const DAY_MS = 86_400_000;
/** Readings every half second: a plant day the engine takes seconds to read (SQLite) and judge. */
const STEP_MS = 500;
const POWER_SIGNALS = 4;
/**
 * The longest the event loop may be held while a pass runs. Before the data-quality thread a pass over this
 * plant held it for 2.2 s on SQLite (the read of its four signals' day, then the detectors) and 2.1 s on
 * PostgreSQL (decoding the answer, then the detectors), on the 2-core development machine at a load average
 * of 9–13; with the thread the longest hold was 114 ms and 144 ms there. 400 ms leaves almost three times
 * that for a slower or busier CI machine, and is still five times shorter than the old hold.
 */
const MAX_HOLD_MS = 400;
/** How often the watching timer asks to run. */
const TICK_MS = 10;

/**
 * The data-quality job's pass runs its detectors (and on SQLite its reads) on the data-quality thread
 * (engine/detection-runner.ts): a timer set meanwhile fires on time, as a page's request would be answered.
 */
describe(`data-quality job off the event loop (${dialectUnderTest})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await makeUser(t, { admin: true });
    const plant = await makePlantWithDay(t, admin, { name: 'Busy' });
    const powers: number[] = [];
    for (let i = 0; i < POWER_SIGNALS; i++)
      powers.push(await plant.addSignal(plant.inverters[i % 2]!, `ac_power_${i}`));
    // The job's yesterday on the plant's clock: a half sine of daylight with a little noise on each power.
    const day = istanbulDate(Date.now() - DAY_MS);
    const from = istanbulInstant(day, 0);
    let batch: { signal_id: number; ts: number; value: number }[] = [];
    for (let ts = from; ts < from + DAY_MS; ts += STEP_MS) {
      const minute = (ts - from) / 60_000;
      const sun = Math.max(0, Math.sin(((minute - 360) / 720) * Math.PI));
      for (const [i, signal] of powers.entries())
        batch.push({ signal_id: signal, ts, value: sun * (40 + i) * 1000 + Math.random() * 50 });
      if (batch.length >= 10_000) {
        await t.ctx.telemetry.store(batch);
        batch = [];
      }
    }
    if (batch.length) await t.ctx.telemetry.store(batch);
    // Under vitest the thread's first start bundles its sources on the event loop (lib/thread-entry.ts),
    // which the built server never does: a recheck of an empty day starts it before the measurement.
    const res = await t.http.post(
      `/api/plants/${plant.tree.plantId}/data-quality/recheck`,
      { day: istanbulDate(Date.now() - 10 * DAY_MS) },
      { token: admin.token },
    );
    expect(res.statusCode, res.body).toBe(200);
  }, 300_000);
  afterAll(() => t.close());

  it(`keeps the event loop free while a pass runs: a ${TICK_MS} ms timer is never ${MAX_HOLD_MS} ms late`, async () => {
    const job = startDataQualityJob(t.ctx, t.app.log, { firstDelayMs: 2 ** 31 - 1 });
    let last = performance.now();
    let longestHoldMs = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestHoldMs = Math.max(longestHoldMs, now - last - TICK_MS);
      last = now;
    }, TICK_MS);
    const started = performance.now();
    const plantDays = await job.runOnce().finally(() => clearInterval(timer));
    const passMs = performance.now() - started;
    await job.stop();
    // The pass judged the busy day (and the other plant days), and took far longer than the hold allowed.
    expect(plantDays).toBeGreaterThanOrEqual(2);
    expect(passMs).toBeGreaterThan(MAX_HOLD_MS);
    expect(longestHoldMs, `pass ${passMs.toFixed(0)} ms`).toBeLessThan(MAX_HOLD_MS);
  }, 120_000);

  it('ends a pass cleanly when the server stops during it: the thread is ended, the pass resolves', async () => {
    const job = startDataQualityJob(t.ctx, t.app.log, { firstDelayMs: 2 ** 31 - 1 });
    const pass = job.runOnce();
    // Until the busy day is on the thread (it runs first: yesterdays come before todays).
    while (!t.ctx.dataQualityThread.running) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopping = performance.now();
    await job.stop();
    const stopMs = performance.now() - stopping;
    // The pass ended with the plant day in progress: it resolves (no unhandled rejection) with fewer days.
    expect(await pass).toBeLessThan(2);
    expect(t.ctx.dataQualityThread.running).toBe(false);
    expect(stopMs).toBeLessThan(MAX_HOLD_MS * 5);
  }, 120_000);
});
