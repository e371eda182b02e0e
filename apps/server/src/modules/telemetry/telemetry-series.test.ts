import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryAnswer } from '@solar/shared';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const MIN5 = 300_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * The shape of the series and latest reads (telemetry.repository.ts): on PostgreSQL a rollup series comes
 * as one row per signal with its points as JSON text, each signal with its own first bucket; `latest` asks
 * for reach only when it finds nothing. The values must be exactly those of the stored rows, bit for bit,
 * for doubles whose shortest text is awkward, and the ranges per signal exact.
 */
describe(`telemetry series and latest reads (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let a: Tree;
  let b: Tree;
  let counterId: number;
  let emptyId: number;

  // Doubles whose text is long, tiny, huge, negative zero or exponent-formatted in one database or the other.
  const awkward = [
    0.1 + 0.2,
    1e-7,
    1.5e-5,
    123456789.12345679,
    -0,
    5e-324,
    1.7976931348623157e308,
    2 / 3,
    Math.PI * 1e10,
    1e21,
    -42.000000000000014,
    1e-300,
  ];
  const at = (i: number) => awkward[i % awkward.length]!;
  // Local days start at 21:00 UTC in Istanbul (UTC+3) and 23:00 UTC in Skopje (UTC+1 in November).
  const T0 = Date.UTC(2026, 10, 10, 22, 0, 0);

  type Row = {
    signal_id: number;
    bucket: number;
    min: number;
    max: number;
    sum: number;
    count: number;
    first: number;
    first_ts: number;
    last: number;
    last_ts: number;
    delta: number | null;
  };
  const rows: Record<'5m' | '1h' | '1d', Row[]> = { '5m': [], '1h': [], '1d': [] };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    a = await makeTree(t, admin.token, 'SeriesA');
    b = await makeTree(t, admin.token, 'SeriesB');
    await t.ctx.db
      .updateTable('plants')
      .set({ time_zone: 'Europe/Skopje' })
      .where('id', '=', b.plantId)
      .execute();
    counterId = (
      await save(t, admin.token, '/api/signals/0', {
        device_id: a.deviceId,
        key: 'total_energy',
        name: 'Total energy',
        unit: 'kWh',
        is_counter: true,
      })
    ).id;
    emptyId = (
      await save(t, admin.token, '/api/signals/0', { device_id: a.deviceId, key: 'dc_power', name: 'DC' })
    ).id;
    const starts = {
      '5m': (ts: number) => ts - (ts % MIN5),
      '1h': (ts: number) => ts - (ts % HOUR),
      // Local midnights: Istanbul 21:00 UTC, Skopje 23:00 UTC.
      '1d': (ts: number, skopje: boolean) => {
        const offset = skopje ? HOUR : 3 * HOUR;
        return Math.floor((ts + offset) / DAY) * DAY - offset;
      },
    };
    const width = { '5m': MIN5, '1h': HOUR, '1d': DAY };
    let n = 0;
    for (const resolution of ['5m', '1h', '1d'] as const) {
      for (const [signal, skopje] of [
        [a.signalId, false],
        [counterId, false],
        [b.signalId, true],
      ] as const) {
        // From two buckets before the first wanted one to two after the last: the edges are checked.
        const first = starts[resolution](T0, skopje) - 2 * width[resolution];
        // Written newest first, so that the heap's order is not the key's order.
        for (let i = 9; i >= 0; i--) {
          n++;
          const bucket = first + i * width[resolution];
          const count = 1 + (n % 7);
          rows[resolution].push({
            signal_id: signal,
            bucket,
            min: -at(n + 1),
            max: at(n + 2),
            // One bucket of each series holds a sum that overflowed before ingest bounds existed.
            sum: i === 4 ? Number.POSITIVE_INFINITY : at(n) * count,
            count,
            first: at(n + 3),
            first_ts: bucket,
            last: at(n + 4),
            last_ts: bucket + 1000,
            delta: signal === counterId ? (i === 6 ? null : at(n + 5)) : null,
          });
        }
      }
      if (resolution === '1d') {
        // A day bucket of A an hour before its plant's local midnight (written when the plant had another
        // time zone): after the earliest start of the query (B's), before A's own, so not in A's answer.
        const extra = { ...rows['1d'][0]!, signal_id: a.signalId, bucket: starts['1d'](T0, false) - HOUR };
        rows['1d'].push({ ...extra, first_ts: extra.bucket, last_ts: extra.bucket + 1000 });
      }
      await t.ctx.db.insertInto(`telemetry_${resolution}`).values(rows[resolution]).execute();
    }
  });
  afterAll(() => t.close());

  it('answers each bucket of each signal in its own range with exactly the stored values', async () => {
    const to = T0 + 5 * MIN5 + 1;
    const toOf = { '5m': to, '1h': T0 + 5 * HOUR, '1d': T0 + 5 * DAY };
    for (const resolution of ['5m', '1h', '1d'] as const) {
      for (const agg of ['avg', 'min', 'max', 'last', 'sum'] as const) {
        const res = await t.http.get('/api/telemetry', {
          token: admin.token,
          query: {
            signal_ids: `${a.signalId},${counterId},${emptyId},${b.signalId}`,
            from: String(T0),
            to: String(toOf[resolution]),
            resolution,
            agg,
          },
        });
        expect(res.statusCode, res.body).toBe(200);
        const answer = res.json<TelemetryAnswer>();
        for (const [signal, skopje] of [
          [a.signalId, false],
          [counterId, false],
          [emptyId, false],
          [b.signalId, true],
        ] as const) {
          // The bucket holding `from` (the plant's local day for 1d) up to `to`, oldest first.
          const offset = skopje ? HOUR : 3 * HOUR;
          const from =
            resolution === '1d'
              ? Math.floor((T0 + offset) / DAY) * DAY - offset
              : T0 - (T0 % (resolution === '5m' ? MIN5 : HOUR));
          const want = rows[resolution]
            .filter((r) => r.signal_id === signal && r.bucket >= from && r.bucket < toOf[resolution])
            .sort((x, y) => x.bucket - y.bucket)
            .map((r) => {
              const v = {
                avg: r.sum / r.count,
                min: r.min,
                max: r.max,
                last: r.last,
                sum: signal === counterId ? (r.delta ?? 0) : r.sum,
              }[agg];
              return [r.bucket, Number.isFinite(v) ? v : null];
            });
          const got = answer.series.find((s) => s.signal_id === signal)!.points;
          // As JSON carries them (−0 is written 0 either way).
          expect(got, `${resolution} ${agg} ${signal}`).toEqual(JSON.parse(JSON.stringify(want)));
          if (signal !== emptyId) expect(got.length, `${resolution} ${agg}`).toBeGreaterThan(2);
        }
      }
    }
  });

  it('answers raw points of each signal in [from, to) with exactly the stored values, oldest first', async () => {
    const points = [a.signalId, b.signalId].flatMap((signal, k) =>
      // Written newest first; one point before `from` and one at `to`, which the answer leaves out.
      Array.from({ length: 14 }, (_, i) => ({
        signal_id: signal,
        ts: T0 - 60_000 + (13 - i) * 60_000 + k,
        value: at(i + k),
      })),
    );
    await t.ctx.db.insertInto('telemetry_raw').values(points).execute();
    const to = T0 + 12 * 60_000;
    const res = await t.http.get('/api/telemetry', {
      token: admin.token,
      query: {
        signal_ids: `${a.signalId},${emptyId},${b.signalId}`,
        from: String(T0),
        to: String(to),
        resolution: 'raw',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<TelemetryAnswer>();
    for (const signal of [a.signalId, emptyId, b.signalId]) {
      const want = points
        .filter((p) => p.signal_id === signal && p.ts >= T0 && p.ts < to)
        .sort((x, y) => x.ts - y.ts)
        .map((p) => [p.ts, p.value]);
      const got = answer.series.find((s) => s.signal_id === signal)!.points;
      expect(got, String(signal)).toEqual(JSON.parse(JSON.stringify(want)));
      if (signal !== emptyId) expect(got).toHaveLength(12);
    }
  });

  it('answers latest values of a reachable owner, an empty list for one without values, 404 otherwise', async () => {
    const operator = await makeUser(t, {
      companyId: a.companyId,
      permissions: [{ page: 'dashboard', method: 'view' }],
    });
    const now = Date.UTC(2026, 10, 11, 9, 0, 0);
    await t.ctx.db
      .insertInto('telemetry_latest')
      .values([
        { signal_id: a.signalId, ts: now, value: 0.1 + 0.2 },
        { signal_id: b.signalId, ts: now, value: 7 },
      ])
      .execute();
    const latest = (token: string, query: Record<string, string>) =>
      t.http.get('/api/telemetry/latest', { token, query });

    const own = await latest(operator.token, { plant_id: String(a.plantId) });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toEqual({
      items: [
        {
          signal_id: a.signalId,
          device_id: a.deviceId,
          key: 'ac_power',
          unit: 'kW',
          ts: new Date(now).toISOString(),
          value: 0.1 + 0.2,
        },
      ],
    });
    // Another company's plant and device have values, but not for this caller; an unknown one neither.
    for (const query of [
      { plant_id: String(b.plantId) } as Record<string, string>,
      { device_id: String(b.deviceId) },
      { plant_id: '999999' },
      { device_id: '999999' },
    ]) {
      const res = await latest(operator.token, query);
      expect(res.statusCode, JSON.stringify(query)).toBe(404);
    }
    expect((await latest(admin.token, { device_id: String(b.deviceId) })).json()).toMatchObject({
      items: [{ signal_id: b.signalId, value: 7 }],
    });
    // A reachable plant and device without any value: an empty list, not 404.
    const empty = await makeTree(t, admin.token, 'SeriesEmpty');
    const emptyUser = await makeUser(t, {
      companyId: empty.companyId,
      permissions: [{ page: 'dashboard', method: 'view' }],
    });
    for (const query of [
      { plant_id: String(empty.plantId) } as Record<string, string>,
      { device_id: String(empty.deviceId) },
    ]) {
      const res = await latest(emptyUser.token, query);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ items: [] });
    }
  });
});
