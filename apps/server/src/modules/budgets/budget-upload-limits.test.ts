import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTree, makeUser, pairs, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { manyRowsXlsx, zipBombXlsx } from './budget-test-files';

/**
 * The upload limits of budget imports (docs/security.md, "Uploads"): hostile files are refused quickly while
 * the server keeps answering, with its memory bounded, and imports beyond the concurrency limit get 429.
 */

const MiB = 1024 * 1024;
/** What the import of a hostile file may take, answer included. */
const REFUSED_WITHIN_MS = 2000;
/** The slowest health check or plant list allowed while a hostile file is read. */
const RESPONSIVE_P99_MS = 200;
/**
 * A light call's p99 on an idle machine. The bounds above hold as they are where the idle p99 measured
 * before the imports is at most this; on a machine loaded by other work they scale with it, so that the
 * test judges the import and not the neighbours (the old code took 11-50 s and stalled everything).
 */
const IDLE_P99_MS = 100;
/** At most this much slack: 10 s and 1 s still tell the old code (11-50 s, the loop stalled) from the new. */
const MAX_SLOWNESS = 5;
/** Growth of the process's resident memory allowed while hostile files are read. */
const RSS_GROWTH_MAX_MIB = 300;

interface Sampled {
  status: number;
  body: { detail?: string; errors?: Record<string, string[]> };
  headers: Record<string, unknown>;
  elapsedMs: number;
}

interface Sampling {
  healthMs: number[];
  plantsMs: number[];
  rssGrowthMiB: number;
}

/** Prints a measured figure (the report of the fix quotes them). */
const figure = (text: string) => process.stdout.write(`${text}\n`);

const p99 = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
};

