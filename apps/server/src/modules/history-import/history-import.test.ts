import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HISTORY_IMPORT_ERRORS,
  localWallTime,
  type HistoryImportJob,
  type HistoryImportList,
  type HistoryImportPreview,
} from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { buildApp } from '../../app';
import { createTestApp, dialectUnderTest, underSchemaLock, type TestApp } from '../../test/test-app';
import { readRawSeries, readRollups } from '../../telemetry-store/queries';

const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64');
const DAY = 86_400_000;
const STEP = 300_000;
const ZONE = 'Europe/Istanbul';

/** `dd.mm.yyyy hh:mm` of an instant on the plant's clock, as Sunny Portal writes it. */
function dayFirst(ms: number): string {
  const w = localWallTime(ms, ZONE);
  return `${w.slice(8, 10)}.${w.slice(5, 7)}.${w.slice(0, 4)} ${w.slice(11, 16)}`;
}

/**
 * A logger export: title rows, `;`, decimal commas; a recent day (raw) and a day older than the raw
 * retention (rollups only), each from 06:00 to 18:00 local with the 10:00–10:30 rows missing (a gap).
 */
function loggerCsv(recentDayStart: number, oldDayStart: number): { text: string; rows: number } {
  const lines = ['Logger export;;', 'Site: Test;;', 'Timestamp;Pac [W];E-Total [kWh]'];
  let rows = 0;
  let counter = 5000;
  for (const start of [oldDayStart, recentDayStart]) {
    for (let ts = start + 6 * 3_600_000; ts <= start + 18 * 3_600_000; ts += STEP) {
      const hour = (ts - start) / 3_600_000;
      if (hour > 10 && hour < 10.5) continue;
      const powerW = Math.round(Math.max(0, Math.sin(((hour - 6) / 12) * Math.PI)) * 40_000 * 100) / 100;
      counter += (powerW / 1000) * (STEP / 3_600_000);
      lines.push(
        `${dayFirst(ts)};${String(powerW).replace('.', ',')};${counter.toFixed(3).replace('.', ',')}`,
      );
      rows++;
    }
  }
  return { text: lines.join('\r\n') + '\r\n', rows };
}

