import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LatestValue } from '@solar/shared';
import { createVirtualPlant, startMqttPublisher } from '@solar/simulator';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import type { CollectorContext } from '../collector-context';
import { startMqttCollector, type MqttCollector } from './mqtt-collector';
import { quietLog as quiet, until } from '../../test/collector-helpers';

// `npm test` sets TEST_MQTT_URL, empty when no broker answers (these tests are then skipped, and said so).
const BROKER = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

describe.skipIf(BROKER === '')(`MQTT collector (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let energyId: number;
  let inactiveId: number;
  let publisher: MqttClient;
  // One broker serves every test run at once: each run has its own topic root.
  const root = `t${randomBytes(4).toString('hex')}`;
  const topic = () => `${root}/${tree.plantId}/${tree.deviceId}/telemetry`;
  const rawCount = async () => {
    const row = await t.ctx.db
      .selectFrom('telemetry_raw')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('signal_id', 'in', [tree.signalId, energyId])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const ctxOf = (): CollectorContext => t.ctx;
  const clientId = () => `t-${randomBytes(6).toString('hex')}`;
  /**
   * A collector of this run: its own share group (a group's members that went away keep getting their
   * share while their sessions live, so a later collector of another id would see only part of it) and
   * sessions that end soon after the test (the machine's broker serves every run).
   */
  const start = (ctx: CollectorContext = ctxOf(), id = clientId()) =>
    startMqttCollector(ctx, quiet, {
      url: BROKER,
      clientId: id,
      shareGroup: id,
      connections: 4,
      sessionExpiryS: 300,
      topicRoot: root,
    });
  const publish = (body: unknown, to = topic()) =>
    publisher.publishAsync(to, typeof body === 'string' ? body : JSON.stringify(body), { qos: 1 });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Mqtt');
    energyId = (
      await save(t, admin.token, '/api/signals/0', {
        device_id: tree.deviceId,
        key: 'total_energy',
        name: 'Total Energy',
        unit: 'kWh',
        is_counter: true,
      })
    ).id;
    inactiveId = (
      await save(t, admin.token, '/api/signals/0', {
        device_id: tree.deviceId,
        key: 'retired',
        name: 'Retired',
        is_active: false,
      })
    ).id;
    publisher = await mqtt.connectAsync(BROKER, { clientId: clientId(), clean: true });
  });
  afterAll(async () => {
    await publisher?.endAsync();
    await t.close();
  });

  it('stores what devices publish, visible as the latest values', async () => {
    const collector = start();
    try {
      await collector.ready();
      const ts = Date.now() - 60_000;
      await publish({ ts, values: { ac_power: 51.2, total_energy: 1234.5 } });
      await publish({
        ts: new Date(ts + 1000).toISOString().replace('Z', '+00:00'),
        values: { ac_power: 52 },
      });
      await until(() => collector.stats().stored === 3);
      const res = await t.http.get('/api/telemetry/latest', {
        token: admin.token,
        query: { device_id: String(tree.deviceId) },
      });
      expect(res.statusCode, res.body).toBe(200);
      const latest = res.json<{ items: LatestValue[] }>().items;
      expect(latest.find((v) => v.key === 'ac_power')).toMatchObject({
        value: 52,
        ts: new Date(ts + 1000).toISOString(),
      });
      expect(latest.find((v) => v.key === 'total_energy')).toMatchObject({ value: 1234.5 });
      expect(collector.stats()).toMatchObject({
        received: 2,
        stored: 3,
        duplicates: 0,
        rejected: 0,
        badMessages: 0,
      });
    } finally {
      await collector.stop();
    }
  });

  it('counts bad messages and refused values without stopping', async () => {
    const collector = start();
    try {
      await collector.ready();
      const ts = Date.now() - 30_000;
      const other = await makeTree(t, admin.token, 'MqttOther');
      await publish('{not json');
      await publish({ values: { ac_power: 1 } }); // no ts
      await publish({ ts: '2026-01-01T00:00:00', values: { ac_power: 1 } }); // no zone
      await publish({ ts, values: { ac_power: 1 } }, `${root}/${tree.plantId}/999999/telemetry`); // no device
      await publish({ ts, values: { ac_power: 1 } }, `${root}/${other.plantId}/${tree.deviceId}/telemetry`); // wrong plant
      await publish({ ts, values: { ac_power: 1 } }, `${root}/x/${tree.deviceId}/telemetry`); // bad topic
      await publish({ ts: Date.now() + 3_600_000, values: { ac_power: 1, total_energy: 2 } }); // future: 2 refused
      // 1e999 parses as Infinity: refused as not finite, like the string and the null.
      await publish(
        `{"ts":${ts},"values":{"nope":1,"retired":2,"ac_power":"x","total_energy":1e999,"other":null}}`,
      );
      await publish({ ts, values: { ac_power: 7, nope: 1 } }); // one stored, one refused
      await until(() => collector.stats().received === 9);
      await until(() => collector.stats().stored === 1);
      expect(collector.stats()).toMatchObject({
        received: 9,
        stored: 1,
        rejected: 2 + 5 + 1,
        badMessages: 6,
      });
      // A key added while running is found on the next message (the cache refreshes on a miss).
      await save(t, admin.token, '/api/signals/0', {
        device_id: tree.deviceId,
        key: 'fresh_key',
        name: 'Fresh',
      });
      await new Promise((r) => setTimeout(r, 1100));
      await publish({ ts, values: { fresh_key: 3 } });
      await until(() => collector.stats().stored === 2);
      expect(inactiveId).toBeGreaterThan(0);
    } finally {
      await collector.stop();
    }
  });

  it('loses nothing published while it was down (persistent session, QoS 1)', async () => {
    const id = clientId();
    const first = start(ctxOf(), id);
    await first.ready();
    await first.stop();
    const before = await rawCount();
    const base = Date.now() - 10 * 60_000;
    const n = 300;
    for (let i = 0; i < n; i++)
      await publish({ ts: base + i * 1000, values: { ac_power: i, total_energy: i } });
    const second = start(ctxOf(), id);
    try {
      // Generous: the machine the suite runs on may be busy; the count below is exact.
      await until(() => second.stats().stored >= 2 * n, 60_000);
      expect(await rawCount()).toBe(before + 2 * n);
    } finally {
      await second.stop();
    }
  }, 90_000);

  it('acknowledges only stored messages: one that could not be stored comes again next session', async () => {
    const id = clientId();
    // The database is down: every store fails, the collector retries until it is stopped.
    let attempts = 0;
    const failing: CollectorContext = {
      ...t.ctx,
      telemetry: {
        store: () => {
          attempts++;
          return Promise.reject(new Error('database down'));
        },
        onStored: () => () => undefined,
      },
    };
    const first = start(failing, id);
    await first.ready();
    const ts = Date.now() - 5 * 60_000 + 123;
    await publish({ ts, values: { ac_power: 99 } });
    await until(() => attempts >= 2);
    await first.stop();
    expect(first.stats().stored).toBe(0);
    const second = start(ctxOf(), id);
    try {
      await until(() => second.stats().stored === 1, 15_000);
      const row = await t.ctx.db
        .selectFrom('telemetry_raw' as never)
        .selectAll()
        .where('signal_id' as never, '=', tree.signalId as never)
        .where('ts' as never, '=', ts as never)
        .executeTakeFirst();
      expect(row).toBeDefined();
    } finally {
      await second.stop();
    }
  });

  it('a crash between commit and acknowledge loses nothing and stores nothing twice; the redelivery counts as duplicates', async () => {
    const id = clientId();
    const duplicatesOf = async () => {
      const res = await t.http.get(`/api/devices/${tree.deviceId}/ingest-counts`, { token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
      const items = res.json<{ items: { reason: string; count: number }[] }>().items;
      return items.find((i) => i.reason === 'duplicate_identical')?.count ?? 0;
    };
    // The process "dies" right after its first commit: the batch is in the database, no PUBACK went out,
    // and nothing after it is stored.
    const crashed: { first?: MqttCollector } = {};
    let committedByFirst = 0;
    const crashing: CollectorContext = {
      ...t.ctx,
      telemetry: {
        store: async (points) => {
          if (committedByFirst) throw new Error('the process is gone');
          const result = await t.ctx.telemetry.store(points);
          committedByFirst = result.inserted + result.duplicates;
          await crashed.first!.abort();
          return result;
        },
        onStored: (listener) => t.ctx.telemetry.onStored(listener),
      },
    };
    const first = (crashed.first = start(crashing, id));
    await first.ready();
    const before = await rawCount();
    const duplicatesBefore = await duplicatesOf();
    const base = Date.now() - 20 * 60_000;
    const n = 40;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        publish({ ts: base + i * 1000, values: { ac_power: i, total_energy: i } }),
      ),
    );
    await until(() => committedByFirst > 0);
    expect(await rawCount()).toBe(before + committedByFirst);

    const second = start(ctxOf(), id);
    try {
      await until(async () => (await rawCount()) === before + 2 * n, 20_000);
      // Every committed message comes again (none was acknowledged): duplicates, not new rows.
      await until(() => second.stats().duplicates === committedByFirst, 20_000);
      expect(second.stats().stored - second.stats().duplicates).toBe(2 * n - committedByFirst);
      expect(await rawCount()).toBe(before + 2 * n);
      expect(await duplicatesOf()).toBe(duplicatesBefore + committedByFirst);
    } finally {
      await second.stop();
    }
  });

  it('stores what the simulator publishes, with the values of its physics', async () => {
    const collector = start();
    const plant = createVirtualPlant(
      {
        plantId: tree.plantId,
        timeZone: 'Europe/Istanbul',
        latitude: 37.9,
        longitude: 32.5,
        tiltDeg: 25,
        azimuthDeg: 180,
        dcCapacityKwp: 120,
        devices: [
          {
            deviceId: tree.deviceId,
            type: 'inverter',
            ratedPowerKw: 100,
            signals: [
              { signalId: tree.signalId, key: 'ac_power' },
              { signalId: energyId, key: 'total_energy' },
            ],
            initialTotalEnergyKwh: 5000,
          },
        ],
      },
      { seed: 7, faults: false, clouds: false },
    );
    // Newer than what the other tests stored, and not in the future.
    let now = Date.now() - 5_000;
    const publisher = await startMqttPublisher({
      url: BROKER,
      plants: [plant],
      intervalMs: 3_600_000,
      clock: () => now,
      topicPrefix: root,
      mqttOptions: { clientId: clientId() },
    });
    try {
      await collector.ready();
      const before = collector.stats().stored;
      expect(await publisher.publishOnce()).toBe(1);
      now += 1000;
      expect(await publisher.publishOnce()).toBe(1);
      // At least both rounds. QoS 1 is at-least-once: a redelivered first round counts in `stored` too
      // (as duplicates), so the count alone could be reached before the second round is in.
      await until(() => collector.stats().stored >= before + 4);
      const readLatest = async () =>
        (
          await t.http.get('/api/telemetry/latest', {
            token: admin.token,
            query: { device_id: String(tree.deviceId) },
          })
        ).json<{ items: LatestValue[] }>().items;
      await until(async () =>
        (await readLatest()).some((v) => v.key === 'ac_power' && v.ts === new Date(now).toISOString()),
      );
      const latest = await readLatest();
      const power = latest.find((v) => v.key === 'ac_power')!;
      const energy = latest.find((v) => v.key === 'total_energy')!;
      expect(power.ts).toBe(new Date(now).toISOString());
      expect(power.value).toBeGreaterThanOrEqual(0);
      expect(power.value).toBeLessThanOrEqual(100);
      expect(energy.value).toBeGreaterThanOrEqual(5000);
    } finally {
      await publisher.stop();
      await collector.stop();
    }
  });
});
