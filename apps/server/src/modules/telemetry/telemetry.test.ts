import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnergyAnswer, TelemetryAnswer, TelemetryIngestAnswer } from '@solar/shared';
import { deleteExpiredRaw } from '../../telemetry-store/retention';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const MIN5 = 300_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

interface P {
  signal_id: number;
  ts: number;
  value: number | null;
}

/** Expected buckets computed here, independently of the server's rollup code. */
function expectedBuckets(
  points: { ts: number; value: number }[],
  bucketOf: (ts: number) => number,
  counter: boolean,
) {
  const sorted = [...points].sort((a, b) => a.ts - b.ts);
  const out = new Map<number, { values: number[]; last: number; delta: number }>();
  let prev: number | null = null;
  for (const p of sorted) {
    const key = bucketOf(p.ts);
    const b = out.get(key) ?? { values: [], last: 0, delta: 0 };
    b.values.push(p.value);
    b.last = p.value;
    if (counter && prev !== null) b.delta += p.value >= prev ? p.value - prev : p.value;
    prev = p.value;
    out.set(key, b);
  }
  return out;
}
const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
/** Istanbul is UTC+3 all year. */
const istanbulDay = (ts: number) => Math.floor((ts + 3 * HOUR) / DAY) * DAY - 3 * HOUR;

