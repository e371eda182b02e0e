import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTER_TEMPLATES } from '@solar/shared';
import { encodePng } from '@solar/simulator';
import { ContractChecker, type OpenApiDocument } from '../test/openapi-contract';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';

/**
 * The real answers of every GET route, checked against what /api/docs/json promises for that route, status
 * and media type. Other tools (client generators, gateways, contract tests of API users) trust the
 * document; an answer that does not match it breaks them even when our own console copes.
 */
describe(`OpenAPI contract (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let nobody: TestUser;
  let tree: Tree;
  let checker: ContractChecker;
  const violations: string[] = [];
  const covered = new Set<string>();
  let checked = 0;

  /** Holds one answer of `GET path` against the document; records a violation instead of throwing. */
  function check(path: string, res: LightMyRequestResponse) {
    checked += 1;
    const { statusCode, headers, body } = res;
    const violation = checker.check({ method: 'GET', path, statusCode, headers, body });
    if (violation) violations.push(violation);
  }

  /** GET as `token` (admin by default), checks the answer, and answers it for further use. */
  async function get(url: string, path: string, query?: Record<string, string>, token = admin.token) {
    const res = await t.http.get(path, { token, ...(query ? { query } : {}) });
    covered.add(url);
    check(path, res);
    // Only the event stream refuses a plain call; every other call here must be a success to prove anything.
    expect(res.statusCode, `${path}: ${res.body}`).toBe(url === '/api/stream' ? 406 : 200);
    return res;
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    nobody = await makeUser(t, { permissions: [] });
    tree = await makeTree(t, admin.token, 'Contract');
    const res = await t.http.get('/api/docs/json');
    expect(res.statusCode).toBe(200);
    checker = new ContractChecker(res.json<OpenApiDocument>());
  });
  afterAll(() => t.close());

  // One walk over every GET route (about 100 calls, more with each feature): longer than one test's default.
  it('every GET route answers what the document says, for the admin and on refusal', async () => {
    const now = Date.now();
    // Data behind every list, so that item schemas are exercised and not only empty arrays.
    await t.http.post(
      '/api/telemetry',
      {
        points: [
          { signal_id: tree.signalId, ts: now - 120_000, value: 41.5 },
          { signal_id: tree.signalId, ts: now - 60_000, value: 42.5 },
          // Refused (epoch seconds) and counted: the device's ingest counts have an item.
          { signal_id: tree.signalId, ts: Math.floor(now / 1000), value: 1 },
        ],
      },
      { token: admin.token },
    );
    const plantAlarm = await t.ctx.db
      .insertInto('alarms')
      .values({
        plant_id: tree.plantId,
        device_id: tree.deviceId,
        tag_id: tree.signalId,
        source: 'device_status',
        rule_id: null,
        condition_key: 'contract-test',
        active_key: 'contract-test',
        priority_id: 3,
        message: 'alarms.msg.deviceCode',
        // A null parameter as the engine writes for a value it could not read.
        message_params: JSON.stringify({ code: 'E42', value: null, limit: 70 }),
        status_id: 1,
        started_at: now - 30_000,
        cleared_at: null,
        approved_at: null,
        approved_by: null,
        rejected_at: null,
        rejected_by: null,
        fault_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto('alarm_events')
      .values({ alarm_id: plantAlarm.id, kind: 'raised', at: now - 30_000 })
      .execute();
    const fault = await save(t, admin.token, '/api/faults/0', {
      plant_id: tree.plantId,
      device_id: tree.deviceId,
      title: 'Contract fault',
      priority_id: 2,
    });
    await save(t, admin.token, `/api/faults/${fault.id}/comments`, { body: 'Looked at it.' });
    const rule = await save(t, admin.token, '/api/alarms/custom/0', {
      name: 'Contract rule',
      description: null,
      priority_id: 3,
      tag_id: tree.signalId,
      operant: '>',
      value: 70,
      started_at: null,
      end_at: null,
      is_active: true,
    });
    let plantKey = '';
    for (const owner of ['devices', 'plants']) {
      const id = owner === 'devices' ? tree.deviceId : tree.plantId;
      const created = await t.http.post(`/api/${owner}/${id}/ingest-key`, {}, { token: admin.token });
      expect(created.statusCode).toBe(200);
      if (owner === 'plants') plantKey = created.json<{ key: string }>().key;
    }
    // An edge agent's report: the collection health lists it, the configuration answers its key.
    const edgeReport = await t.http.post(
      '/api/edge/health',
      {
        agent_id: 'contract-agent',
        version: '1.0.0',
        sent_at: now + 6_000,
        queue_depth: 1,
        oldest_unsent_at: now - 60_000,
        last_sent_at: null,
        dropped_total: 0,
        poll_failures: 0,
        uptime_s: 60,
      },
      { headers: { 'x-api-key': plantKey } },
    );
    expect(edgeReport.statusCode, edgeReport.body).toBe(200);
    {
      const res = await t.http.get('/api/edge/config', { headers: { 'x-api-key': plantKey } });
      expect(res.statusCode, res.body).toBe(200);
      covered.add('/api/edge/config');
      check('/api/edge/config', res);
    }
    const dashboard = await t.http.post(
      '/api/users/dashboard',
      { data: { widgets: [{ kind: 'energy', plant_id: tree.plantId }] } },
      { token: admin.token },
    );
    expect(dashboard.statusCode, dashboard.body).toBe(200);

    const range = { from: String(now - 3_600_000), to: String(now) };
    const today = new Date(now).toISOString().slice(0, 10);
    const role = await t.ctx.db
      .selectFrom('users')
      .select('role_id')
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();

    await get('/api/health', '/api/health', undefined, '');
    await get('/api/users', '/api/users');
    await get('/api/users/dashboard', '/api/users/dashboard');
    await get('/api/users/:id', `/api/users/${admin.id}`);
    for (const [resource, id] of [
      ['roles', role.role_id],
      ['companies', tree.companyId],
      ['fields', tree.fieldId],
      ['plants', tree.plantId],
      ['devices', tree.deviceId],
      ['signals', tree.signalId],
      ['faults', fault.id],
    ] as const) {
      await get(`/api/${resource}`, `/api/${resource}`);
      await get(`/api/${resource}/:id`, `/api/${resource}/${id}`);
    }
    // The demo organisation's signals, with registers and without (word_order null).
    await get('/api/signals', '/api/signals', { pageSize: '200' });
    await get('/api/sunspec/templates', '/api/sunspec/templates');
    const ownTemplate = await t.http.post(
      '/api/register-templates',
      { ...REGISTER_TEMPLATES['huawei-sun2000'], id: 'contract-copy' },
      { token: admin.token, query: { company_id: String(tree.companyId) } },
    );
    expect(ownTemplate.statusCode, ownTemplate.body).toBe(200);
    await get('/api/register-templates', '/api/register-templates');
    await get(
      '/api/register-templates/:id',
      `/api/register-templates/${ownTemplate.json<{ id: number }>().id}`,
    );
    await get('/api/telemetry', '/api/telemetry', { signal_ids: String(tree.signalId), ...range });
    await get('/api/telemetry', '/api/telemetry', {
      signal_ids: String(tree.signalId),
      ...range,
      resolution: 'raw',
    });
    await get('/api/telemetry/catalog', '/api/telemetry/catalog');
    await get('/api/telemetry/catalog', '/api/telemetry/catalog', { plant_id: String(tree.plantId) });
    await get('/api/telemetry/latest', '/api/telemetry/latest', { plant_id: String(tree.plantId) });
    await get('/api/telemetry/latest', '/api/telemetry/latest', { device_id: String(tree.deviceId) });
    await get('/api/telemetry/energy', '/api/telemetry/energy', {
      plant_id: String(tree.plantId),
      from: today,
      to: today,
    });
    for (const format of ['csv', 'xlsx']) {
      const res = await get('/api/telemetry/export', '/api/telemetry/export', {
        signal_ids: String(tree.signalId),
        ...range,
        format,
      });
      expect(res.statusCode).toBe(200);
    }
    await get('/api/devices/:id/ingest-key', `/api/devices/${tree.deviceId}/ingest-key`);
    await get('/api/devices/:id/ingest-counts', `/api/devices/${tree.deviceId}/ingest-counts`);
    await get('/api/plants/:id/ingest-key', `/api/plants/${tree.plantId}/ingest-key`);
    await get('/api/audit', '/api/audit');
    await get('/api/health/collectors', '/api/health/collectors');
    // A plain call to the event stream is refused (406); its 200 is an endless text/event-stream.
    await get('/api/stream', '/api/stream');
    await get('/api/alarms', '/api/alarms');
    await get('/api/alarms', '/api/alarms', { page: '1', pageSize: '10' });
    await get('/api/alarms/:id/plant', `/api/alarms/${tree.plantId}/plant`);
    await get('/api/alarms/listen', '/api/alarms/listen');
    await get('/api/alarms/substationAlarms', '/api/alarms/substationAlarms');
    await get('/api/alarms/activeCounts', '/api/alarms/activeCounts');
    await get('/api/alarms', '/api/alarms', { active: 'true', page: '1' });
    await get('/api/alarms/custom', '/api/alarms/custom');
    await get('/api/alarms/custom/:id', `/api/alarms/custom/${rule.id}`);
    await get('/api/plants/overview', '/api/plants/overview');
    await get('/api/plants/losses', '/api/plants/losses', { period: 'month' });
    await get('/api/map/settings', '/api/map/settings');
    {
      // A logo stored, so that the public image route answers its bytes (and the settings its URL).
      const logo = encodePng(4, 4, new Uint8Array(4 * 4 * 3).fill(200)).toString('base64');
      const saved = await t.http.post(
        '/api/admin/settings/logo',
        { content_base64: logo },
        { token: admin.token },
      );
      expect(saved.statusCode, saved.body).toBe(200);
    }
    await get('/api/settings/public', '/api/settings/public', undefined, '');
    await get('/api/settings/logo', '/api/settings/logo', undefined, '');
    await get('/api/admin/co2-factors', '/api/admin/co2-factors');
    await get('/api/admin/settings', '/api/admin/settings');
    await get('/api/admin/audit/export', '/api/admin/audit/export', { entity: 'company' });
    await get('/api/admin/collection-health', '/api/admin/collection-health');
    {
      // The tree's day run by the data-quality engine: its gaps make the flags and problems non-empty.
      const day = new Date(now).toISOString().slice(0, 10);
      const rerun = await t.http.post(
        `/api/plants/${tree.plantId}/data-quality/recheck`,
        { day },
        { token: admin.token },
      );
      expect(rerun.statusCode, rerun.body).toBe(200);
      const days = { from: day, to: day };
      await get('/api/plants/:id/data-quality', `/api/plants/${tree.plantId}/data-quality`, days);
      await get('/api/devices/:id/data-quality', `/api/devices/${tree.deviceId}/data-quality`, days);
      await get('/api/data-quality/problems', '/api/data-quality/problems');
    }
    {
      // Three strings with a reading each: the day's series carry numbers beside their nulls.
      const points = [];
      for (let n = 1; n <= 3; n++) {
        const signal = await save(t, admin.token, '/api/signals/0', {
          device_id: tree.deviceId,
          key: `string${n}_dc_current`,
          name: `PV${n}`,
          unit: 'A',
        });
        points.push({ signal_id: signal.id, ts: now - 120_000, value: 8 + n / 10 });
      }
      const stored = await t.http.post('/api/telemetry', { points }, { token: admin.token });
      expect(stored.statusCode, stored.body).toBe(200);
      await get('/api/devices/:id/strings', `/api/devices/${tree.deviceId}/strings`);
    }
    await get('/api/admin/ingest-keys', '/api/admin/ingest-keys');
    await get('/api/admin/system', '/api/admin/system');
    await get('/api/admin/sessions', '/api/admin/sessions');
    {
      // The SQLite backup is bytes; on PostgreSQL the documented 409 (the backup is pg_dump there).
      const res = await t.http.get('/api/admin/backup', { token: admin.token });
      expect(res.statusCode, res.body).toBe(dialectUnderTest === 'sqlite' ? 200 : 409);
      covered.add('/api/admin/backup');
      check('/api/admin/backup', res);
    }
    for (const period of ['day', 'month', 'year']) {
      await get('/api/plants/:id/kpis', `/api/plants/${tree.plantId}/kpis`, { period, date: today });
    }
    await get('/api/plants/:id/power', `/api/plants/${tree.plantId}/power`, { date: today });
    await get('/api/inverters/:id/summary', `/api/inverters/${tree.deviceId}/summary`, { date: today });
    await get('/api/plants/:id/budgets', `/api/plants/${tree.plantId}/budgets`, { year: today.slice(0, 4) });
    await get('/api/plants/:id/performance', `/api/plants/${tree.plantId}/performance`);
    await get('/api/plants/:id/model', `/api/plants/${tree.plantId}/model`);
    {
      // An uploaded history file: its job and the plant's list of imports have an item.
      const csv = 'Zaman;Enerji\n2026-11-01 10:00;1\n2026-11-01 10:05;2\n';
      const upload = await t.http.post(
        `/api/plants/${tree.plantId}/history-imports`,
        { file_name: 'history.csv', format: 'csv', content_base64: Buffer.from(csv).toString('base64') },
        { token: admin.token },
      );
      expect(upload.statusCode, upload.body).toBe(200);
      const job = upload.json<{ id: number }>();
      await get('/api/plants/:id/history-imports', `/api/plants/${tree.plantId}/history-imports`);
      await get('/api/history-imports/:id', `/api/history-imports/${job.id}`);
    }
    for (const type of ['production', 'fleet', 'alarms', 'inverters', 'degradation']) {
      const report = { plant_ids: String(tree.plantId), from: today, to: today };
      await get('/api/reports/:type', `/api/reports/${type}`, report);
      if (type === 'production')
        for (const format of ['xlsx', 'csv', 'pdf'])
          await get('/api/reports/:type', `/api/reports/${type}`, { ...report, format });
    }
    await get('/api/plants/:id/topology', `/api/plants/${tree.plantId}/topology`);
    const schedule = await save(t, admin.token, '/api/report-schedules/0', {
      report_type: 'production',
      plant_ids: [tree.plantId],
      frequency: 'weekly',
      local_time: '07:30',
      weekday: 1,
    });
    // GET reports/{type} as JSON (branch reports), so that every GET route keeps a checked answer.
    await get('/api/reports/:type', '/api/reports/production', { from: today, to: today });
    await get('/api/report-schedules', '/api/report-schedules');
    await get('/api/report-schedules/:id', `/api/report-schedules/${schedule.id}`);
    await get('/api/plants/:id/devices/status', `/api/plants/${tree.plantId}/devices/status`);
    // A camera with no http(s) address: the proxy's documented 409. Its image answers are bytes, checked
    // against a real camera server in cameras.test.ts.
    const camera = await save(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'Contract camera',
      type: 'camera',
      protocol: 'http',
    });
    for (const kind of ['snapshot', 'stream']) {
      const path = `/api/cameras/${camera.id}/${kind}`;
      const res = await t.http.get(path, { token: admin.token });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(409);
      covered.add(`/api/cameras/:id/${kind}`);
      check(path, res);
    }

    // Refusals are answers too: each must be declared with the problem schema and its media type.
    const getRoutes = t.app.accessTable.filter(
      (r) => r.method === 'GET' && r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'),
    );
    for (const route of getRoutes) {
      const path = route.url.replace(/:[A-Za-z_]+/g, String(2_000_000_000));
      const withIds = path !== route.url;
      if (route.access.kind !== 'public') {
        check(path, await t.http.get(path, { query: { signal_ids: '1', ...range } }));
      }
      if (route.access.kind === 'permission') {
        check(path, await t.http.get(path, { token: nobody.token }));
      }
      if (withIds) check(path, await t.http.get(path, { token: admin.token }));
    }
    const invalid = await t.http.get('/api/telemetry', { token: admin.token, query: { signal_ids: 'x' } });
    expect(invalid.statusCode).toBe(400);
    check('/api/telemetry', invalid);

    const missing = getRoutes.map((r) => r.url).filter((url) => !covered.has(url));
    expect(missing, 'GET routes without a checked answer').toEqual([]);
    expect(violations).toEqual([]);
    // Each route's success and at least one refusal were held against the document.
    expect(checked).toBeGreaterThanOrEqual(getRoutes.length * 2);
  }, 120_000);
});
