import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryIngestAnswer } from '@solar/shared';
import { createTestApp, dialectUnderTest, DEMO, type TestApp } from '../test/test-app';

const TOKEN = 'metrics-token-for-the-test-0123456789';

/** The value of one series in an exposition text (labels exactly as written), or undefined. */
function valueOf(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith(series + ' ')) return Number(line.slice(series.length + 1));
  }
  return undefined;
}

describe(`GET /metrics (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: string;

  const scrape = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    t = await createTestApp({ metricsToken: TOKEN });
    admin = await t.http.login(DEMO.admin.email, DEMO.admin.password);
  });
  afterAll(() => t.close());

  it('answers 401 without the token or with a wrong one, and never from cache', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.body).not.toMatch(/solar_/);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(401);
    // A console user's token is no metrics token.
    const user = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(user.statusCode).toBe(401);
    const ok = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `bearer ${TOKEN}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers['cache-control']).toBe('no-store');
  });

  it('carries every figure the operations page promises', async () => {
    t.ctx.metrics.registerLease('alarm-engine', () => true);
    t.ctx.metrics.registerLease('reports', () => false);
    const text = await scrape();
    for (const name of [
      'solar_http_request_duration_seconds',
      'solar_ingest_points_stored_total',
      'solar_ingest_points_rejected_total',
      'solar_alarm_evaluation_duration_seconds',
      'solar_sse_clients',
      'solar_db_pool_connections',
      'solar_lease_held',
      'nodejs_eventloop_lag_seconds',
      'process_resident_memory_bytes',
    ])
      expect(text, name).toContain(`# TYPE ${name} `);
    expect(valueOf(text, 'solar_sse_clients')).toBe(0);
    expect(valueOf(text, 'solar_lease_held{lease="alarm-engine"}')).toBe(1);
    expect(valueOf(text, 'solar_lease_held{lease="reports"}')).toBe(0);
    if (dialectUnderTest === 'postgres') {
      expect(valueOf(text, 'solar_db_pool_connections{state="max"}')).toBe(10);
      expect(valueOf(text, 'solar_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    } else expect(text).not.toMatch(/^solar_db_pool_connections\{/m);
    if (dialectUnderTest === 'sqlite') {
      // The test database is a file with its checkpoint thread (200 ms apart); the sign-in above wrote to
      // the WAL; nothing has grown it past its bound.
      let wal = text;
      for (let tries = 0; !(valueOf(wal, 'solar_sqlite_wal_bytes{state="size"}')! > 0); tries++) {
        expect(tries, 'a checkpoint that found the WAL written').toBeLessThan(50);
        await new Promise((resolve) => setTimeout(resolve, 100));
        wal = await scrape();
      }
      expect(valueOf(wal, 'solar_sqlite_wal_bytes{state="copied"}')).toBeGreaterThanOrEqual(0);
      expect(valueOf(wal, 'solar_sqlite_wal_catch_ups')).toBe(0);
      expect(valueOf(wal, 'solar_sqlite_wal_catch_up_longest_seconds')).toBe(0);
    } else {
      expect(text).not.toMatch(/^solar_sqlite_wal_bytes\{/m);
      expect(valueOf(text, 'solar_sqlite_wal_catch_ups')).toBe(0);
    }
  });

  it('counts a request in its route pattern histogram, not under its raw URL', async () => {
    const plant = await t.ctx.db.selectFrom('plants').select('id').orderBy('id').executeTakeFirstOrThrow();
    const series = (le: string) =>
      `solar_http_request_duration_seconds_bucket{le="${le}",method="GET",route="/api/plants/:id",status="200"}`;
    const countSeries =
      'solar_http_request_duration_seconds_count{method="GET",route="/api/plants/:id",status="200"}';
    const before = await scrape();
    const res = await t.http.get(`/api/plants/${plant.id}`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const after = await scrape();
    expect(valueOf(after, countSeries)).toBe((valueOf(before, countSeries) ?? 0) + 1);
    expect(valueOf(after, series('+Inf'))).toBe((valueOf(before, series('+Inf')) ?? 0) + 1);
    expect(after).not.toContain(`route="/api/plants/${plant.id}"`);
    // A URL no route serves is counted under one label, whatever its path.
    await t.app.inject({ method: 'GET', url: '/api/no-such-thing/123' });
    expect(await scrape()).toMatch(/route="unmatched",status="404"/);
  });

  it('counts stored points and refused points by reason', async () => {
    const signal = await t.ctx.db
      .selectFrom('signals')
      .select('id')
      .where('is_active', '=', 1)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const before = await scrape();
    const now = Date.now();
    const res = await t.http.post(
      '/api/telemetry',
      {
        points: [
          { signal_id: signal.id, ts: now - 1000, value: 1 },
          { signal_id: 999_999, ts: now - 1000, value: 1 },
          { signal_id: signal.id, ts: now + 10 * 60_000, value: 1 },
        ],
      },
      { token: admin },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TelemetryIngestAnswer>().stored).toBe(1);
    const after = await scrape();
    for (const reason of ['unknown_signal', 'future']) {
      const series = `solar_ingest_points_rejected_total{reason="${reason}"}`;
      expect(valueOf(after, series), reason).toBe((valueOf(before, series) ?? 0) + 1);
    }
    expect(valueOf(after, 'solar_ingest_points_stored_total')).toBe(
      (valueOf(before, 'solar_ingest_points_stored_total') ?? 0) + 1,
    );
  });
});

describe(`GET /metrics without METRICS_TOKEN (${dialectUnderTest})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 404, with or without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer anything-at-all-here' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toMatch(/solar_/);
  });
});