describe(`budget import limits (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let millionRows: string;
  let millionCompactRows: string;
  let millionCsvRows: string;
  let honestBomb: string;
  let lyingBomb: string;
  /** How much slower than an idle machine this one answers now (1 when idle): see IDLE_P99_MS. */
  let slowness = 1;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'UploadLimits');
    millionRows = manyRowsXlsx(1_000_000).toString('base64');
    millionCompactRows = manyRowsXlsx(1_000_000, { compact: true }).toString('base64');
    millionCsvRows = Buffer.from(
      `plant_id;year;month;energy_kwh\n${'1;2026;1;5\n'.repeat(500_000)}`,
    ).toString('base64');
    honestBomb = zipBombXlsx(500).toString('base64');
    lyingBomb = zipBombXlsx(500, { lie: true }).toString('base64');
    // The first import of a process starts the reader threads (one is kept ready for the next file).
    const warmUp = await postImport(
      'csv',
      Buffer.from('plant_id;year;month;energy_kwh\n').toString('base64'),
    );
    expect(warmUp.status).toBe(400);
    const idle = await sampledDuring(() => new Promise((resolve) => setTimeout(resolve, 2000)));
    slowness = Math.min(MAX_SLOWNESS, Math.max(1, p99(idle.plantsMs) / IDLE_P99_MS));
    figure(
      `[upload-limits] idle: health p99 ${p99(idle.healthMs).toFixed(0)} ms, plants p99 ${p99(idle.plantsMs).toFixed(0)} ms, slowness ${slowness.toFixed(1)}`,
    );
  }, 180_000);
  afterAll(() => t.close());

  /** The request's body, serialised before the timing starts: only the server's work is measured. */
  const importBody = (format: 'csv' | 'xlsx', content: string) =>
    JSON.stringify({ format, content_base64: content });

  const postImport = async (format: 'csv' | 'xlsx', content: string, token = admin.token) =>
    postBody(importBody(format, content), token);

  const postBody = async (body: string, token = admin.token): Promise<Sampled> => {
    const started = performance.now();
    const res = await t.http.post('/api/budgets/import', body, {
      token,
      headers: { 'content-type': 'application/json' },
    });
    return {
      status: res.statusCode,
      body: res.json(),
      headers: res.headers,
      elapsedMs: performance.now() - started,
    };
  };

  /** Runs `work` while GET /api/health and GET /api/plants are timed every 50 ms and the RSS is watched. */
  async function sampledDuring<T>(work: () => Promise<T>): Promise<{ result: T } & Sampling> {
    global.gc?.();
    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    const healthMs: number[] = [];
    const plantsMs: number[] = [];
    const timed = async (into: number[], url: string, token?: string) => {
      const started = performance.now();
      const res = await t.http.get(url, { token });
      into.push(performance.now() - started);
      expect(res.statusCode).toBe(200);
    };
    const inFlight: Promise<void>[] = [];
    const sample = () => {
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
      inFlight.push(timed(healthMs, '/api/health'), timed(plantsMs, '/api/plants', admin.token));
    };
    // One pair beside the upload's start as well: a file refused within 50 ms would otherwise get none.
    sample();
    const timer = setInterval(sample, 50);
    try {
      const result = await work();
      return { result, healthMs, plantsMs, rssGrowthMiB: (rssPeak - rssBefore) / MiB };
    } finally {
      clearInterval(timer);
      await Promise.all(inFlight);
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    }
  }

  const expectResponsive = (s: Sampling) => {
    expect(s.healthMs.length).toBeGreaterThan(0);
    expect(s.rssGrowthMiB).toBeLessThan(RSS_GROWTH_MAX_MIB);
    // The 200 ms p99 on demand (UPLOAD_P99_PROOF=1): in `npm test` the suite's other worker shares the two
    // cores (docs/security.md, "Uploads"). uploads.resilience.test.ts measures it against the built server;
    // budget-import-event-loop.test.ts holds the loop's share of a 12 MB body to account.
    if (!process.env.UPLOAD_P99_PROOF) return;
    expect(p99(s.healthMs), `health ${s.healthMs.map(Math.round).join(' ')}`).toBeLessThan(
      RESPONSIVE_P99_MS * slowness,
    );
    expect(p99(s.plantsMs), `plants ${s.plantsMs.map(Math.round).join(' ')}`).toBeLessThan(
      RESPONSIVE_P99_MS * slowness,
    );
  };

  it('refuses an XLSX of 1,000,000 rows by its inflated size, quickly, while the server keeps answering', async () => {
    const body = importBody('xlsx', millionRows);
    const s = await sampledDuring(() => postBody(body));
    figure(
      `[upload-limits] million-row XLSX: ${Math.round(s.result.elapsedMs)} ms, RSS +${s.rssGrowthMiB.toFixed(0)} MiB`,
    );
    expect(s.result.status).toBe(400);
    // Its sheet inflates to 49 MB, more than a sheet may.
    expect(s.result.body).toMatchObject({
      detail: 'errors.budgetImportInvalid',
      errors: { content_base64: ['validation.fileTooLarge'] },
    });
    expect(s.result.elapsedMs).toBeLessThan(REFUSED_WITHIN_MS * slowness);
    expectResponsive(s);
  });

  it('refuses a compact XLSX of 1,000,000 rows at row 12,001, quickly, while the server keeps answering', async () => {
    const body = importBody('xlsx', millionCompactRows);
    const s = await sampledDuring(() => postBody(body));
    figure(
      `[upload-limits] compact million-row XLSX: ${Math.round(s.result.elapsedMs)} ms, RSS +${s.rssGrowthMiB.toFixed(0)} MiB`,
    );
    expect(s.result.status).toBe(400);
    // Under the size limit (26 MB inflated): the same answer as for any file over the row limit.
    expect(s.result.body).toMatchObject({
      detail: 'errors.budgetImportInvalid',
      errors: { 'line 12002: plant_id': ['validation.tooMany'] },
    });
    expect(s.result.elapsedMs).toBeLessThan(REFUSED_WITHIN_MS * slowness);
    expectResponsive(s);
  });

  it('refuses a CSV of 500,000 rows the same way', async () => {
    const body = importBody('csv', millionCsvRows);
    const s = await sampledDuring(() => postBody(body));
    figure(`[upload-limits] 500,000-row CSV: ${Math.round(s.result.elapsedMs)} ms`);
    expect(s.result.status).toBe(400);
    expect(s.result.body).toMatchObject({ errors: { 'line 12002: plant_id': ['validation.tooMany'] } });
    expect(s.result.elapsedMs).toBeLessThan(REFUSED_WITHIN_MS * slowness);
    expectResponsive(s);
  });

  it.each([
    ['declares its size', () => honestBomb],
    ['lies about its size', () => lyingBomb],
  ])('refuses a zip bomb (500 MiB inflated) that %s, quickly and with bounded memory', async (_, file) => {
    const body = importBody('xlsx', file());
    const s = await sampledDuring(() => postBody(body));
    figure(
      `[upload-limits] zip bomb: ${Math.round(s.result.elapsedMs)} ms, RSS +${s.rssGrowthMiB.toFixed(0)} MiB`,
    );
    expect(s.result.status).toBe(400);
    expect(s.result.body).toEqual(
      expect.objectContaining({
        detail: 'errors.budgetImportInvalid',
        errors: { content_base64: ['validation.fileTooLarge'] },
      }),
    );
    expect(s.result.elapsedMs).toBeLessThan(REFUSED_WITHIN_MS * slowness);
    expectResponsive(s);
  });

  it('runs one import per user and two in all at once; the others answer 429 at once', async () => {
    const others = await Promise.all(
      [1, 2].map(() => makeUser(t, { companyId: tree.companyId, permissions: pairs(['plant_management']) })),
    );
    const senders = [admin, admin, admin, others[0]!, others[1]!];
    // A million compact rows keep a thread busy longer than a bomb (12,001 rows are read), so that all five
    // arrive while the first ones are read.
    const body = importBody('xlsx', millionCompactRows);
    const s = await sampledDuring(() => Promise.all(senders.map((user) => postBody(body, user.token))));
    figure(`[upload-limits] 5 imports at once: RSS +${s.rssGrowthMiB.toFixed(0)} MiB`);
    const busy = s.result.filter((r) => r.status === 429);
    const read = s.result.filter((r) => r.status === 400);
    expect(read).toHaveLength(2);
    expect(busy).toHaveLength(3);
    // At most one of the administrator's three ran: the per-user limit refused the others. Which requests
    // take the two slots depends on the order they arrive in.
    expect(s.result.slice(0, 3).filter((r) => r.status === 400).length).toBeLessThanOrEqual(1);
    for (const r of busy) {
      expect(r.body.detail).toBe('errors.budgetImportBusy');
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.elapsedMs).toBeLessThan(REFUSED_WITHIN_MS * slowness);
    }
    expectResponsive(s);

    // The slots are free again once the imports have answered.
    const csv = `plant_id;year;month;energy_kwh\n${tree.plantId};2030;1;5\n`;
    const after = await postImport('csv', Buffer.from(csv).toString('base64'), others[0]!.token);
    expect(after.status, JSON.stringify(after.body)).toBe(200);
  });

  it('still imports a real-size XLSX of 12,000 rows', async () => {
    const plants = [tree.plantId];
    for (let i = 1; i < 10; i++) plants.push((await makeTree(t, admin.token, `UploadLimits${i}`)).plantId);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('budget');
    sheet.addRow(['plant_id', 'year', 'month', 'energy_kwh', 'irradiation_kwh_m2']);
    for (const plantId of plants)
      for (let year = 2000; year < 2100; year++)
        for (let month = 1; month <= 12; month++) sheet.addRow([plantId, year, month, 1000 + month / 4, 100]);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const body = importBody('xlsx', xlsx.toString('base64'));
    const s = await sampledDuring(() => postBody(body));
    figure(`[upload-limits] 12,000-row XLSX (${xlsx.length} bytes): ${Math.round(s.result.elapsedMs)} ms`);
    expect(s.result.status, JSON.stringify(s.result.body).slice(0, 500)).toBe(200);
    expect(s.result.body).toEqual({ imported: 12_000, plants: 10 });
    const stored = await t.ctx.db
      .selectFrom('plant_budgets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('plant_id', 'in', plants)
      .executeTakeFirstOrThrow();
    // Counted over the imported plants: the demo seeds P50 budgets of its own plants too.
    expect(Number(stored.n)).toBe(12_000);
  }, 120_000);
});