describe(`telemetry (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let other: Tree;
  let counterId: number;
  let deviceKey: string;

  const ingestWithKey = (key: string, points: unknown) =>
    t.http.post('/api/telemetry', { points }, { headers: { 'x-api-key': key }, xsrf: false });
  const ingest = async (points: P[], key = deviceKey) => {
    const res = await ingestWithKey(key, points);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TelemetryIngestAnswer>();
  };
  const query = async (q: Record<string, string | number>, token = admin.token) => {
    const res = await t.http.get('/api/telemetry', {
      token,
      query: Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TelemetryAnswer>();
  };
  const rawCount = async () =>
    Number(
      (
        await t.ctx.db
          .selectFrom('telemetry_raw')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Tel');
    other = await makeTree(t, admin.token, 'Other');
    counterId = (
      await save(t, admin.token, '/api/signals/0', {
        device_id: tree.deviceId,
        key: 'total_energy',
        name: 'Total energy',
        unit: 'kWh',
        is_counter: true,
      })
    ).id;
    const res = await t.http.post(`/api/devices/${tree.deviceId}/ingest-key`, {}, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    deviceKey = res.json<{ key: string }>().key;
  });
  afterAll(() => t.close());

  // Istanbul 2026-11-10 23:00 to 2026-11-11 03:00 local, every 37 s: two local days, many buckets.
  const T0 = Date.UTC(2026, 10, 10, 20, 0, 0);
  const power = Array.from({ length: 390 }, (_, i) => ({
    ts: T0 + i * 37_000,
    value: Math.round(Math.sin(i / 9) * 5000) / 100 + 50,
  }));
  // Counter every 5 minutes: rises, resets to 0.5 at i = 30, rises again.
  const energy = Array.from({ length: 50 }, (_, i) => ({
    ts: T0 + i * MIN5 + 1000,
    value: i < 30 ? 1000 + i * 2.5 : 0.5 + (i - 30) * 3,
  }));

  it('stores in-order, out-of-order and repeated points once and rolls them up exactly at every resolution', async () => {
    const p = (list: typeof power, id: number) => list.map((x) => ({ signal_id: id, ...x }));
    const first = await ingest([
      ...p(power.slice(0, 200), tree.signalId),
      ...p(energy.slice(0, 20), counterId),
    ]);
    expect(first).toEqual({ stored: 220, duplicates: 0, conflicting_duplicates: 0, rejected: [] });
    await ingest([...p(power.slice(300), tree.signalId), ...p(energy.slice(35), counterId)]);
    // Out of order (the gap) together with repeats of the first batch.
    const late = await ingest([
      ...p(power.slice(190, 300), tree.signalId),
      ...p(energy.slice(15, 35), counterId),
    ]);
    expect(late).toEqual({ stored: 130, duplicates: 15, conflicting_duplicates: 0, rejected: [] });
    // The whole lot again: nothing new, nothing counted twice.
    const again = await ingest([...p(power, tree.signalId), ...p(energy, counterId)]);
    expect(again).toEqual({ stored: 440, duplicates: 440, conflicting_duplicates: 0, rejected: [] });
    expect(await rawCount()).toBe(440);

    const from = T0 - DAY;
    const to = T0 + DAY;
    for (const [resolution, bucketOf] of [
      ['5m', (ts: number) => Math.floor(ts / MIN5) * MIN5],
      ['1h', (ts: number) => Math.floor(ts / HOUR) * HOUR],
      ['1d', istanbulDay],
    ] as const) {
      const expectedPower = expectedBuckets(power, bucketOf, false);
      for (const agg of ['avg', 'min', 'max', 'last', 'sum'] as const) {
        const answer = await query({
          signal_ids: `${tree.signalId},${counterId}`,
          from,
          to,
          resolution,
          agg,
        });
        expect(answer.resolution).toBe(resolution);
        const series = answer.series.find((s) => s.signal_id === tree.signalId)!;
        expect(series.points.map(([ts]) => ts)).toEqual([...expectedPower.keys()]);
        for (const [ts, value] of series.points) {
          const b = expectedPower.get(ts)!;
          const want = {
            avg: sum(b.values) / b.values.length,
            min: Math.min(...b.values),
            max: Math.max(...b.values),
            last: b.last,
            sum: sum(b.values),
          }[agg];
          expect(value, `${resolution} ${agg} ${ts}`).toBeCloseTo(want, 6);
        }
      }
      const counter = (await query({ signal_ids: counterId, from, to, resolution, agg: 'sum' })).series[0]!;
      const expectedEnergy = expectedBuckets(energy, bucketOf, true);
      expect(counter.is_counter).toBe(true);
      expect(counter.points).toHaveLength(expectedEnergy.size);
      for (const [ts, value] of counter.points)
        expect(value, `${resolution} ${ts}`).toBeCloseTo(expectedEnergy.get(ts)!.delta, 6);
    }
    // The reset step counts the new value: 29 × 2.5 before, 0.5 at the reset, 19 × 3 after.
    const day = (await query({ signal_ids: counterId, from, to, resolution: '1d', agg: 'sum' })).series[0]!;
    expect(sum(day.points.map(([, v]) => v!))).toBeCloseTo(29 * 2.5 + 0.5 + 19 * 3, 6);

    const raw = await query({ signal_ids: tree.signalId, from: T0, to: T0 + 10 * 37_000, resolution: 'raw' });
    expect(raw.series[0]!.points).toEqual(power.slice(0, 10).map((x) => [x.ts, x.value]));
  });

  it('picks the resolution for auto and refuses raw over more than a day', async () => {
    const at = (from: number, to: number) =>
      query({ signal_ids: tree.signalId, from, to }).then((a) => a.resolution);
    expect(await at(T0, T0 + 6 * HOUR)).toBe('raw');
    expect(await at(T0, T0 + DAY + HOUR / 2)).toBe('5m');
    expect(await at(T0, T0 + 2 * DAY)).toBe('5m');
    expect(await at(T0 - 20 * DAY, T0)).toBe('1h');
    expect(await at(T0 - 400 * DAY, T0)).toBe('1d');
    const res = await t.http.get('/api/telemetry', {
      token: admin.token,
      query: {
        signal_ids: String(tree.signalId),
        from: String(T0),
        to: String(T0 + DAY + 1),
        resolution: 'raw',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      detail: 'errors.rawRangeTooLong',
      errors: { resolution: ['validation.outOfRange'] },
    });
  });

  it('answers latest values and energy per plant-local day and month', async () => {
    const latest = await t.http.get('/api/telemetry/latest', {
      token: admin.token,
      query: { device_id: String(tree.deviceId) },
    });
    expect(latest.statusCode, latest.body).toBe(200);
    const items = latest.json<{ items: { signal_id: number; ts: string; value: number }[] }>().items;
    expect(items.find((i) => i.signal_id === tree.signalId)).toMatchObject({
      ts: new Date(power.at(-1)!.ts).toISOString(),
      value: power.at(-1)!.value,
    });
    expect(items.find((i) => i.signal_id === counterId)).toMatchObject({ value: energy.at(-1)!.value });
    // An older point does not replace the latest one.
    await ingest([{ signal_id: tree.signalId, ts: T0 - HOUR, value: 999 }]);
    const again = await t.http.get('/api/telemetry/latest', {
      token: admin.token,
      query: { plant_id: String(tree.plantId) },
    });
    expect(
      again
        .json<{ items: { signal_id: number; value: number }[] }>()
        .items.find((i) => i.signal_id === tree.signalId)!.value,
    ).toBe(power.at(-1)!.value);

    const byDay = expectedBuckets(energy, istanbulDay, true);
    const energyOf = async (period: string, from: string, to: string) => {
      const res = await t.http.get('/api/telemetry/energy', {
        token: admin.token,
        query: { plant_id: String(tree.plantId), period, from, to },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<EnergyAnswer>();
    };
    const days = await energyOf('day', '2026-11-09', '2026-11-11');
    expect(days.time_zone).toBe('Europe/Istanbul');
    expect(days.items.map((i) => i.period)).toEqual(['2026-11-09', '2026-11-10', '2026-11-11']);
    // Nothing counted on the 9th: unknown, not zero.
    expect(days.items[0]!).toMatchObject({ energy_kwh: null, source: 'none', inverter_sum_kwh: null });
    // No meter: the plant's energy is its inverters' sum, named as such.
    expect(days.items.slice(1).map((i) => i.source)).toEqual(['inverters', 'inverters']);
    for (const i of days.items) expect(i.inverter_sum_kwh).toBe(i.energy_kwh);
    expect(days.items[1]!.energy_kwh).toBeCloseTo(
      byDay.get(istanbulDay(Date.UTC(2026, 10, 10, 12)))!.delta,
      6,
    );
    expect(days.items[2]!.energy_kwh).toBeCloseTo(
      byDay.get(istanbulDay(Date.UTC(2026, 10, 11, 12)))!.delta,
      6,
    );
    const month = await energyOf('month', '2026-10-01', '2026-11-30');
    expect(month.items.map((i) => i.period)).toEqual(['2026-10-01', '2026-11-01']);
    expect(month.items[1]!.energy_kwh).toBeCloseTo(29 * 2.5 + 0.5 + 19 * 3, 6);
    const device = await t.http.get('/api/telemetry/energy', {
      token: admin.token,
      query: { device_id: String(tree.deviceId), period: 'year', from: '2026-01-01', to: '2026-12-31' },
    });
    expect(device.json<EnergyAnswer>().items).toEqual([
      { period: '2026-01-01', energy_kwh: month.items[1]!.energy_kwh, source: 'device' },
    ]);
  });

  it('cuts days at local midnight in Skopje, a 25-hour day at the DST change included', async () => {
    const plant = await save(t, admin.token, '/api/plants/0', {
      field_id: tree.fieldId,
      name: 'Skopje',
      time_zone: 'Europe/Skopje',
    });
    const inverter = await save(t, admin.token, '/api/devices/0', {
      plant_id: plant.id,
      name: 'SK-INV',
      type: 'inverter',
      protocol: 'http',
    });
    const signal = await save(t, admin.token, '/api/signals/0', {
      device_id: inverter.id,
      key: 'ac_power',
      name: 'P',
      unit: 'kW',
    });
    const meter = await save(t, admin.token, '/api/signals/0', {
      device_id: inverter.id,
      key: 'total_energy',
      name: 'E',
      unit: 'Wh',
      is_counter: true,
    });
    // Hourly at :30 UTC from 2026-10-24 20:30Z to 2026-10-26 23:30Z; the counter adds 1000 Wh (1 kWh) per hour.
    const start = Date.UTC(2026, 9, 24, 20, 30);
    const hours = Array.from({ length: 52 }, (_, i) => start + i * HOUR);
    await ingest(
      hours.flatMap((ts, i) => [
        { signal_id: signal.id, ts, value: 1 },
        { signal_id: meter.id, ts, value: 5000 + i * 1000 },
      ]),
      // A plant key takes the signals of every device of the plant.
      (await t.http.post(`/api/plants/${plant.id}/ingest-key`, {}, { token: admin.token })).json<{
        key: string;
      }>().key,
    );
    const answer = await query({
      signal_ids: signal.id,
      from: Date.UTC(2026, 9, 24, 12),
      to: Date.UTC(2026, 9, 27),
      resolution: '1d',
      agg: 'sum',
    });
    // CEST (+2) until 2026-10-25 01:00Z, then CET (+1).
    expect(answer.series[0]!.points).toEqual([
      [Date.UTC(2026, 9, 23, 22), 2], // 24th: 20:30Z and 21:30Z
      [Date.UTC(2026, 9, 24, 22), 25], // 25th: 22:30Z on the 24th to 22:30Z on the 25th
      [Date.UTC(2026, 9, 25, 23), 24],
      [Date.UTC(2026, 9, 26, 23), 1], // 27th: 23:30Z on the 26th
    ]);
    const res = await t.http.get('/api/telemetry/energy', {
      token: admin.token,
      query: { plant_id: String(plant.id), from: '2026-10-24', to: '2026-10-27' },
    });
    // The first reading has no predecessor; each later one adds 1 kWh (1000 Wh) to its local day, in the
    // plant's energy (the KPI engine's) as in its inverters' sum.
    const day = (period: string, kwh: number) => ({
      period,
      energy_kwh: kwh,
      source: 'inverters',
      inverter_sum_kwh: kwh,
    });
    expect(res.json<EnergyAnswer>().items).toEqual([
      day('2026-10-24', 1),
      day('2026-10-25', 25),
      day('2026-10-26', 24),
      day('2026-10-27', 1),
    ]);
  });

  it('refuses missing, wrong and revoked keys and points outside the key, per point with a reason', async () => {
    const body = [{ signal_id: tree.signalId, ts: T0, value: 1 }];
    // No key and no token: refused (401 with the console's anti-forgery header, 403 without it).
    expect((await t.http.post('/api/telemetry', { points: body })).statusCode).toBe(401);
    expect((await t.http.post('/api/telemetry', { points: body }, { xsrf: false })).statusCode).toBe(403);
    const bad = await ingestWithKey('sk_not-a-key', body);
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ detail: 'errors.invalidApiKey' });

    const info = await t.http.get(`/api/devices/${tree.deviceId}/ingest-key`, { token: admin.token });
    expect(info.json()).toEqual({ prefix: deviceKey.slice(0, 11), created_at: expect.any(String) });
    const rotated = (
      await t.http.post(`/api/devices/${tree.deviceId}/ingest-key`, {}, { token: admin.token })
    ).json<{ key: string }>().key;
    expect((await ingestWithKey(deviceKey, body)).statusCode).toBe(401);
    deviceKey = rotated;

    const inactive = await save(t, admin.token, '/api/signals/0', {
      device_id: tree.deviceId,
      key: 'off',
      name: 'Off',
      is_active: false,
    });
    const now = Date.now();
    const res = await ingest([
      { signal_id: tree.signalId, ts: now - 1000, value: 1 },
      { signal_id: other.signalId, ts: now - 1000, value: 1 },
      { signal_id: 999_999, ts: now - 1000, value: 1 },
      { signal_id: tree.signalId, ts: now + 10 * 60_000, value: 1 },
      { signal_id: tree.signalId, ts: now - 2000, value: null },
      { signal_id: inactive.id, ts: now - 1000, value: 1 },
      { signal_id: tree.signalId, ts: now - 200 * DAY, value: 1 },
    ]);
    expect(res).toEqual({
      stored: 1,
      duplicates: 0,
      conflicting_duplicates: 0,
      rejected: [
        { index: 1, signal_id: other.signalId, reason: 'unknown_signal' },
        { index: 2, signal_id: 999_999, reason: 'unknown_signal' },
        { index: 3, signal_id: tree.signalId, reason: 'future' },
        { index: 4, signal_id: tree.signalId, reason: 'non_finite' },
        { index: 5, signal_id: inactive.id, reason: 'inactive_signal' },
        { index: 6, signal_id: tree.signalId, reason: 'too_old' },
      ],
    });

    // A number too large for a double parses as Infinity: refused per point.
    const huge = await t.http.call('POST', '/api/telemetry', {
      headers: { 'x-api-key': deviceKey, 'content-type': 'application/json' },
      xsrf: false,
      body: `{"points":[{"signal_id":${tree.signalId},"ts":${now - 5000},"value":1e999}]}`,
    });
    expect(huge.json()).toMatchObject({ stored: 0, rejected: [{ reason: 'non_finite' }] });

    expect(
      (await t.http.delete(`/api/devices/${tree.deviceId}/ingest-key`, { token: admin.token })).statusCode,
    ).toBe(204);
    expect((await ingestWithKey(deviceKey, body)).statusCode).toBe(401);
    expect(
      (await t.http.delete(`/api/devices/${tree.deviceId}/ingest-key`, { token: admin.token })).statusCode,
    ).toBe(404);
    deviceKey = (
      await t.http.post(`/api/devices/${tree.deviceId}/ingest-key`, {}, { token: admin.token })
    ).json<{ key: string }>().key;

    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'device_ingest_key')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'rotate', 'revoke', 'create']);
    expect(JSON.stringify(audit)).not.toContain(deviceKey.slice(11));
  });

  it('stores nothing from a malformed body or from more than 10,000 points', async () => {
    const before = await rawCount();
    const now = Date.now();
    for (const points of [
      [
        { signal_id: tree.signalId, ts: now - 1000, value: 1 },
        { signal_id: tree.signalId, ts: 'yesterday', value: 1 },
      ],
      [
        { signal_id: tree.signalId, ts: now - 1000, value: 1 },
        { signal_id: -4, ts: now, value: 1 },
      ],
      Array.from({ length: 10_001 }, (_, i) => ({
        signal_id: tree.signalId,
        ts: now - 20_000_000 + i,
        value: 1,
      })),
    ]) {
      const res = await ingestWithKey(deviceKey, points);
      expect(res.statusCode).toBe(400);
    }
    const bad = await ingestWithKey(deviceKey, [
      { signal_id: tree.signalId, ts: '2026-11-23T10:00:00', value: 1 },
    ]);
    expect(bad.json()).toMatchObject({ errors: { 'points.0.ts': ['validation.invalidDate'] } });
    expect(await rawCount()).toBe(before);
    // ISO timestamps with a zone are taken (through the zod path).
    const iso = await ingest([
      {
        signal_id: tree.signalId,
        ts: new Date(now - 60_000).toISOString().replace('Z', '+00:00') as unknown as number,
        value: 3,
      },
    ]);
    expect(iso.stored).toBe(1);
    // Exactly 10,000 points are fine.
    const many = await ingest(
      Array.from({ length: 10_000 }, (_, i) => ({
        signal_id: tree.signalId,
        ts: now - 40 * DAY + i * 1000,
        value: i,
      })),
    );
    expect(many).toEqual({ stored: 10_000, duplicates: 0, conflicting_duplicates: 0, rejected: [] });
  });

  it('parses large bodies on the parse thread, with the answers and refusals of the event loop', async () => {
    const parsedOn = async (where: 'thread' | 'loop') => {
      const text = await t.ctx.metrics.registry.getSingleMetricAsString('solar_ingest_bodies_parsed_total');
      return Number(new RegExp(`parsed_on="${where}"} (\\d+)`).exec(text)?.[1] ?? 0);
    };
    const post = (payload: string) =>
      t.http.post('/api/telemetry', payload, {
        headers: { 'x-api-key': deviceKey, 'content-type': 'application/json' },
        xsrf: false,
      });
    const start = Date.now() - 30 * DAY;
    const points = Array.from({ length: 3_000 }, (_, i) => ({
      signal_id: tree.signalId,
      ts: start + i * 1000,
      value: i % 7 === 0 ? null : i / 4,
    }));
    const large = JSON.stringify({ points });
    expect(large.length).toBeGreaterThan(64 * 1024);
    const [thread0, loop0] = [await parsedOn('thread'), await parsedOn('loop')];
    const before = await rawCount();
    const heard: object[] = [];
    const off = t.ctx.telemetry.onStored((stored) => heard.push(...stored));
    const res = await post(large);
    off();
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<TelemetryIngestAnswer>();
    // A null value is refused per point, as from a small body; the rest is stored.
    const nulls = points.filter((p) => p.value === null).length;
    expect(answer.stored).toBe(points.length - nulls);
    expect(answer.rejected).toHaveLength(nulls);
    expect(answer.rejected[0]).toMatchObject({ index: 0, signal_id: tree.signalId });
    expect(await rawCount()).toBe(before + points.length - nulls);
    expect(await parsedOn('thread')).toBe(thread0 + 1);
    // The listeners hear each stored point with its device and plant, and only those.
    expect(heard).toHaveLength(points.length - nulls);
    expect(heard[0]).toEqual({ ...points[1], device_id: tree.deviceId, plant_id: tree.plantId });

    // Invalid JSON, a poisoning key and ISO timestamps: the event loop's parser and the zod schema answer,
    // as for a small body.
    const small = JSON.stringify({ points: points.slice(0, 2) });
    const broken = (body: string) => `${body.slice(0, -1)},}`;
    const poisoned = (body: string) => `${body.slice(0, -1)},"__proto__":{"admin":true}}`;
    for (const make of [broken, poisoned]) {
      const [bigAnswer, smallAnswer] = [await post(make(large)), await post(make(small))];
      expect(bigAnswer.statusCode).toBe(400);
      expect(bigAnswer.body).toBe(smallAnswer.body);
    }
    const iso = points.map((p, i) => ({ ...p, ts: new Date(start + DAY + i * 1000).toISOString() }));
    const isoAnswer = await post(JSON.stringify({ points: iso }));
    expect(isoAnswer.statusCode, isoAnswer.body).toBe(200);
    expect(isoAnswer.json<TelemetryIngestAnswer>().stored).toBe(points.length - nulls);
    expect(await parsedOn('thread')).toBe(thread0 + 1);
    expect(await parsedOn('loop')).toBe(loop0 + 5);
  });

  it('keeps a company user to the own company: 404 on reads, unknown_signal on ingest', async () => {
    const operator = await makeUser(t, {
      companyId: tree.companyId,
      permissions: [
        { page: 'dashboard', method: 'view' },
        { page: 'device_management', method: 'update' },
      ],
    });
    const q = { from: String(T0), to: String(T0 + HOUR) };
    expect(
      (
        await t.http.get('/api/telemetry', {
          token: operator.token,
          query: { ...q, signal_ids: String(tree.signalId) },
        })
      ).statusCode,
    ).toBe(200);
    for (const ids of [String(other.signalId), `${tree.signalId},${other.signalId}`, '999999']) {
      const res = await t.http.get('/api/telemetry', {
        token: operator.token,
        query: { ...q, signal_ids: ids },
      });
      expect(res.statusCode, ids).toBe(404);
    }
    expect(
      (
        await t.http.get('/api/telemetry/latest', {
          token: operator.token,
          query: { plant_id: String(other.plantId) },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.http.get('/api/telemetry/energy', {
          token: operator.token,
          query: { plant_id: String(other.plantId), from: '2026-11-01', to: '2026-11-02' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.http.post(`/api/devices/${other.deviceId}/ingest-key`, {}, { token: operator.token }))
        .statusCode,
    ).toBe(404);
    const now = Date.now();
    const res = await t.http.post(
      '/api/telemetry',
      {
        points: [
          { signal_id: tree.signalId, ts: now - 7000, value: 1 },
          { signal_id: other.signalId, ts: now - 7000, value: 1 },
        ],
      },
      { token: operator.token },
    );
    expect(res.json()).toEqual({
      stored: 1,
      duplicates: 0,
      conflicting_duplicates: 0,
      rejected: [{ index: 1, signal_id: other.signalId, reason: 'unknown_signal' }],
    });
    // A user token still needs the anti-forgery header.
    expect(
      (await t.http.post('/api/telemetry', { points: [] }, { token: operator.token, xsrf: false }))
        .statusCode,
    ).toBe(403);
  });

  it('exports CSV with a plant column, UTC and plant-local time, and an XLSX with real dates', async () => {
    const q = {
      signal_ids: String(tree.signalId),
      from: String(T0),
      to: String(T0 + 3 * 37_000),
      resolution: 'raw',
    };
    const csv = await t.http.get('/api/telemetry/export', {
      token: admin.token,
      query: { ...q, format: 'csv' },
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('plant,signal_id,device,signal,unit,timestamp_utc,local_time,time_zone,value');
    expect(lines[1]).toBe(
      `Tel Plant,${tree.signalId},Tel INV-01,ac_power,kW,2026-11-10T20:00:00.000Z,2026-11-10 23:00:00,Europe/Istanbul,${power[0]!.value}`,
    );
    expect(lines).toHaveLength(4);

    // Semicolon for Turkish and German Excel: a decimal comma in the values.
    const semi = await t.http.get('/api/telemetry/export', {
      token: admin.token,
      query: { ...q, format: 'csv', delimiter: 'semicolon' },
    });
    const cells = semi.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')[1]!
      .split(';');
    expect(cells.slice(0, 2)).toEqual(['Tel Plant', String(tree.signalId)]);
    expect(cells[8]).toBe(String(power[0]!.value).replace('.', ','));
    expect(Number(cells[8]!.replace(',', '.'))).toBe(power[0]!.value);

    const xlsx = await t.http.get('/api/telemetry/export', {
      token: admin.token,
      query: { ...q, format: 'xlsx' },
    });
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('telemetry')!;
    expect(sheet.rowCount).toBe(4);
    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toBe('Tel Plant');
    expect(row.getCell(6).value).toEqual(new Date('2026-11-10T20:00:00.000Z'));
    expect(row.getCell(6).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    // The local wall clock as a date cell: Excel shows 23:00 exactly.
    expect(row.getCell(7).value).toEqual(new Date('2026-11-10T23:00:00.000Z'));
    expect(row.getCell(9).value).toBe(power[0]!.value);
  });

  it('protects a formula-like unit in CSV and XLSX alike, without a literal quote in the XLSX', async () => {
    const body = { device_id: tree.deviceId, key: 'ac_power', name: 'AC Power' };
    await save(t, admin.token, `/api/signals/${tree.signalId}`, { ...body, unit: '=1+1' });
    try {
      const q = {
        signal_ids: String(tree.signalId),
        from: String(T0),
        to: String(T0 + 37_000),
        resolution: 'raw',
      };
      const csv = await t.http.get('/api/telemetry/export', {
        token: admin.token,
        query: { ...q, format: 'csv' },
      });
      expect(csv.body.split('\r\n')[1]!.split(',')[4]).toBe("'=1+1");
      const xlsx = await t.http.get('/api/telemetry/export', {
        token: admin.token,
        query: { ...q, format: 'xlsx' },
      });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const unit = workbook.getWorksheet('telemetry')!.getRow(2).getCell(5);
      expect(unit.value).toBe('=1+1');
      expect(unit.type).toBe(ExcelJS.ValueType.String);
      expect(unit.numFmt).toBe('@');
    } finally {
      await save(t, admin.token, `/api/signals/${tree.signalId}`, { ...body, unit: 'kW' });
    }
  });

  it('tells listeners about inserted points only, and retention deletes old raw points but keeps rollups', async () => {
    const heard: { signal_id: number; device_id: number; plant_id: number }[] = [];
    const off = t.ctx.telemetry.onStored((points) => heard.push(...points));
    const now = Date.now();
    await ingest([
      { signal_id: tree.signalId, ts: now - 3000, value: 1 },
      { signal_id: tree.signalId, ts: now - 3000, value: 2 },
    ]);
    await ingest([{ signal_id: tree.signalId, ts: now - 3000, value: 1 }]);
    off();
    expect(heard).toEqual([
      {
        signal_id: tree.signalId,
        ts: now - 3000,
        value: 1,
        device_id: tree.deviceId,
        plant_id: tree.plantId,
      },
    ]);

    const rollupsBefore = await query({
      signal_ids: tree.signalId,
      from: T0,
      to: T0 + DAY,
      resolution: '1h',
    });
    // Past the end of T0's month: PostgreSQL drops whole monthly partitions only (retention-partitions.test.ts).
    const removed = await deleteExpiredRaw({ ...t.ctx, now: () => T0 + 90 * DAY + 25 * DAY });
    if (dialectUnderTest === 'sqlite') expect(removed.rows).toBeGreaterThanOrEqual(440 + 1);
    else expect(removed.partitions).toContain('telemetry_raw_p202611');
    expect(
      (await query({ signal_ids: tree.signalId, from: T0, to: T0 + 6 * HOUR, resolution: 'raw' })).series[0]!
        .points,
    ).toEqual([]);
    expect(await query({ signal_ids: tree.signalId, from: T0, to: T0 + DAY, resolution: '1h' })).toEqual(
      rollupsBefore,
    );
  });
});
