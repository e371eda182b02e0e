/**
 * A year of a 50-plant fleet as a production report, in each file format, holds the event loop for no more
 * than BLOCK_LIMIT_MS at a time (docs/security.md, "Report and export builds"): the data is read plant by
 * plant with other requests between (SQLite answers on the event loop), and the file is written on a build
 * thread plant by plant. Before, the plants' year of days was read in one go: a 400 ms block here (the main
 * thread's CPU; its timers ran 2.4 s late on a loaded machine), 3.5 s for the 218 plants the limits allow.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFleet } from '../../../bench/fleet-generator';
import { longestEventLoopBlockMs } from '../../test/event-loop-probe';
import { makeUser, type TestUser } from '../../test/org-fixtures';
import { parseCsv, strictXlsxProblems } from '../../test/report-readers';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const DAY_MS = 86_400_000;
/** REPORT_EVENT_LOOP_PLANTS=218 measures the largest report the limits allow (minutes of setup). */
const PLANTS = Number(process.env.REPORT_EVENT_LOOP_PLANTS ?? 50);
const DAYS = 366;
/** A plant's year of days is some 10 to 60 ms of queries and figures on this machine: a few plants' worth. */
const BLOCK_LIMIT_MS = 300;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe(`a ${PLANTS}-plant year's report leaves the event loop free (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let plantIds: number[];
  const end = Date.parse(`${date(Date.now())}T00:00:00Z`) - DAY_MS;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    const first = (await t.ctx.db
      .selectFrom('plants')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst())!.id;
    await generateFleet(t.ctx.db, PLANTS, 20, Date.now(), DAYS + 2);
    const plants = await t.ctx.db
      .selectFrom('plants')
      .select('id')
      .where('id', '>', Number(first ?? 0))
      .orderBy('id')
      .execute();
    plantIds = plants.map((p) => p.id);
  }, 600_000);
  afterAll(() => t?.close());

  const query = (format: string) => ({
    plant_ids: plantIds.join(','),
    from: date(end - DAYS * DAY_MS),
    to: date(end - DAY_MS),
    granularity: 'day',
    lang: 'tr_TR',
    format,
  });

  async function build(format: string) {
    const started = performance.now();
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const { result, blockMs } = await longestEventLoopBlockMs(() =>
      t.http.get('/api/reports/production', { token: admin.token, query: query(format) }),
    ).finally(() => clearInterval(sampler));
    // The test process's RSS: the server's, beside the test's own data (the resilience case measures a server alone).
    console.warn(
      `${PLANTS}-plant year as ${format} (${dialectUnderTest}): ${Math.round(performance.now() - started)} ms, ` +
        `${result.rawPayload.length} B, longest event-loop block ${Math.round(blockMs)} ms, ` +
        `peak RSS ${Math.round(peakRss / 2 ** 20)} MiB`,
    );
    expect(result.statusCode, result.body.slice(0, 200)).toBe(200);
    return { body: result.rawPayload, blockMs };
  }

  it('as PDF', async () => {
    const { body, blockMs } = await build('pdf');
    expect(blockMs).toBeLessThan(BLOCK_LIMIT_MS);
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(body.subarray(-8).toString('latin1')).toContain('%%EOF');
  }, 900_000);

  it('as XLSX, streamed plant by plant: a sheet per plant after the summary, read by a strict reader', async () => {
    const { body, blockMs } = await build('xlsx');
    expect(blockMs).toBeLessThan(BLOCK_LIMIT_MS);
    expect(strictXlsxProblems(body)).toEqual([]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
    expect(workbook.worksheets).toHaveLength(1 + PLANTS);
    // The header, a row per day, the totals.
    expect(workbook.worksheets[PLANTS]!.rowCount).toBe(1 + DAYS + 1);
  }, 900_000);

  it('as CSV, streamed plant by plant: every plant-day a row, the totals last', async () => {
    const { body, blockMs } = await build('csv');
    expect(blockMs).toBeLessThan(BLOCK_LIMIT_MS);
    const rows = parseCsv(body.toString('utf8'), ';');
    // The header, a row per plant and day, the totals.
    expect(rows.filter((r) => r.length > 1)).toHaveLength(1 + PLANTS * DAYS + 1);
    expect(rows.filter((r) => r.length > 1).at(-1)![0]).toBe('Toplam');
  }, 900_000);
});
