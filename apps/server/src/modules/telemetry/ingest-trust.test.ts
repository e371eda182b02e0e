import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  IngestCountsAnswer,
  LatestValue,
  PointRejection,
  TelemetryAnswer,
  TelemetryIngestAnswer,
} from '@solar/shared';
import { startMqttCollector, type MqttCollector } from '../../collectors/mqtt/mqtt-collector';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { quietLog as quiet, until } from '../../test/collector-helpers';

/**
 * Data that can be trusted: epoch seconds, far-past and future timestamps and out-of-range
 * values are refused the same way over HTTP and over MQTT, counted per device, and nothing of them reaches
 * raw data, latest values or rollups; duplicates are counted, conflicting ones apart from identical ones.
 */

// `npm test` sets TEST_MQTT_URL, empty when no broker answers (the MQTT half is then skipped, and said so).
const BROKER = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const DAY = 86_400_000;

/** A 100 kW inverter with signals of several units, one with bounds of its own and one without any. */
interface Rig {
  deviceId: number;
  plantId: number;
  signals: Record<string, number>;
}

const SIGNALS = [
  { key: 'ac_power', name: 'AC Power', unit: 'kW' },
  { key: 'temperature', name: 'Temperature', unit: '°C' },
  { key: 'total_energy', name: 'Total Energy', unit: 'kWh', is_counter: true },
  { key: 'limited', name: 'Limited', unit: 'x', min_value: 0, max_value: 10 },
  { key: 'status_code', name: 'Status', unit: null },
];

/** Now, minus ten minutes: inside every window. */
const REF = Math.floor((Date.now() - 10 * 60_000) / 1000) * 1000;

/** What every way in must refuse, and why. */
const REFUSED: { what: string; key: string; ts: number; value: number; reason: PointRejection }[] = [
  // The MQTT payload: seconds, once stored at 1970-01-21.
  { what: 'epoch seconds', key: 'ac_power', ts: Math.floor(REF / 1000), value: 10, reason: 'epoch_seconds' },
  { what: 'far past', key: 'ac_power', ts: Date.UTC(2001, 0, 1), value: 10, reason: 'too_old' },
  { what: 'future', key: 'ac_power', ts: REF + 2 * DAY, value: 10, reason: 'future' },
  { what: '−1e308 kW', key: 'ac_power', ts: REF + 1000, value: -1e308, reason: 'out_of_range' },
  { what: 'above 150 % of the rating', key: 'ac_power', ts: REF + 2000, value: 151, reason: 'out_of_range' },
  { what: 'below −5 % of the rating', key: 'ac_power', ts: REF + 3000, value: -6, reason: 'out_of_range' },
  { what: '130 °C', key: 'temperature', ts: REF + 4000, value: 130, reason: 'out_of_range' },
  { what: 'negative energy', key: 'total_energy', ts: REF + 5000, value: -1, reason: 'out_of_range' },
  { what: 'above its own max', key: 'limited', ts: REF + 6000, value: 11, reason: 'out_of_range' },
  {
    what: '−1e308 without bounds',
    key: 'status_code',
    ts: REF + 7000,
    value: -1e308,
    reason: 'out_of_range',
  },
];
/** What every way in must store: one point per signal at REF. */
const GOOD: Record<string, number> = {
  ac_power: 50,
  temperature: 40,
  total_energy: 1000,
  limited: 5,
  status_code: 3,
};

const EXPECTED_COUNTS = { epoch_seconds: 1, too_old: 1, future: 1, out_of_range: 7 };

