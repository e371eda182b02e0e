/**
 * A long logger export of a plant's 20 inverters through upload, preview and run holds the event loop for
 * no more than BLOCK_LIMIT_MS at a time (docs/history-import.md, "Limits"): the file is read on its thread,
 * the detectors and checks take one signal per turn, the points are stored in chunks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localWallTime, type HistoryImportJob, type HistoryImportPreview } from '@solar/shared';
import { seedPlants } from '../../../bench/setup';
import { longestEventLoopBlockMs } from '../../test/event-loop-probe';
import { makeUser, type TestUser } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const DAY_MS = 86_400_000;
const STEP = 300_000;
const ZONE = 'Europe/Istanbul';
const INVERTERS = 20;
/** Past the 90-day raw retention: both ways of storing (raw points, rollups only) are taken. */
const DAYS = Number(process.env.HISTORY_EVENT_LOOP_DAYS ?? 120);
const BLOCK_LIMIT_MS = 300;

/** The logger's CSV (`;`, decimal commas, day-first times) of `days` of 5-minute rows ending today. */
function csvOf(startMs: number, rows: number): string {
  const header = ['Time', ...Array.from({ length: INVERTERS }, (_, i) => `INV-${i + 1} Pac [kW]`)].join(';');
  const lines = ['Export;', header];
  for (let r = 0; r < rows; r++) {
    const w = localWallTime(startMs + r * STEP, ZONE);
    const hour = Number(w.slice(11, 13)) + Number(w.slice(14, 16)) / 60;
    const sun = Math.max(0, Math.sin(((hour - 6) / 13) * Math.PI));
    const cells = [`${w.slice(8, 10)}.${w.slice(5, 7)}.${w.slice(0, 4)} ${w.slice(11, 16)}`];
    for (let i = 0; i < INVERTERS; i++) cells.push((sun * (95 + i)).toFixed(2).replace('.', ','));
    lines.push(cells.join(';'));
  }
  return lines.join('\r\n');
}

describe(`a ${DAYS}-day history import of ${INVERTERS} inverters leaves the event loop free (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let plant: { plantId: number; powers: number[] };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    plant = (await seedPlants(t.ctx.db, 1, INVERTERS, 2))[0]!;
  }, 300_000);
  afterAll(() => t?.close());

  it('uploads, previews and runs the file with no block over the bound', async () => {
    const rows = DAYS * (DAY_MS / STEP);
    const start = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAYS * DAY_MS;
    const content = Buffer.from(csvOf(start, rows)).toString('base64');
    const mapping = {
      columns: plant.powers.map((signalId, i) => ({
        sheet: 'csv',
        column: i + 1,
        signal_id: signalId,
        unit: 'kW',
      })),
    };
    const blocks: Record<string, number> = {};
    const step = async <T>(name: string, work: () => Promise<T>) => {
      const { result, blockMs } = await longestEventLoopBlockMs(work);
      blocks[name] = Math.round(blockMs);
      return result;
    };
    const uploaded = await step('upload', () =>
      t.http.post(
        `/api/plants/${plant.plantId}/history-imports`,
        { file_name: 'export.csv', format: 'csv', content_base64: content },
        { token: admin.token },
      ),
    );
    expect(uploaded.statusCode, uploaded.body.slice(0, 300)).toBe(200);
    const id = uploaded.json<HistoryImportJob>().id;
    const preview = await step('preview', () =>
      t.http.post(`/api/history-imports/${id}/preview`, mapping, { token: admin.token }),
    );
    expect(preview.statusCode, preview.body.slice(0, 300)).toBe(200);
    expect(preview.json<HistoryImportPreview>().points).toBeGreaterThan(rows * INVERTERS * 0.99);
    const done = await step('run', async () => {
      const ran = await t.http.post(`/api/history-imports/${id}/run`, mapping, { token: admin.token });
      expect(ran.statusCode, ran.body.slice(0, 300)).toBe(200);
      for (;;) {
        const job = (
          await t.http.get(`/api/history-imports/${id}`, { token: admin.token })
        ).json<HistoryImportJob>();
        if (job.state === 'done' || job.state === 'failed') return job;
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    console.warn(
      `history import of ${DAYS} days × ${INVERTERS} (${dialectUnderTest}): longest blocks ${JSON.stringify(blocks)} ms`,
    );
    expect(done.state).toBe('done');
    for (const [name, ms] of Object.entries(blocks)) expect(ms, name).toBeLessThan(BLOCK_LIMIT_MS);
  }, 1_200_000);
});
