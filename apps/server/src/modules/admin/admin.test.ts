import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminIngestKeyList,
  AuditList,
  CollectionHealthAnswer,
  MapSettingsAnswer,
  PublicSettings,
  SystemInfo,
  SystemSettings,
  SystemSettingsBody,
} from '@solar/shared';
import { buildApp } from '../../app';
import { migrations } from '../../db/migrations';
import { deleteExpiredRaw } from '../../telemetry-store/retention';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import {
  DEMO,
  TestClient,
  createTestApp,
  dialectUnderTest,
  quietConfigIn,
  type TestApp,
} from '../../test/test-app';

const DAY_MS = 86_400_000;

describe(`admin panel (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  /** Holds the admin_panel page but is no administrator, in the company of `treeA`. */
  let pageHolder: TestUser;
  let operator: TestUser;
  let treeA: Tree;
  let treeB: Tree;

  const getSettings = async () => {
    const res = await t.http.get('/api/admin/settings', { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<SystemSettings>();
  };
  const bodyOf = (s: SystemSettings, change: Partial<SystemSettingsBody> = {}): SystemSettingsBody => {
    const { smtp_password_set: _set, updated_at: _at, ...body } = s;
    return { ...body, ...change };
  };
  const saveSettings = async (change: Partial<SystemSettingsBody>) => {
    const res = await t.http.post('/api/admin/settings', bodyOf(await getSettings(), change), {
      token: admin.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<SystemSettings>();
  };

  beforeAll(async () => {
    // No thresholds among the engine's options: the engine reads the settings.
    t = await createTestApp({}, { alarmEngine: { tickMs: 3_600_000 } });
    admin = await makeUser(t, { admin: true });
    treeA = await makeTree(t, admin.token, 'AdmA');
    treeB = await makeTree(t, admin.token, 'AdmB');
    pageHolder = await makeUser(t, { companyId: treeA.companyId, permissions: pairs(['admin_panel']) });
    operator = await makeUser(t, { companyId: treeA.companyId, permissions: pairs(['map', 'alarm']) });
  });
  afterAll(() => t.close());

  describe('settings', () => {
    it('answers the defaults from the environment before any save', async () => {
      const s = await getSettings();
      expect(s).toMatchObject({
        site_name: null,
        default_language: 'tr_TR',
        map_tile_url: t.ctx.config.map.tileUrl,
        raw_retention_days: t.ctx.config.telemetry.rawRetentionDays,
        alarm_digest_interval_s: 30,
        session_lifetime_h: 8,
        remember_lifetime_days: 30,
        irradiance_threshold_wm2: 200,
        no_production_delay_min: 15,
        smtp_host: null,
        smtp_password_set: false,
      });
    });

    it('refuses without sign-in (401), without the page (403) and to a non-administrator (403)', async () => {
      expect((await t.http.get('/api/admin/settings')).statusCode).toBe(401);
      for (const user of [operator, pageHolder]) {
        expect((await t.http.get('/api/admin/settings', { token: user.token })).statusCode).toBe(403);
        const body = bodyOf(await getSettings(), { site_name: 'Nope' });
        expect((await t.http.post('/api/admin/settings', body, { token: user.token })).statusCode).toBe(403);
        expect((await t.http.get('/api/admin/system', { token: user.token })).statusCode).toBe(403);
        expect((await t.http.get('/api/admin/backup', { token: user.token })).statusCode).toBe(403);
        expect((await t.http.get('/api/admin/audit/export', { token: user.token })).statusCode).toBe(403);
        const mail = await t.http.post('/api/admin/settings/test-mail', {}, { token: user.token });
        expect(mail.statusCode).toBe(403);
      }
      expect((await getSettings()).site_name).toBeNull();
    });

    it('validates with the shared schema: 400 with message keys, nothing saved', async () => {
      const s = await getSettings();
      const cases: [Partial<SystemSettingsBody> & Record<string, unknown>, string, string][] = [
        [{ raw_retention_days: 0 }, 'raw_retention_days', 'validation.outOfRange'],
        [{ alarm_digest_interval_s: 5 }, 'alarm_digest_interval_s', 'validation.outOfRange'],
        [{ session_lifetime_h: 1.5 }, 'session_lifetime_h', 'validation.invalidNumber'],
        [{ performance_threshold_pct: 95 }, 'performance_threshold_pct', 'validation.outOfRange'],
        // A host with `;` would break the CSP header of every answer.
        [{ map_tile_url: 'https://a;b.example/{z}/{x}/{y}.png' }, 'map_tile_url', 'validation.invalidUrl'],
        [{ map_tile_url: 'https://tiles.example/{z}/{x}.png' }, 'map_tile_url', 'validation.invalidUrl'],
        [{ default_language: 'fr_FR' as 'tr_TR' }, 'default_language', 'validation.invalidValue'],
        [{ smtp_host: 'mail example' }, 'smtp_host', 'validation.invalidValue'],
      ];
      for (const [change, field, key] of cases) {
        const res = await t.http.post('/api/admin/settings', bodyOf(s, change), { token: admin.token });
        expect(res.statusCode, field).toBe(400);
        expect(res.json<{ errors: Record<string, string[]> }>().errors[field], field).toEqual([key]);
      }
      const unknown = await t.http.post(
        '/api/admin/settings',
        { ...bodyOf(s), extra: 1 },
        { token: admin.token },
      );
      expect(unknown.statusCode).toBe(400);
      expect(await getSettings()).toEqual(s);
    });

    it('saves, audits before and after, and applies at once without a restart', async () => {
      const before = await getSettings();
      const saved = await saveSettings({
        site_name: 'Güneş Konsolu',
        default_language: 'mk_MK',
        map_tile_url: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
        map_tile_attribution: '© Example',
        session_lifetime_h: 2,
      });
      expect(saved).toMatchObject({ site_name: 'Güneş Konsolu', default_language: 'mk_MK' });
      expect(saved.updated_at).not.toBeNull();
      expect(await getSettings()).toEqual(saved);

      // The public call, the map and the CSP of the very next answer follow.
      const pub = await t.http.get('/api/settings/public');
      expect(pub.json<PublicSettings>()).toEqual({
        site_name: 'Güneş Konsolu',
        default_language: 'mk_MK',
        logo_url: null,
      });
      const map = await t.http.get('/api/map/settings', { token: admin.token });
      expect(map.json<MapSettingsAnswer>()).toEqual({
        tile_url: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
        tile_attribution: '© Example',
      });
      const csp = String(map.headers['content-security-policy']);
      expect(csp).toContain("img-src 'self' data: blob: https://*.tiles.example.org;");
      expect(csp).not.toContain('tile.openstreetmap.org');

      // A token signed now lives the new session lifetime.
      const token = await t.http.login(DEMO.admin.email, DEMO.admin.password, '10.9.0.1');
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
        iat: number;
        exp: number;
      };
      expect(claims.exp - claims.iat).toBe(2 * 3600);

      const audit = await t.http.get('/api/audit', {
        token: admin.token,
        query: { entity: 'system_settings', action: 'update' },
      });
      const [row] = audit.json<AuditList>().items;
      expect(row).toMatchObject({
        user_id: admin.id,
        entity: 'system_settings',
        before: { site_name: before.site_name, default_language: 'tr_TR' },
        after: { site_name: 'Güneş Konsolu', default_language: 'mk_MK' },
      });
    });

    it('the raw-data retention in force is the saved one', async () => {
      const now = Date.now();
      // 100 days back lies in a whole month before the cutoff, which PostgreSQL drops as a partition.
      const points = [100, 10].map((ageDays) => ({
        signal_id: treeA.signalId,
        ts: now - ageDays * DAY_MS,
        value: ageDays,
      }));
      await t.ctx.telemetry.store(points);
      await saveSettings({ raw_retention_days: 30 });
      const removed = await deleteExpiredRaw(t.ctx);
      expect(removed.rows + removed.partitions.length).toBeGreaterThan(0);
      const left = await t.ctx.db
        .selectFrom('telemetry_raw')
        .select('value')
        .where('signal_id', '=', treeA.signalId)
        .execute();
      expect(left.map((r) => r.value)).toEqual([10]);
      await saveSettings({ raw_retention_days: 90 });
    });

    it('the alarm engine judges with the saved thresholds from its next tick', async () => {
      const tree = await makeTree(t, admin.token, 'AdmEngine');
      const ws = await save(t, admin.token, '/api/devices/0', {
        plant_id: tree.plantId,
        name: 'AdmEngine WS',
        type: 'weather_station',
        protocol: 'http',
      });
      const irr = await save(t, admin.token, '/api/signals/0', {
        device_id: ws.id,
        key: 'irradiance',
        name: 'G',
      });
      const engine = t.ctx.alarmEngine;
      await engine.reloadRules();
      const step = async (ts: number) => {
        await t.ctx.telemetry.store([
          { signal_id: irr.id, ts, value: 600 },
          { signal_id: tree.signalId, ts, value: 0 },
        ]);
        await engine.idle();
        await engine.tick(ts);
        await engine.idle();
      };
      const noProduction = async () =>
        (
          await t.ctx.db
            .selectFrom('alarms')
            .select('id')
            .where('plant_id', '=', tree.plantId)
            .where('source', '=', 'plant_no_production')
            .execute()
        ).length;
      await saveSettings({ irradiance_threshold_wm2: 700, no_production_delay_min: 1 });
      const t0 = Date.now() - 10 * 60_000;
      // 600 W/m² is below the saved 700: no daylight for this rule, however long it lasts.
      for (const s of [0, 30, 61, 120]) await step(t0 + s * 1000);
      expect(await noProduction()).toBe(0);
      await saveSettings({ irradiance_threshold_wm2: 500 });
      const t1 = t0 + 180_000;
      await step(t1);
      await step(t1 + 61_000);
      expect(await noProduction()).toBe(1);
      await saveSettings({ irradiance_threshold_wm2: 200, no_production_delay_min: 15 });
    });

    it('keeps the SMTP password write-only: never answered, never audited, kept unless replaced', async () => {
      let s = await saveSettings({
        smtp_host: 'smtp.example.org',
        smtp_user: 'u',
        smtp_password: 'Sekret-1',
      });
      expect(s.smtp_password_set).toBe(true);
      expect(JSON.stringify(s)).not.toContain('Sekret-1');
      s = await saveSettings({ smtp_port: 2525 });
      expect(s).toMatchObject({ smtp_password_set: true, smtp_port: 2525 });
      expect(t.ctx.settings.current().smtp_password).toBe('Sekret-1');
      const log = await t.http.get('/api/audit', {
        token: admin.token,
        query: { entity: 'system_settings' },
      });
      expect(log.body).not.toContain('Sekret-1');
      s = await saveSettings({ smtp_password: '', smtp_host: null, smtp_user: null });
      expect(s.smtp_password_set).toBe(false);
    });

    it('sends a test mail through the settings in force: the outbox here, 502 from a dead SMTP server', async () => {
      const before = t.outbox().length;
      const res = await t.http.post(
        '/api/admin/settings/test-mail',
        { to: 'ops@example.org' },
        {
          token: admin.token,
        },
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ sent_to: 'ops@example.org', transport: 'outbox' });
      const mail = t.outbox().slice(before);
      expect(mail).toHaveLength(1);
      expect(mail[0]).toMatch(/^To: ops@example\.org$/m);
      expect(mail[0]).toMatch(/^From: Solar Console <no-reply@localhost>$/m);

      const bad = await t.http.post(
        '/api/admin/settings/test-mail',
        { to: 'not-an-email' },
        {
          token: admin.token,
        },
      );
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ errors: { to: ['validation.invalidEmail'] } });

      // Port 9 (discard) on the loopback: nothing listens, the connection is refused at once.
      await saveSettings({ smtp_host: '127.0.0.1', smtp_port: 9 });
      const dead = await t.http.post('/api/admin/settings/test-mail', {}, { token: admin.token });
      expect(dead.statusCode).toBe(502);
      expect(dead.json()).toMatchObject({ detail: 'errors.mailFailed' });
      await saveSettings({ smtp_host: null, smtp_port: 587 });
    });
  });

  describe('audit log', () => {
    it('filters by action and exports CSV with a BOM and formula-injection guard', async () => {
      await t.ctx.db
        .updateTable('users')
        .set({ name: '=HYPERLINK("x")' })
        .where('id', '=', admin.id)
        .execute();
      await save(t, admin.token, '/api/companies/0', { name: '@SUM(A1), "quoted"' });
      const created = await t.http.get('/api/audit', {
        token: admin.token,
        query: { action: 'create', entity: 'company' },
      });
      const list = created.json<AuditList>();
      expect(list.items.every((i) => i.action === 'create' && i.entity === 'company')).toBe(true);
      expect(list.total).toBeGreaterThanOrEqual(3);

      const res = await t.http.get('/api/admin/audit/export', {
        token: admin.token,
        query: { action: 'create', entity: 'company' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const bytes = res.rawPayload;
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = res.body.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toBe('at_utc,user_id,user_name,action,entity,entity_id,ip,before,after');
      expect(lines).toHaveLength(list.total + 2); // header, rows, and the final CRLF
      const newest = lines[1]!;
      // The user name starts with `=`: prefixed, and quoted for its own quotes.
      expect(newest).toContain(`,"'=HYPERLINK(""x"") `);
      expect(newest).toContain(',create,company,');
      expect(newest).toContain('""name"":""@SUM(A1), \\""quoted\\""""');

      const bad = await t.http.get('/api/admin/audit/export', { token: admin.token, query: { from: 'x' } });
      expect(bad.statusCode).toBe(400);
      await t.ctx.db.updateTable('users').set({ name: 'Test' }).where('id', '=', admin.id).execute();
    });
  });

  describe('data collection health', () => {
    it('per device: last seen, points in the last hour, communication, refusals; problems first; scoped', async () => {
      const now = Date.now();
      const res = await t.http.post(
        '/api/telemetry',
        {
          points: [
            { signal_id: treeA.signalId, ts: now - 20_000, value: 1 },
            { signal_id: treeA.signalId, ts: now - 10_000, value: 2 },
            { signal_id: treeA.signalId, ts: now - 2 * 3_600_000, value: 3 },
            // Epoch seconds: refused and counted.
            { signal_id: treeA.signalId, ts: Math.floor(now / 1000), value: 4 },
          ],
        },
        { token: admin.token },
      );
      expect(res.statusCode, res.body).toBeLessThan(300);
      // A device of B that sends in time and is refused nothing: not a problem.
      await t.ctx.telemetry.store([{ signal_id: treeB.signalId, ts: now - 5_000, value: 5 }]);

      const health = await t.http.get('/api/admin/collection-health', { token: admin.token });
      expect(health.statusCode, health.body).toBe(200);
      const { items } = health.json<CollectionHealthAnswer>();
      const a = items.find((i) => i.device_id === treeA.deviceId)!;
      const b = items.find((i) => i.device_id === treeB.deviceId)!;
      expect(a).toMatchObject({
        plant_id: treeA.plantId,
        communication: 'online',
        points_last_hour: 2,
        last_seen_at: new Date(now - 10_000).toISOString(),
        rejected: [{ reason: 'epoch_seconds', count: 1 }],
        rejected_total: 1,
        has_problem: true,
      });
      expect(b).toMatchObject({ communication: 'online', points_last_hour: 1, has_problem: false });
      const firstFine = items.findIndex((i) => !i.has_problem);
      expect(items.slice(firstFine).every((i) => !i.has_problem)).toBe(true);
      expect(items.indexOf(a)).toBeLessThan(firstFine);

      // The page holder of company A sees A's devices only; without the page: 403.
      const scoped = await t.http.get('/api/admin/collection-health', { token: pageHolder.token });
      expect(scoped.statusCode).toBe(200);
      const mine = scoped.json<CollectionHealthAnswer>().items;
      expect(mine.map((i) => i.device_id)).toEqual([treeA.deviceId]);
      const refused = await t.http.get('/api/admin/collection-health', { token: operator.token });
      expect(refused.statusCode).toBe(403);
    });
  });

  describe('ingest keys', () => {
    it('lists the live keys of the fleet with prefix, owner, created and last used; revokes, scoped', async () => {
      const created = await save<{ key: string; prefix: string }>(
        t,
        admin.token,
        `/api/devices/${treeA.deviceId}/ingest-key`,
        {},
      );
      const plantKey = await save<{ key: string; prefix: string }>(
        t,
        admin.token,
        `/api/plants/${treeB.plantId}/ingest-key`,
        {},
      );
      const used = await t.http.post(
        '/api/telemetry',
        { points: [{ signal_id: treeA.signalId, ts: Date.now() - 1000, value: 7 }] },
        { headers: { 'x-api-key': created.key }, xsrf: false },
      );
      expect(used.statusCode, used.body).toBeLessThan(300);

      const list = (
        await t.http.get('/api/admin/ingest-keys', { token: admin.token })
      ).json<AdminIngestKeyList>();
      const a = list.items.find((k) => k.prefix === created.prefix)!;
      expect(a).toMatchObject({
        owner: 'device',
        device_id: treeA.deviceId,
        device_name: 'AdmA INV-01',
        plant_id: treeA.plantId,
        plant_name: 'AdmA Plant',
      });
      expect(a.last_used_at).not.toBeNull();
      expect(JSON.stringify(list)).not.toContain(created.key);
      const b = list.items.find((k) => k.prefix === plantKey.prefix)!;
      expect(b).toMatchObject({
        owner: 'plant',
        device_id: null,
        plant_id: treeB.plantId,
        last_used_at: null,
      });

      // Company A's page holder sees A's key only, and cannot revoke B's (404: not revealed).
      const scoped = (
        await t.http.get('/api/admin/ingest-keys', { token: pageHolder.token })
      ).json<AdminIngestKeyList>();
      expect(scoped.items.map((k) => k.id)).toEqual([a.id]);
      expect(
        (await t.http.delete(`/api/admin/ingest-keys/${b.id}`, { token: pageHolder.token })).statusCode,
      ).toBe(404);
      expect(
        (await t.http.delete(`/api/admin/ingest-keys/${a.id}`, { token: operator.token })).statusCode,
      ).toBe(403);
      expect((await t.http.delete('/api/admin/ingest-keys/abc', { token: admin.token })).statusCode).toBe(
        400,
      );

      expect(
        (await t.http.delete(`/api/admin/ingest-keys/${a.id}`, { token: pageHolder.token })).statusCode,
      ).toBe(204);
      expect((await t.http.delete(`/api/admin/ingest-keys/${a.id}`, { token: admin.token })).statusCode).toBe(
        404,
      );
      const refused = await t.http.post(
        '/api/telemetry',
        { points: [{ signal_id: treeA.signalId, ts: Date.now(), value: 8 }] },
        { headers: { 'x-api-key': created.key }, xsrf: false },
      );
      expect(refused.statusCode).toBe(401);
      const after = (
        await t.http.get('/api/admin/ingest-keys', { token: admin.token })
      ).json<AdminIngestKeyList>();
      expect(after.items.some((k) => k.id === a.id)).toBe(false);
      const audit = await t.http.get('/api/audit', {
        token: admin.token,
        query: { action: 'revoke', entity: 'device_ingest_key', user_id: String(pageHolder.id) },
      });
      expect(audit.json<AuditList>().items[0]).toMatchObject({
        entity_id: treeA.deviceId,
        before: { prefix: created.prefix },
      });
    });
  });

  describe('system and backup', () => {
    it('answers the version, every migration applied, and the backup way of the dialect', async () => {
      const res = await t.http.get('/api/admin/system', { token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
      const info = res.json<SystemInfo>();
      expect(info.dialect).toBe(dialectUnderTest);
      expect(info.pending).toEqual([]);
      expect(info.migrations.at(-1)).toMatchObject({ name: Object.keys(migrations).sort().at(-1) });
      expect(info.migrations.every((m) => m.applied_at !== null)).toBe(true);
      if (dialectUnderTest === 'postgres') {
        expect(info.backup).toEqual({
          kind: 'pg_dump',
          command: expect.stringMatching(
            /^pg_dump --format=custom .*--schema=t_[0-9a-f]+ .*"\$DATABASE_URL"$/,
          ),
        });
        expect(JSON.stringify(info)).not.toContain('postgres://');
        const backup = await t.http.get('/api/admin/backup', { token: admin.token });
        expect(backup.statusCode).toBe(409);
        expect(backup.json()).toMatchObject({ detail: 'errors.backupPgDump' });
      } else {
        expect(info.backup).toMatchObject({ kind: 'sqlite_download' });
      }
    });

    it.skipIf(dialectUnderTest !== 'sqlite')(
      'SQLite: the downloaded backup restores as docs/operations-backup.md says, with the data in it',
      async () => {
        const marker = `Backup Co ${randomBytes(3).toString('hex')}`;
        await save(t, admin.token, '/api/companies/0', { name: marker });
        const res = await t.http.get('/api/admin/backup', { token: admin.token });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/vnd.sqlite3');
        expect(res.headers['content-disposition']).toMatch(/^attachment; filename="solar-.*\.db"$/);
        expect(res.rawPayload.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');

        // The procedure: stop, put the file in DATA_DIR as solar.db, start.
        const dataDir = mkdtempSync(path.join(tmpdir(), 'solar-restore-'));
        writeFileSync(path.join(dataDir, 'solar.db'), res.rawPayload);
        const config = quietConfigIn(dataDir);
        const restored = await buildApp(config);
        await restored.app.ready();
        try {
          const http = new TestClient(restored.app);
          const token = await http.login(DEMO.admin.email, DEMO.admin.password);
          const companies = await http.get('/api/companies', { token, query: { q: marker } });
          expect(companies.json<{ items: { name: string }[] }>().items.map((c) => c.name)).toEqual([marker]);
          // The settings saved before the backup are in it too.
          const pub = await http.get('/api/settings/public');
          expect(pub.json<PublicSettings>().site_name).toBe('Güneş Konsolu');
        } finally {
          await restored.app.close();
        }
      },
    );
  });
});