describe(`history import (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let a: Tree;
  let b: Tree;
  let counterId: number;
  let csv: { text: string; rows: number };
  let recentDayStart: number;
  let oldDayStart: number;

  const mapping = () => ({
    columns: [
      { sheet: 'csv', column: 1, signal_id: a.signalId, unit: 'W' },
      { sheet: 'csv', column: 2, signal_id: counterId, unit: 'kWh', energy: 'counter' },
    ],
  });

  const upload = (token: string, plantId: number, content: string | Buffer, format = 'csv') =>
    t.http.post(
      `/api/plants/${plantId}/history-imports`,
      { file_name: `history.${format}`, format, content_base64: b64(content) },
      { token },
    );

  const waitDone = async (id: number): Promise<HistoryImportJob> => {
    for (let i = 0; i < 600; i++) {
      const res = await t.http.get(`/api/history-imports/${id}`, { token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
      const job = res.json<HistoryImportJob>();
      if (job.state === 'done' || job.state === 'failed') return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('import did not finish');
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    a = await makeTree(t, admin.token, 'ImpA');
    b = await makeTree(t, admin.token, 'ImpB');
    counterId = (
      await save(t, admin.token, '/api/signals/0', {
        device_id: a.deviceId,
        key: 'total_energy',
        name: 'Total energy',
        unit: 'kWh',
        is_counter: true,
      })
    ).id;
    const today = Math.floor(Date.now() / DAY) * DAY;
    // Local midnights (UTC+3): 10 days ago and 200 days ago, past the default 90-day raw retention.
    recentDayStart = today - 10 * DAY - 3 * 3_600_000;
    oldDayStart = today - 200 * DAY - 3 * 3_600_000;
    csv = loggerCsv(recentDayStart, oldDayStart);
  });
  afterAll(() => t.close());

  it('detects the shape, previews with a quality report, stores nothing until run', async () => {
    const res = await upload(admin.token, a.plantId, csv.text);
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json<HistoryImportJob>();
    expect(job.state).toBe('uploaded');
    expect(job.detection).toMatchObject({ delimiter: ';', decimal_mark: ',', time_format: 'dmy' });
    expect(job.detection.sheets[0]).toMatchObject({ header_line: 3, time_column: 0, rows: csv.rows });
    expect(job.detection.sheets[0]!.columns.map((c) => c.name)).toEqual([
      'Timestamp',
      'Pac [W]',
      'E-Total [kWh]',
    ]);

    const preview = await t.http.post(`/api/history-imports/${job.id}/preview`, mapping(), {
      token: admin.token,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json<HistoryImportPreview>();
    expect(p.rows).toBe(csv.rows);
    expect(p.points).toBe(2 * csv.rows);
    expect(p.time_zone).toBe(ZONE);
    expect(p.points_rollup_only).toBe(csv.rows);
    expect(p.from).toBe(new Date(oldDayStart + 6 * 3_600_000).toISOString());
    expect(p.to).toBe(new Date(recentDayStart + 18 * 3_600_000).toISOString());
    const power = p.signals.find((s) => s.signal_id === a.signalId)!;
    expect(power.points).toBe(csv.rows);
    // The detectors' gaps: the missing half hour of each day, and the nights around the 12 hours of data.
    const gaps = power.quality.find((q) => q.reason === 'gap');
    expect(gaps?.flags).toBeGreaterThanOrEqual(2);
    expect(p.quality.find((q) => q.reason === 'gap')).toBeDefined();
    const stored = await readRawSeries(t.ctx.db, t.ctx.dialect, [a.signalId], 0, Date.now() + DAY);
    expect(stored.get(a.signalId)).toEqual([]);
  });

  it('imports in the background into raw points and rollups; the same file again stores 0 new points', async () => {
    const first = (await upload(admin.token, a.plantId, csv.text)).json<HistoryImportJob>();
    const run = await t.http.post(`/api/history-imports/${first.id}/run`, mapping(), { token: admin.token });
    expect(run.statusCode, run.body).toBe(200);
    expect(['queued', 'running', 'done']).toContain(run.json<HistoryImportJob>().state);
    const done = await waitDone(first.id);
    expect(done).toMatchObject({
      state: 'done',
      points_total: 2 * csv.rows,
      points_done: 2 * csv.rows,
      points_new: 2 * csv.rows,
      points_existing: 0,
      errors: [],
    });
    // The recent day raw (in watts to kilowatts), the old one as rollups only.
    const raw = (await readRawSeries(t.ctx.db, t.ctx.dialect, [a.signalId], 0, Date.now() + DAY)).get(
      a.signalId,
    )!;
    expect(raw.length).toBe(csv.rows / 2);
    const maxKw = Math.max(...raw.map(([, value]) => value ?? 0));
    expect(maxKw).toBeCloseTo(40, 1);
    const oldDays = await readRollups(
      t.ctx.db,
      '1d',
      [a.signalId, counterId],
      oldDayStart,
      oldDayStart + DAY,
    );
    expect(oldDays.find((d) => d.signalId === a.signalId)?.count).toBe(csv.rows / 2);
    const energy = oldDays.find((d) => d.signalId === counterId)!;
    // The day's energy from the counter's steps: the integral of 40 kW × sin over 12 h, in 5-minute steps.
    expect(Number(energy.delta)).toBeGreaterThan(250);
    expect(Number(energy.delta)).toBeLessThan(320);

    const again = (await upload(admin.token, a.plantId, csv.text)).json<HistoryImportJob>();
    await t.http.post(`/api/history-imports/${again.id}/run`, mapping(), { token: admin.token });
    const second = await waitDone(again.id);
    expect(second).toMatchObject({ state: 'done', points_new: 0, points_existing: 2 * csv.rows });
    const oldAgain = await readRollups(t.ctx.db, '1d', [a.signalId], oldDayStart, oldDayStart + DAY);
    expect(oldAgain[0]!.count).toBe(csv.rows / 2);

    const list = await t.http.get(`/api/plants/${a.plantId}/history-imports`, { token: admin.token });
    expect(list.statusCode, list.body).toBe(200);
    const listed = list.json<HistoryImportList>();
    // The plant's zone, for the times the list shows on the plant's clock.
    const plantZone = await t.ctx.db
      .selectFrom('plants')
      .select('time_zone')
      .where('id', '=', a.plantId)
      .executeTakeFirstOrThrow();
    expect(listed.time_zone).toBe(plantZone.time_zone);
    expect(listed.items.map((i) => i.id)).toEqual(expect.arrayContaining([first.id, again.id]));
    expect(listed.items.find((i) => i.id === first.id)).toMatchObject({
      file_name: 'history.csv',
      state: 'done',
      points_new: 2 * csv.rows,
    });
    expect(listed.items.find((i) => i.id === first.id)!.finished_at).not.toBeNull();
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['action'])
      .where('entity', '=', 'history_import')
      .where('entity_id', '=', first.id)
      .execute();
    expect(audit.map((r) => r.action).sort()).toEqual(['create', 'import']);
  });

  it('reads an XLSX workbook with one sheet per device', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('INV-01');
    ws.addRow(['Inverter INV-01']);
    ws.addRow(['Time', 'Active power (kW)']);
    for (let i = 0; i < 12; i++)
      ws.addRow([new Date(recentDayStart + 3 * 3_600_000 + 12 * 3_600_000 + i * STEP), 5 + i]);
    ws.getColumn(1).numFmt = 'yyyy-mm-dd hh:mm';
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await upload(admin.token, a.plantId, data, 'xlsx');
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json<HistoryImportJob>();
    expect(job.detection.time_format).toBe('excel');
    expect(job.detection.sheets[0]).toMatchObject({ name: 'INV-01', header_line: 2, rows: 12 });
    const preview = await t.http.post(
      `/api/history-imports/${job.id}/preview`,
      { time_zone: 'UTC', columns: [{ sheet: 'INV-01', column: 1, signal_id: a.signalId, unit: 'kW' }] },
      { token: admin.token },
    );
    expect(preview.statusCode, preview.body).toBe(200);
    // Date cells are wall times: read in UTC here, 12:00 of the day's UTC date.
    expect(preview.json<HistoryImportPreview>()).toMatchObject({ points: 12, time_zone: 'UTC' });
  });

  it('refuses a malformed cell with its line and column, and a bad mapping by field', async () => {
    const lines = csv.text.split('\r\n');
    lines[6] = lines[6]!.replace(/;[^;]*;/, ';12,x5;');
    const bad = await upload(admin.token, a.plantId, lines.join('\r\n'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      detail: 'errors.historyImportInvalid',
      errors: { 'line 7: B': ['validation.invalidNumber'] },
    });
    const wb = Buffer.from('PK not a workbook');
    const notXlsx = await upload(admin.token, a.plantId, wb, 'xlsx');
    expect(notXlsx.statusCode).toBe(400);
    expect(notXlsx.json()).toMatchObject({ detail: 'errors.historyImportInvalid' });

    const job = (await upload(admin.token, a.plantId, csv.text)).json<HistoryImportJob>();
    const wrong = await t.http.post(
      `/api/history-imports/${job.id}/preview`,
      {
        columns: [
          { sheet: 'csv', column: 1, signal_id: b.signalId, unit: 'W' },
          { sheet: 'csv', column: 2, signal_id: counterId, unit: 'kW' },
          { sheet: 'csv', column: 0, signal_id: a.signalId },
        ],
      },
      { token: admin.token },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      'columns.0.signal_id': ['validation.invalidValue'],
      'columns.1.unit': ['validation.invalidValue'],
      'columns.2.column': ['validation.invalidValue'],
    });
    const schema = await t.http.post(
      `/api/history-imports/${job.id}/preview`,
      { columns: [] },
      { token: admin.token },
    );
    expect(schema.statusCode).toBe(400);
    const badBody = await t.http.post(
      `/api/plants/${a.plantId}/history-imports`,
      { file_name: 'x.csv', format: 'pdf', content_base64: '***' },
      { token: admin.token },
    );
    expect(badBody.statusCode).toBe(400);
  });

  it('resumes on start an import its process left running, and fails one whose mapping no longer fits', async () => {
    const r = await makeTree(t, admin.token, 'ImpRestart');
    const rCounter = (
      await save(t, admin.token, '/api/signals/0', {
        device_id: r.deviceId,
        key: 'total_energy',
        name: 'Total energy',
        unit: 'kWh',
        is_counter: true,
      })
    ).id;
    const rMapping = {
      columns: [
        { sheet: 'csv', column: 1, signal_id: r.signalId, unit: 'W' },
        { sheet: 'csv', column: 2, signal_id: rCounter, unit: 'kWh', energy: 'counter' },
      ],
    };
    // What the dead process stored before it died: the file's first half (the old day), imported whole.
    const lines = csv.text.split('\r\n');
    const firstHalf = [...lines.slice(0, 3 + csv.rows / 2), ''].join('\r\n');
    const part = (await upload(admin.token, r.plantId, firstHalf)).json<HistoryImportJob>();
    await t.http.post(`/api/history-imports/${part.id}/run`, rMapping, { token: admin.token });
    const partDone = await waitDone(part.id);
    expect(partDone.points_new).toBe(csv.rows);

    // The whole file's job as a crash leaves it: running, its progress written up to the old day, its
    // heartbeat minutes old. Another job runs on a live node (a fresh heartbeat), a third maps a signal
    // that is no longer the plant's.
    const now = Date.now();
    const crashed = (await upload(admin.token, r.plantId, csv.text)).json<HistoryImportJob>();
    const live = (await upload(admin.token, r.plantId, csv.text)).json<HistoryImportJob>();
    const unfit = (await upload(admin.token, r.plantId, csv.text)).json<HistoryImportJob>();
    const asRunning = (heartbeatAt: number, mapping: unknown) => ({
      state: 'running',
      mapping: JSON.stringify(mapping),
      started_at: now - 600_000,
      heartbeat_at: heartbeatAt,
      points_total: 2 * csv.rows,
      points_done: csv.rows,
      points_new: csv.rows,
    });
    const setJob = (id: number, patch: ReturnType<typeof asRunning>) =>
      t.ctx.db.updateTable('history_imports').set(patch).where('id', '=', id).execute();
    await setJob(crashed.id, asRunning(now - 300_000, rMapping));
    await setJob(live.id, asRunning(now, rMapping));
    const foreign = { columns: [{ sheet: 'csv', column: 1, signal_id: b.signalId, unit: 'W' }] };
    await setJob(unfit.id, asRunning(now - 300_000, foreign));

    // A new server on the same database: its start takes the jobs over; its close waits for their runs.
    const next = await underSchemaLock(() => buildApp(t.ctx.config, { cameraProbe: { enabled: false } }));
    try {
      await next.app.ready();
    } finally {
      await next.app.close();
    }

    const job = async (id: number) =>
      (await t.http.get(`/api/history-imports/${id}`, { token: admin.token })).json<HistoryImportJob>();
    // Run again from its first row: the old day already stored is not stored twice, and counts as new once.
    expect(await job(crashed.id)).toMatchObject({
      state: 'done',
      points_total: 2 * csv.rows,
      points_done: 2 * csv.rows,
      points_new: 2 * csv.rows,
      points_existing: 0,
      errors: [],
      started_at: new Date(now - 600_000).toISOString(),
    });
    const oldDay = await readRollups(t.ctx.db, '1d', [r.signalId], oldDayStart, oldDayStart + DAY);
    expect(oldDay[0]!.count).toBe(csv.rows / 2);
    const raw = await readRawSeries(t.ctx.db, t.ctx.dialect, [r.signalId], 0, Date.now() + DAY);
    expect(raw.get(r.signalId)!.length).toBe(csv.rows / 2);
    // Another node's job is left to it.
    expect(await job(live.id)).toMatchObject({ state: 'running', points_done: csv.rows });
    // The page shows why, and offers to run it again.
    const failed = await job(unfit.id);
    expect(failed).toMatchObject({ state: 'failed', errors: [HISTORY_IMPORT_ERRORS.interrupted] });
    expect(failed.finished_at).not.toBeNull();
    const again = await t.http.post(`/api/history-imports/${unfit.id}/run`, rMapping, { token: admin.token });
    expect(again.statusCode, again.body).toBe(200);
    expect(await waitDone(unfit.id)).toMatchObject({ state: 'done', points_new: 0 });
    await t.ctx.db
      .updateTable('history_imports')
      .set({ state: 'failed', heartbeat_at: null })
      .where('id', '=', live.id)
      .execute();
  });

  it('is scoped to the plant and its company, and needs device_management', async () => {
    const job = (await upload(admin.token, a.plantId, csv.text)).json<HistoryImportJob>();
    const otherCompany = await makeUser(t, {
      companyId: b.companyId,
      permissions: pairs(['device_management']),
    });
    const viewer = await makeUser(t, {
      companyId: a.companyId,
      permissions: pairs(['device_management'], ['view']),
    });
    const nobody = await makeUser(t, { companyId: a.companyId, permissions: pairs(['plant'], ['view']) });

    expect((await t.http.get(`/api/history-imports/${job.id}`, {})).statusCode).toBe(401);
    expect((await upload('', a.plantId, csv.text)).statusCode).toBe(401);
    expect((await t.http.get(`/api/history-imports/${job.id}`, { token: nobody.token })).statusCode).toBe(
      403,
    );
    expect((await upload(viewer.token, a.plantId, csv.text)).statusCode).toBe(403);
    expect(
      (await t.http.post(`/api/history-imports/${job.id}/run`, mapping(), { token: viewer.token }))
        .statusCode,
    ).toBe(403);
    expect((await t.http.get(`/api/history-imports/${job.id}`, { token: viewer.token })).statusCode).toBe(
      200,
    );
    // Another company's plant and import are unknown to the caller.
    expect(
      (await t.http.get(`/api/history-imports/${job.id}`, { token: otherCompany.token })).statusCode,
    ).toBe(404);
    expect(
      (await t.http.post(`/api/history-imports/${job.id}/preview`, mapping(), { token: otherCompany.token }))
        .statusCode,
    ).toBe(404);
    expect((await upload(otherCompany.token, a.plantId, csv.text)).statusCode).toBe(404);
    expect(
      (await t.http.get(`/api/plants/${a.plantId}/history-imports`, { token: otherCompany.token }))
        .statusCode,
    ).toBe(404);
    expect((await t.http.get(`/api/history-imports/999999`, { token: admin.token })).statusCode).toBe(404);
    expect((await upload(admin.token, 999999, csv.text)).statusCode).toBe(404);
  });
});
