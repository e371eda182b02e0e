import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLLUP_TABLES } from '../db/migrations/2026-11-23-0004-telemetry';
import { makeTree, makeUser, save } from '../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';
import { randomSeries, seeded } from '../test/random-series';
import { aggregatePoints, rollUp } from './aggregate';
import { dayBucket, floorBucket } from './buckets';
import type { PointToStore } from './telemetry-hub';

/**
 * The property behind the batch path: storing random batches — duplicates with the same and with
 * another value, points out of order and among stored ones, counter resets — leaves exactly the raw, latest
 * and rollup rows that storing the same points one at a time leaves. Pairs of signals of the same device
 * take the two ways; values are quarters, so sums are exact and rows can be compared bit for bit.
 */
describe(`batch store equals point-by-point store (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof makeUser>>;
  /** [batched, one by one] signal ids, for a power signal and for a counter. */
  const pairs: { counter: boolean; batched: number; single: number }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    const tree = await makeTree(t, admin.token, 'Prop');
    for (const counter of [false, true]) {
      const [batched, single] = await Promise.all(
        ['a', 'b'].map(async (suffix) => {
          const signal = await save(t, admin.token, '/api/signals/0', {
            device_id: tree.deviceId,
            key: `${counter ? 'energy' : 'power'}_${suffix}`,
            name: `${counter ? 'Energy' : 'Power'} ${suffix}`,
            unit: counter ? 'kWh' : 'W',
            is_counter: counter,
          });
          return signal.id;
        }),
      );
      pairs.push({ counter, batched: batched!, single: single! });
    }
  });
  afterAll(() => t.close());

  const rowsOf = async (
    table: (typeof ROLLUP_TABLES)[number] | 'telemetry_raw' | 'telemetry_latest',
    id: number,
  ) =>
    (await t.ctx.db.selectFrom(table).selectAll().where('signal_id', '=', id).execute())
      .map(({ signal_id: _id, ...row }) => row as Record<string, unknown>)
      .sort((a, b) => Number(a.bucket ?? a.ts) - Number(b.bucket ?? b.ts));

  /** The rollup rows of all the signal's raw points, aggregated at once in time order. */
  const fromScratch = async (id: number, counter: boolean) => {
    const raw = await rowsOf('telemetry_raw', id);
    const { time_zone: zone } = await t.ctx.db
      .selectFrom('signals')
      .innerJoin('devices', 'devices.id', 'signals.device_id')
      .innerJoin('plants', 'plants.id', 'devices.plant_id')
      .select('plants.time_zone')
      .where('signals.id', '=', id)
      .executeTakeFirstOrThrow();
    const points = raw.map((r) => ({ ts: Number(r.ts), value: Number(r.value) }));
    const fives = aggregatePoints(points, (ts) => floorBucket(ts, 300_000), counter);
    const fiveRows = [...fives].map(([bucket, agg]) => ({ bucket, ...agg }));
    const rows = (buckets: Map<number, object>) =>
      [...buckets]
        .map(([bucket, agg]) => ({ bucket, ...agg }))
        .sort((a, b) => Number(a.bucket) - Number(b.bucket));
    return {
      telemetry_5m: rows(fives),
      telemetry_1h: rows(rollUp(fiveRows, (b) => floorBucket(b, 3_600_000))),
      telemetry_1d: rows(rollUp(fiveRows, (b) => dayBucket(b, zone))),
    } as Record<(typeof ROLLUP_TABLES)[number], Record<string, unknown>[]>;
  };

  // Istanbul; the cases overlap in time, so later ones land among and before stored points.
  const base = Date.UTC(2026, 10, 2, 0, 0, 0);
  // Each case builds on the rows the earlier ones left (a random state to batch into).
  for (let seed = 1; seed <= 6; seed++) {
    it(
      `leaves the same raw, latest and rollup rows for random batches (seed ${seed})`,
      { timeout: 120_000 },
      async () => {
        const random = seeded(1000 + seed);
        for (const pair of pairs) {
          const series = randomSeries(random, pair.counter, base + Math.floor(random() * 2) * 86_400_000, 80);
          // Duplicates: some points again, with the same or with another value.
          const offered = series.flatMap((p) =>
            random() < 0.15 ? [p, { ts: p.ts, value: random() < 0.5 ? p.value : p.value + 0.25 }] : [p],
          );
          // Out of order: swap neighbours, and move a few points far away.
          for (let i = 0; i < offered.length; i++) {
            const j =
              random() < 0.2
                ? Math.floor(random() * offered.length)
                : Math.min(offered.length - 1, i + Math.floor(random() * 3));
            [offered[i], offered[j]] = [offered[j]!, offered[i]!];
          }
          // Random batches for one signal; the same points one at a time for the other.
          let i = 0;
          while (i < offered.length) {
            const size = 1 + Math.floor(random() * offered.length);
            const batch: PointToStore[] = offered
              .slice(i, i + size)
              .map((p) => ({ signal_id: pair.batched, ...p }));
            await t.ctx.telemetry.store(batch);
            i += size;
          }
          for (const p of offered) await t.ctx.telemetry.store([{ signal_id: pair.single, ...p }]);

          for (const table of ['telemetry_raw', 'telemetry_latest', ...ROLLUP_TABLES] as const) {
            const batched = await rowsOf(table, pair.batched);
            expect(batched.length, `${table} seed ${seed}`).toBeGreaterThan(0);
            expect(batched, `${table} seed ${seed} counter ${pair.counter}`).toEqual(
              await rowsOf(table, pair.single),
            );
          }
          // Both ways share the merge and recompute code: hold them to rollups built from scratch too.
          const expected = await fromScratch(pair.batched, pair.counter);
          for (const table of ROLLUP_TABLES)
            expect(await rowsOf(table, pair.batched), `${table} from scratch, seed ${seed}`).toEqual(
              expected[table],
            );
        }
      },
    );
  }

  // PostgreSQL runs batches of other devices side by side and batches of one device one after the other
  // (lockRollups); SQLite runs them one after the other on its one connection. Either way, batches sent all
  // at once — both devices in each, out of order, counters among stored points — must leave the rollups
  // that their points give when aggregated from scratch: no batch's read-merge-write may lose another's.
  it('leaves rollups equal to a build from scratch when batches of shared devices run at once', async () => {
    const random = seeded(77);
    const signals: { id: number; counter: boolean }[] = [];
    for (const name of ['ConcA', 'ConcB', 'ConcC']) {
      const tree = await makeTree(t, admin.token, name);
      const energy = await save(t, admin.token, '/api/signals/0', {
        device_id: tree.deviceId,
        key: 'total_energy',
        name: 'Energy',
        unit: 'kWh',
        is_counter: true,
      });
      signals.push({ id: tree.signalId, counter: false }, { id: energy.id, counter: true });
    }
    const offered: PointToStore[] = signals.flatMap(({ id, counter }) =>
      randomSeries(random, counter, base + 3 * 86_400_000, 120).map((p) => ({ signal_id: id, ...p })),
    );
    const shuffle = <T>(list: T[]) => {
      for (let i = list.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [list[i], list[j]] = [list[j]!, list[i]!];
      }
      return list;
    };
    // Half the points in batches of one device (pairs of them run side by side), half in mixed ones.
    const pools = new Map<string, PointToStore[]>();
    for (const p of shuffle(offered)) {
      const pool =
        random() < 0.5 ? `device ${Math.floor(signals.findIndex((s) => s.id === p.signal_id) / 2)}` : 'mixed';
      pools.set(pool, [...(pools.get(pool) ?? []), p]);
    }
    const batches: PointToStore[][] = [];
    for (const pool of pools.values())
      for (let i = 0; i < pool.length; i += 20) batches.push(pool.slice(i, i + 20));
    shuffle(batches);
    const results = await Promise.all(batches.map((batch) => t.ctx.telemetry.store(batch)));
    expect(results.reduce((n, r) => n + r.inserted + r.duplicates, 0)).toBe(offered.length);
    for (const { id, counter } of signals) {
      const expected = await fromScratch(id, counter);
      for (const table of ROLLUP_TABLES)
        expect(await rowsOf(table, id), `${table} of signal ${id}`).toEqual(expected[table]);
    }
  });
});

/**
 * The raw insert learns which points are duplicates before it writes (PostgreSQL: a read of the batch's
 * spans, then an insert without RETURNING). A writer that stores one of the batch's keys in between — here a
 * transaction still open while the batch runs — must still leave exact counts: the batch stores the rest
 * once, and counts that point as a conflicting duplicate of its device.
 */
describe(`a key stored by another writer during the batch (${dialectUnderTest})`, () => {
  let t: TestApp;
  let signalId: number;
  let deviceId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await makeUser(t, { admin: true });
    const tree = await makeTree(t, admin.token, 'Race');
    deviceId = tree.deviceId;
    const signal = await save(t, admin.token, '/api/signals/0', {
      device_id: tree.deviceId,
      key: 'power_race',
      name: 'Power race',
      unit: 'kW',
      is_counter: false,
    });
    signalId = signal.id;
  });
  afterAll(() => t.close());

  it('stores the other points once and counts the taken one as a conflicting duplicate', async () => {
    const base = Date.UTC(2026, 10, 3, 12, 0, 0);
    const batch: PointToStore[] = Array.from({ length: 50 }, (_, i) => ({
      signal_id: signalId,
      ts: base + i * 60_000,
      value: i,
    }));
    const taken = batch[20]!;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const written = new Promise<void>((resolve) => (inserted = resolve));
    const other = t.ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('telemetry_raw')
        .values({ signal_id: signalId, ts: taken.ts, value: 99 })
        .execute();
      inserted();
      await held;
    });
    await written;
    const result = t.ctx.telemetry.store(batch);
    // Long enough for the batch to read its spans and wait on the other writer's key (PostgreSQL), or to
    // queue behind its transaction (SQLite's one connection).
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await other;
    expect(await result).toEqual({ inserted: 49, duplicates: 1, conflicting: 1 });

    const raw = await t.ctx.db
      .selectFrom('telemetry_raw')
      .select(['ts', 'value'])
      .where('signal_id', '=', signalId)
      .orderBy('ts')
      .execute();
    expect(raw.map((r) => [Number(r.ts), r.value])).toEqual(
      batch.map((p) => [p.ts, p.ts === taken.ts ? 99 : p.value]),
    );
    const counts = await t.ctx.ingestCounts.read(deviceId);
    expect(counts.get('duplicate_conflicting')?.count).toBe(1);
    expect(counts.get('duplicate_identical')?.count ?? 0).toBe(0);
  });
});
