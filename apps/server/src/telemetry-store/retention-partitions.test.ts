import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryAnswer, TelemetryIngestAnswer } from '@solar/shared';
import { makeTree, makeUser, type TestUser, type Tree } from '../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';
import { deleteExpiredRaw, ensureRawPartitions } from './retention';
import { createRawPartition, listRawPartitions, RAW_DEFAULT_PARTITION } from './retention.repository';

const DAY = 86_400_000;
const RETENTION_DAYS = 3_650;

describe(`raw retention and partitions (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let key: string;

  const ingest = async (points: { signal_id: number; ts: number; value: number }[]) => {
    const res = await t.http.post(
      '/api/telemetry',
      { points },
      { headers: { 'x-api-key': key }, xsrf: false },
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TelemetryIngestAnswer>();
  };
  const rawOf = async (from: number, to: number) => {
    const res = await t.http.get('/api/telemetry', {
      token: admin.token,
      query: { signal_ids: String(tree.signalId), from: String(from), to: String(to), resolution: 'raw' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TelemetryAnswer>().series[0]!.points;
  };
  /** Raw rows per table (partition) of this schema, PostgreSQL only. */
  const rowsIn = async (table: string) =>
    Number(
      (await sql<{ n: string }>`select count(*)::text as n from ${sql.id(table)}`.execute(t.ctx.db)).rows[0]!
        .n,
    );
  const rollupRows = async () =>
    Number(
      (
        await t.ctx.db
          .selectFrom('telemetry_1h')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('signal_id', '=', tree.signalId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    // Ten years of raw retention, so that ingest accepts points years older than the partitions made ahead.
    t = await createTestApp({ demo: false, telemetry: { rawRetentionDays: RETENTION_DAYS } });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Ret');
    const res = await t.http.post(`/api/devices/${tree.deviceId}/ingest-key`, {}, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    key = res.json<{ key: string }>().key;
  });
  afterAll(() => t.close());

  it.runIf(dialectUnderTest === 'postgres')(
    'stores a point of a month without a partition, and the maintenance moves it into its new partition',
    async () => {
      const ts = Date.UTC(2021, 2, 15, 12, 0, 0);
      const before = (await listRawPartitions(t.ctx.db)).map((p) => p.name);
      expect(before).not.toContain('telemetry_raw_p202103');
      expect(await ingest([{ signal_id: tree.signalId, ts, value: 42 }])).toMatchObject({ stored: 1 });
      expect(await rowsIn(RAW_DEFAULT_PARTITION)).toBe(1);
      expect(await rawOf(ts - DAY / 2, ts + DAY / 2)).toEqual([[ts, 42]]);

      // A partition for the month of a row waiting in the default partition, and the window ahead.
      const made = await ensureRawPartitions(t.ctx);
      expect(made).toContain('telemetry_raw_p202103');
      expect(await rowsIn(RAW_DEFAULT_PARTITION)).toBe(0);
      expect(await rowsIn('telemetry_raw_p202103')).toBe(1);
      expect(await rawOf(ts - DAY / 2, ts + DAY / 2)).toEqual([[ts, 42]]);
      // A second run makes nothing: the window is already there.
      expect(await ensureRawPartitions(t.ctx)).toEqual([]);

      // The ingest path's INSERT … ON CONFLICT (signal_id, ts) works on the partitioned table.
      await sql`insert into telemetry_raw (signal_id, ts, value) values (${tree.signalId}, ${ts}, 1) on conflict (signal_id, ts) do nothing`.execute(
        t.ctx.db,
      );
      expect(await rawOf(ts - DAY / 2, ts + DAY / 2)).toEqual([[ts, 42]]);
    },
  );

  it.runIf(dialectUnderTest === 'postgres')(
    'retention drops the partitions wholly before the cutoff and nothing else',
    async () => {
      const jan = Date.UTC(2019, 0, 1);
      const feb = Date.UTC(2019, 1, 1);
      await createRawPartition(t.ctx.db, jan);
      await createRawPartition(t.ctx.db, feb);
      const points = [
        { signal_id: tree.signalId, ts: jan + 10 * DAY, value: 1 },
        { signal_id: tree.signalId, ts: feb + 1 * DAY, value: 2 },
        { signal_id: tree.signalId, ts: feb + 20 * DAY, value: 3 },
      ];
      // Straight into the store: these points lie beyond the configured retention, which ingest refuses.
      await t.ctx.telemetry.store(points);
      // A row in the default partition on each side of the cutoff (months without a partition).
      await sql`insert into ${sql.id(RAW_DEFAULT_PARTITION)} (signal_id, ts, value) values (${tree.signalId}, ${Date.UTC(2018, 5, 1)}, 4), (${tree.signalId}, ${Date.UTC(2019, 5, 1)}, 5)`.execute(
        t.ctx.db,
      );
      const partitionsBefore = await listRawPartitions(t.ctx.db);
      const rollupsBefore = await rollupRows();
      const cutoff = feb + 10 * DAY;

      const removed = await deleteExpiredRaw({ ...t.ctx, now: () => cutoff + RETENTION_DAYS * DAY });
      expect(removed.partitions).toEqual(['telemetry_raw_p201901']);
      expect(removed.rows).toBe(1);
      const after = await listRawPartitions(t.ctx.db);
      expect(after).toEqual(partitionsBefore.filter((p) => p.name !== 'telemetry_raw_p201901'));
      // February straddles the cutoff: kept whole, its early point too (a month lives until it all expired).
      expect(await rowsIn('telemetry_raw_p201902')).toBe(2);
      expect(await rowsIn(RAW_DEFAULT_PARTITION)).toBe(1);
      expect(await rawOf(jan + 10 * DAY - DAY / 2, jan + 10 * DAY + 1)).toEqual([]);
      expect(await rawOf(feb + DAY / 2, feb + 1 * DAY + 1)).toEqual([[feb + DAY, 2]]);
      expect(await rollupRows()).toBe(rollupsBefore);
    },
  );

  it.runIf(dialectUnderTest === 'sqlite')(
    'retention deletes the raw points before the cutoff and keeps the rest and every rollup',
    async () => {
      const base = Date.UTC(2019, 0, 1);
      await t.ctx.telemetry.store([
        { signal_id: tree.signalId, ts: base, value: 1 },
        { signal_id: tree.signalId, ts: base + DAY, value: 2 },
        { signal_id: tree.signalId, ts: base + 3 * DAY, value: 3 },
      ]);
      const rollupsBefore = await rollupRows();
      const cutoff = base + 2 * DAY;
      const removed = await deleteExpiredRaw({ ...t.ctx, now: () => cutoff + RETENTION_DAYS * DAY });
      expect(removed).toEqual({ rows: 2, partitions: [] });
      expect(await rawOf(base - DAY / 2, base + DAY / 2)).toEqual([]);
      expect(await rawOf(base + 3 * DAY - DAY / 2, base + 3 * DAY + DAY / 2)).toEqual([[base + 3 * DAY, 3]]);
      expect(await rollupRows()).toBe(rollupsBefore);
      expect(await ensureRawPartitions(t.ctx)).toEqual([]);
    },
  );
});