describe(`data that can be trusted (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;

  async function makeRig(name: string): Promise<Rig> {
    const device = await save(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name,
      type: 'inverter',
      protocol: 'mqtt',
      mqtt_topic: `solar/${name}`,
      rated_power_kw: 100,
    });
    const signals: Record<string, number> = {};
    for (const s of SIGNALS)
      signals[s.key] = (await save(t, admin.token, '/api/signals/0', { device_id: device.id, ...s })).id;
    return { deviceId: device.id, plantId: tree.plantId, signals };
  }

  const countsOf = async (deviceId: number, token = admin.token) => {
    const res = await t.http.get(`/api/devices/${deviceId}/ingest-counts`, { token });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<IngestCountsAnswer>();
    expect(answer.device_id).toBe(deviceId);
    return Object.fromEntries(answer.items.map((i) => [i.reason, i.count]));
  };

  /** Only the good points are anywhere: raw, latest, and every rollup; the charts still answer. */
  async function expectOnlyGood(rig: Rig) {
    const ids = Object.values(rig.signals);
    const raw = await t.ctx.db
      .selectFrom('telemetry_raw')
      .select(['signal_id', 'ts', 'value'])
      .where('signal_id', 'in', ids)
      .execute();
    expect(raw.map((r) => ({ signal_id: r.signal_id, ts: Number(r.ts), value: Number(r.value) }))).toEqual(
      expect.arrayContaining(
        Object.entries(GOOD).map(([key, value]) => ({ signal_id: rig.signals[key], ts: REF, value })),
      ),
    );
    expect(raw).toHaveLength(Object.keys(GOOD).length);

    const latest = await t.http.get('/api/telemetry/latest', {
      token: admin.token,
      query: { device_id: String(rig.deviceId) },
    });
    expect(latest.statusCode, latest.body).toBe(200);
    const items = latest.json<{ items: LatestValue[] }>().items;
    expect(Object.fromEntries(items.map((i) => [i.key, [i.value, i.ts]]))).toEqual(
      Object.fromEntries(Object.entries(GOOD).map(([k, v]) => [k, [v, new Date(REF).toISOString()]])),
    );

    for (const table of ['telemetry_5m', 'telemetry_1h', 'telemetry_1d'] as const) {
      const rows = await t.ctx.db
        .selectFrom(table)
        .select(['signal_id', 'min', 'max', 'sum', 'count'])
        .where('signal_id', 'in', ids)
        .execute();
      expect(rows, table).toHaveLength(Object.keys(GOOD).length);
      for (const r of rows) {
        const value = GOOD[Object.keys(rig.signals).find((k) => rig.signals[k] === r.signal_id)!]!;
        expect([Number(r.min), Number(r.max), Number(r.sum), Number(r.count)], table).toEqual([
          value,
          value,
          value,
          1,
        ]);
      }
    }

    for (const agg of ['sum', 'avg', 'min']) {
      const res = await t.http.get('/api/telemetry', {
        token: admin.token,
        query: {
          signal_ids: ids.join(','),
          from: String(REF - DAY),
          to: String(REF + DAY),
          resolution: '1h',
          agg,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const power = res.json<TelemetryAnswer>().series.find((s) => s.key === 'ac_power')!;
      expect(power.points.map((p) => p[1])).toEqual([50]);
    }
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Trust');
  });
  afterAll(() => t.close());

  describe('over HTTP', () => {
    let rig: Rig;
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

    beforeAll(async () => {
      rig = await makeRig('http-inv');
      const res = await t.http.post(`/api/devices/${rig.deviceId}/ingest-key`, {}, { token: admin.token });
      key = res.json<{ key: string }>().key;
    });

    it('refuses epoch seconds, far past, future and out-of-range points with their reason, and counts them', async () => {
      const answer = await ingest([
        ...REFUSED.map((c) => ({ signal_id: rig.signals[c.key]!, ts: c.ts, value: c.value })),
        ...Object.entries(GOOD).map(([k, value]) => ({ signal_id: rig.signals[k]!, ts: REF, value })),
      ]);
      expect(answer).toEqual({
        stored: Object.keys(GOOD).length,
        duplicates: 0,
        conflicting_duplicates: 0,
        rejected: REFUSED.map((c, index) => ({ index, signal_id: rig.signals[c.key], reason: c.reason })),
      });
      await expectOnlyGood(rig);
      expect(await countsOf(rig.deviceId)).toEqual(EXPECTED_COUNTS);
    });

    it('counts a conflicting duplicate apart from an identical repeat, and keeps the stored value', async () => {
      const id = rig.signals.ac_power!;
      const ts = REF + 60_000;
      expect(await ingest([{ signal_id: id, ts, value: 7 }])).toMatchObject({ stored: 1, duplicates: 0 });
      expect(await ingest([{ signal_id: id, ts, value: 7 }])).toMatchObject({
        stored: 1,
        duplicates: 1,
        conflicting_duplicates: 0,
      });
      expect(await ingest([{ signal_id: id, ts, value: 8 }])).toMatchObject({
        stored: 1,
        duplicates: 1,
        conflicting_duplicates: 1,
      });
      // Twice in one batch, with different values: the first is stored, the second conflicts with it.
      expect(
        await ingest([
          { signal_id: id, ts: ts + 1000, value: 1 },
          { signal_id: id, ts: ts + 1000, value: 2 },
        ]),
      ).toMatchObject({ stored: 2, duplicates: 1, conflicting_duplicates: 1 });
      const stored = await t.ctx.db
        .selectFrom('telemetry_raw')
        .select(['ts', 'value'])
        .where('signal_id', '=', id)
        .where('ts', 'in', [ts, ts + 1000])
        .orderBy('ts')
        .execute();
      expect(stored.map((r) => Number(r.value))).toEqual([7, 1]);
      expect(await countsOf(rig.deviceId)).toEqual({
        ...EXPECTED_COUNTS,
        duplicate_identical: 1,
        duplicate_conflicting: 2,
      });
    });

    it('keeps the counts durably: a flush writes them to device_ingest_counts', async () => {
      await t.ctx.ingestCounts.flush();
      const rows = await t.ctx.db
        .selectFrom('device_ingest_counts')
        .select(['reason', 'count', 'last_at'])
        .where('device_id', '=', rig.deviceId)
        .execute();
      expect(Object.fromEntries(rows.map((r) => [r.reason, Number(r.count)]))).toEqual({
        ...EXPECTED_COUNTS,
        duplicate_identical: 1,
        duplicate_conflicting: 2,
      });
      for (const r of rows) expect(Math.abs(Number(r.last_at) - Date.now())).toBeLessThan(60_000);
      // Counted again after the flush: stored and pending add up.
      await ingest([{ signal_id: rig.signals.ac_power!, ts: Math.floor(REF / 1000), value: 1 }]);
      expect((await countsOf(rig.deviceId)).epoch_seconds).toBe(2);
      await t.ctx.ingestCounts.flush();
      expect((await countsOf(rig.deviceId)).epoch_seconds).toBe(2);
    });

    it('drops the counts of a device deleted before the flush, and still writes the others', async () => {
      t.ctx.ingestCounts.add(999_999, 'future', 3);
      await ingest([{ signal_id: rig.signals.ac_power!, ts: REF + 3 * DAY, value: 1 }]);
      await t.ctx.ingestCounts.flush();
      const row = await t.ctx.db
        .selectFrom('device_ingest_counts')
        .select('count')
        .where('device_id', '=', rig.deviceId)
        .where('reason', '=', 'future')
        .executeTakeFirstOrThrow();
      expect(Number(row.count)).toBe(2);
      const orphans = await t.ctx.db
        .selectFrom('device_ingest_counts')
        .select('device_id')
        .where('device_id', '=', 999_999)
        .execute();
      expect(orphans).toEqual([]);
    });

    it('answers a chart with null, not 500, for a bucket whose sum overflowed before bounds existed', async () => {
      const id = rig.signals.status_code!;
      const hour = REF - 5 * 3_600_000 - ((REF - 5 * 3_600_000) % 3_600_000);
      await t.ctx.db
        .insertInto('telemetry_1h')
        .values({
          signal_id: id,
          bucket: hour,
          min: -1e308,
          max: -1e308,
          sum: Number.NEGATIVE_INFINITY,
          count: 2,
          first: -1e308,
          first_ts: hour,
          last: -1e308,
          last_ts: hour + 1000,
          delta: null,
        })
        .execute();
      for (const agg of ['sum', 'avg', 'min']) {
        const res = await t.http.get('/api/telemetry', {
          token: admin.token,
          query: {
            signal_ids: String(id),
            from: String(hour),
            to: String(hour + 3_600_000),
            resolution: '1h',
            agg,
          },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<TelemetryAnswer>().series[0]!.points).toEqual([
          [hour, agg === 'min' ? -1e308 : null],
        ]);
      }
    });

    it('answers the counts only to those who reach the device: 401, 403, 404', async () => {
      expect((await t.http.get(`/api/devices/${rig.deviceId}/ingest-counts`)).statusCode).toBe(401);
      const nobody = await makeUser(t, { permissions: pairs(['plant'], ['view']) });
      const refused = await t.http.get(`/api/devices/${rig.deviceId}/ingest-counts`, { token: nobody.token });
      expect(refused.statusCode).toBe(403);
      const other = await makeTree(t, admin.token, 'TrustOther');
      const stranger = await makeUser(t, {
        companyId: other.companyId,
        permissions: pairs(['device_management'], ['view']),
      });
      const hidden = await t.http.get(`/api/devices/${rig.deviceId}/ingest-counts`, {
        token: stranger.token,
      });
      expect(hidden.statusCode).toBe(404);
      expect((await t.http.get('/api/devices/999999/ingest-counts', { token: admin.token })).statusCode).toBe(
        404,
      );
      // The signals page's permission is enough, and a device without refusals has no items.
      const signalsViewer = await makeUser(t, {
        companyId: other.companyId,
        permissions: pairs(['device_signals'], ['view']),
      });
      expect(await countsOf(other.deviceId, signalsViewer.token)).toEqual({});
    });
  });

  describe.skipIf(BROKER === '')('over MQTT', () => {
    let rig: Rig;
    let publisher: MqttClient;
    let collector: MqttCollector;
    // One broker serves every test run at once: each run has its own topic root.
    const root = `t${randomBytes(4).toString('hex')}`;
    const publish = (ts: number, values: Record<string, number>) =>
      publisher.publishAsync(
        `${root}/${rig.plantId}/${rig.deviceId}/telemetry`,
        JSON.stringify({ ts, values }),
        {
          qos: 1,
        },
      );

    beforeAll(async () => {
      rig = await makeRig('mqtt-inv');
      publisher = await mqtt.connectAsync(BROKER, {
        clientId: `t-${randomBytes(6).toString('hex')}`,
        clean: true,
      });
      collector = startMqttCollector(t.ctx, quiet, {
        url: BROKER,
        clientId: `t-${randomBytes(6).toString('hex')}`,
        topicRoot: root,
        // One connection: the duplicate test below relies on the order of publication, which several
        // connections of a shared subscription do not keep.
        connections: 1,
      });
      await collector.ready();
    });
    afterAll(async () => {
      await collector?.stop();
      await publisher?.endAsync();
    });

    it('refuses the same points for the same reasons as HTTP, and counts them per device', async () => {
      for (const c of REFUSED) await publish(c.ts, { [c.key]: c.value });
      await publish(REF, GOOD);
      await until(() => collector.stats().received === REFUSED.length + 1);
      await until(() => collector.stats().stored === Object.keys(GOOD).length);
      // Rejections are counted when their message's batch is handled, which need not be before the good
      // message's batch is stored (a PostgreSQL run saw 9 of 10 at that moment).
      await until(() => collector.stats().rejected >= REFUSED.length);
      expect(collector.stats()).toMatchObject({
        received: REFUSED.length + 1,
        stored: Object.keys(GOOD).length,
        rejected: REFUSED.length,
        badMessages: 0,
      });
      await expectOnlyGood(rig);
      expect(await countsOf(rig.deviceId)).toEqual(EXPECTED_COUNTS);
    });

    it('counts a redelivered message as an identical duplicate and a changed value as a conflicting one', async () => {
      const ts = REF + 60_000;
      const before = collector.stats().received;
      await publish(ts, { ac_power: 7 });
      await publish(ts, { ac_power: 7 });
      await publish(ts, { ac_power: 8 });
      await until(() => collector.stats().received === before + 3);
      await until(async () => (await countsOf(rig.deviceId)).duplicate_conflicting === 1);
      expect(await countsOf(rig.deviceId)).toEqual({
        ...EXPECTED_COUNTS,
        duplicate_identical: 1,
        duplicate_conflicting: 1,
      });
      const stored = await t.ctx.db
        .selectFrom('telemetry_raw')
        .select('value')
        .where('signal_id', '=', rig.signals.ac_power!)
        .where('ts', '=', ts)
        .execute();
      expect(stored.map((r) => Number(r.value))).toEqual([7]);
    });
  });
});
