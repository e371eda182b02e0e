import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LOGO_MAX_BYTES,
  type AuditList,
  type Co2FactorItem,
  type Co2FactorList,
  type LogoAnswer,
  type PlantKpisAnswer,
  type PublicSettings,
} from '@solar/shared';
import { encodePng } from '@solar/simulator';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { buildApp } from '../../app';
import {
  TestClient,
  createTestApp,
  dialectUnderTest,
  underSchemaLock,
  type TestApp,
} from '../../test/test-app';

const MIN = 60_000;
const DAY = 86_400_000;

/** A 48 × 24 PNG of one colour: a real image a browser decodes. */
const png = (rgb: [number, number, number] = [245, 166, 35]) =>
  encodePng(
    48,
    24,
    new Uint8Array(48 * 24 * 3).map((_, i) => rgb[i % 3]!),
  );
/** The smallest JPEG shape the check asks for: SOI, an APP0 marker, EOI. */
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 0xff, 0xd9]);
const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64');

describe(`site logo and CO₂ factors (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  /** Holds the admin_panel page with every method, but is no administrator. */
  let pageHolder: TestUser;
  let operator: TestUser;

  const publicSettings = async () => {
    const res = await t.http.get('/api/settings/public');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PublicSettings>();
  };
  const upload = (content: Buffer | string, token = admin.token) =>
    t.http.post('/api/admin/settings/logo', { content_base64: b64(content) }, { token });
  const auditOf = async (entity: string) => {
    const res = await t.http.get('/api/audit', { token: admin.token, query: { entity } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AuditList>().items;
  };

  beforeAll(async () => {
    t = await createTestApp({}, { alarmEngine: { tickMs: 3_600_000 } });
    admin = await makeUser(t, { admin: true });
    const tree = await makeTree(t, admin.token, 'Brand');
    pageHolder = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['admin_panel']) });
    operator = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['map', 'alarm']) });
  });
  afterAll(() => t.close());

  describe('logo', () => {
    it('has none at first: the public settings say so and the public route answers 404', async () => {
      expect((await publicSettings()).logo_url).toBeNull();
      expect((await t.http.get('/api/settings/logo')).statusCode).toBe(404);
    });

    it('refuses without sign-in (401) and without the administrator (403), saving nothing', async () => {
      expect((await t.http.post('/api/admin/settings/logo', { content_base64: b64(png()) })).statusCode).toBe(
        401,
      );
      expect((await t.http.delete('/api/admin/settings/logo')).statusCode).toBe(401);
      for (const user of [operator, pageHolder]) {
        expect((await upload(png(), user.token)).statusCode).toBe(403);
        expect((await t.http.delete('/api/admin/settings/logo', { token: user.token })).statusCode).toBe(403);
      }
      expect((await publicSettings()).logo_url).toBeNull();
    });

    it('refuses what is not a PNG, JPEG or WebP by its bytes, and oversize files, with 400 and a message key', async () => {
      const html = '<html><script>alert(1)</script></html>';
      const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
      // The field says what is wrong; the problem's detail says it of the logo.
      const detailOf: Record<string, string> = {
        'validation.imageType': 'errors.logoType',
        'validation.fileTooLarge': 'errors.logoTooLarge',
      };
      const cases: [string, Buffer | string, string][] = [
        ['svg', svg, 'validation.imageType'],
        ['html', html, 'validation.imageType'],
        ['text', 'just text', 'validation.imageType'],
        // A page with the PNG signature pasted in front: no IHDR, no IEND.
        ['disguised png', Buffer.concat([png().subarray(0, 8), Buffer.from(html)]), 'validation.imageType'],
        // A PNG cut short (no IEND), and a JPEG start with a page after it (no EOI).
        ['truncated png', png().subarray(0, png().length - 12), 'validation.imageType'],
        ['disguised jpeg', Buffer.concat([jpeg.subarray(0, 4), Buffer.from(html)]), 'validation.imageType'],
        ['gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), 'validation.imageType'],
        // One byte over the cap, with a valid PNG's start and end: refused for its size.
        [
          'oversize',
          Buffer.concat([png().subarray(0, 33), Buffer.alloc(LOGO_MAX_BYTES - 44), png().subarray(-12)]),
          'validation.fileTooLarge',
        ],
      ];
      for (const [name, content, key] of cases) {
        const res = await upload(content);
        expect(res.statusCode, name).toBe(400);
        const problem = res.json<{ detail?: string; errors: Record<string, string[]> }>();
        expect(problem.errors.content_base64, name).toEqual([key]);
        expect(problem.detail, name).toBe(detailOf[key]);
      }
      // The translated message exists in every locale.
      const { translate } = await import('@solar/i18n');
      for (const locale of ['tr_TR', 'en_US', 'de_DE', 'mk_MK'] as const)
        for (const key of [...Object.keys(detailOf), ...Object.values(detailOf)])
          expect(translate(locale, key), `${locale} ${key}`).not.toBe(key);
      // Base64 beyond the cap is refused by the schema, before decoding.
      const huge = await t.http.post(
        '/api/admin/settings/logo',
        { content_base64: 'A'.repeat(Math.ceil(LOGO_MAX_BYTES / 3) * 4 + 4) },
        { token: admin.token },
      );
      expect(huge.statusCode).toBe(400);
      expect(huge.json<{ errors: Record<string, string[]> }>().errors.content_base64).toEqual([
        'validation.fileTooLarge',
      ]);
      const bad = await t.http.post(
        '/api/admin/settings/logo',
        { content_base64: '***' },
        { token: admin.token },
      );
      expect(bad.statusCode).toBe(400);
      const extra = await t.http.post(
        '/api/admin/settings/logo',
        { content_base64: b64(png()), name: 'x.png' },
        { token: admin.token },
      );
      expect(extra.statusCode).toBe(400);
      expect((await publicSettings()).logo_url).toBeNull();
    });

    it('stores a PNG, serves it publicly with its type, ETag and caching, and audits the change', async () => {
      const image = png();
      const res = await upload(image);
      expect(res.statusCode, res.body).toBe(200);
      const saved = res.json<LogoAnswer>();
      expect(saved).toMatchObject({ content_type: 'image/png', size_bytes: image.length });
      expect((await publicSettings()).logo_url).toBe(saved.logo_url);

      const plain = await t.http.get('/api/settings/logo');
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-type']).toBe('image/png');
      expect(plain.rawPayload.equals(image)).toBe(true);
      expect(plain.headers['x-content-type-options']).toBe('nosniff');
      expect(plain.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(plain.headers['cache-control']).toBe('public, no-cache');
      const etag = String(plain.headers.etag);
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      // The versioned URL of the public settings may be kept for a year: a new logo is a new URL.
      const versioned = await t.http.get(saved.logo_url);
      expect(versioned.statusCode).toBe(200);
      expect(versioned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const again = await t.http.get('/api/settings/logo', { headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);

      const [entry] = await auditOf('site_logo');
      expect(entry).toMatchObject({ action: 'create', entity: 'site_logo', user_id: admin.id });
      expect(JSON.stringify(entry)).not.toContain(b64(image).slice(0, 40));
    });

    it('replaces the logo with a JPEG: a new ETag and URL, the old ETag no longer matches', async () => {
      const before = await publicSettings();
      const res = await upload(jpeg);
      expect(res.statusCode, res.body).toBe(200);
      const after = await publicSettings();
      expect(after.logo_url).not.toBe(before.logo_url);
      const oldEtag = `"${new URL(before.logo_url!, 'http://x').searchParams.get('v')}"`;
      const served = await t.http.get('/api/settings/logo', { headers: { 'if-none-match': oldEtag } });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect(served.rawPayload.equals(jpeg)).toBe(true);
      expect((await auditOf('site_logo'))[0]).toMatchObject({ action: 'update' });
    });

    it('is removable: the public settings drop it and the route answers 404; removing again is 404', async () => {
      const res = await t.http.delete('/api/admin/settings/logo', { token: admin.token });
      expect(res.statusCode, res.body).toBe(204);
      expect((await publicSettings()).logo_url).toBeNull();
      expect((await t.http.get('/api/settings/logo')).statusCode).toBe(404);
      expect((await t.http.delete('/api/admin/settings/logo', { token: admin.token })).statusCode).toBe(404);
      expect((await auditOf('site_logo'))[0]).toMatchObject({ action: 'delete' });
    });

    it('is seen by another node at once (read from the database, no local files)', async () => {
      // A second server on the same database (the same SQLite file, or the same PostgreSQL schema).
      const other = await underSchemaLock(() => buildApp(t.ctx.config));
      await other.app.ready();
      try {
        const http = new TestClient(other.app);
        expect((await http.get('/api/settings/public')).json<PublicSettings>().logo_url).toBeNull();
        expect((await upload(png([20, 120, 220]))).statusCode).toBe(200);
        const res = await http.get('/api/settings/logo');
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('image/png');
        // Its public settings follow on its next load (at once by the cluster bus, else the refresh).
        await other.ctx.settings.load();
        expect((await http.get('/api/settings/public')).json<PublicSettings>().logo_url).toBe(
          (await publicSettings()).logo_url,
        );
      } finally {
        await other.app.close();
      }
    });
  });

  describe('CO₂ factors', () => {
    let tree: Tree;
    let paris: Tree;
    let day: string;

    const list = async (token = admin.token) => t.http.get('/api/admin/co2-factors', { token });
    const kpis = async (plantId: number) => {
      const res = await t.http.get(`/api/plants/${plantId}/kpis`, {
        token: admin.token,
        query: { period: 'day', date: day },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<PlantKpisAnswer>();
    };

    /** A plant in `timeZone` whose inverter counter gains 100 kWh on `day` (10:00 to 12:00 UTC). */
    async function plantWithEnergy(name: string, timeZone: string): Promise<Tree> {
      const made = await makeTree(t, admin.token, name);
      await save(t, admin.token, `/api/plants/${made.plantId}`, {
        field_id: made.fieldId,
        name: `${name} Plant`,
        time_zone: timeZone,
        dc_capacity_kwp: 100,
      });
      const counter = await save(t, admin.token, '/api/signals/0', {
        device_id: made.deviceId,
        key: 'total_energy',
        name: 'Total energy',
        unit: 'kWh',
        is_counter: true,
      });
      const key = (
        await t.http.post(`/api/plants/${made.plantId}/ingest-key`, {}, { token: admin.token })
      ).json<{ key: string }>().key;
      const start = Date.parse(`${day}T10:00:00Z`);
      const points = Array.from({ length: 25 }, (_, i) => ({
        signal_id: counter.id,
        ts: start + i * 5 * MIN,
        value: 5000 + i * 4,
      }));
      const res = await t.http.post(
        '/api/telemetry',
        { points },
        { headers: { 'x-api-key': key }, xsrf: false },
      );
      expect(res.statusCode, res.body).toBe(200);
      return made;
    }

    beforeAll(async () => {
      day = new Date(Date.now() - 3 * DAY).toISOString().slice(0, 10);
      tree = await plantWithEnergy('Co2Tr', 'Europe/Istanbul');
      paris = await plantWithEnergy('Co2Fr', 'Europe/Paris');
    });

    it('lists the built-in factors with their source and year, DEFAULT last', async () => {
      const res = await list();
      expect(res.statusCode, res.body).toBe(200);
      const { items } = res.json<Co2FactorList>();
      expect(items.map((i) => i.country)).toEqual(['DE', 'MK', 'TR', 'DEFAULT']);
      expect(items.find((i) => i.country === 'TR')).toMatchObject({
        kg_per_kwh: 0.44,
        year: 2020,
        origin: 'built_in',
        updated_at: null,
      });
      for (const item of items) expect(item.source.length).toBeGreaterThan(10);
    });

    it('refuses without sign-in (401) and without the administrator (403)', async () => {
      const body = { kg_per_kwh: 0.1, year: 2024, source: 'x' };
      expect((await list('')).statusCode).toBe(401);
      expect((await t.http.post('/api/admin/co2-factors/TR', body)).statusCode).toBe(401);
      for (const user of [operator, pageHolder]) {
        expect((await list(user.token)).statusCode).toBe(403);
        expect((await t.http.post('/api/admin/co2-factors/TR', body, { token: user.token })).statusCode).toBe(
          403,
        );
        expect((await t.http.delete('/api/admin/co2-factors/TR', { token: user.token })).statusCode).toBe(
          403,
        );
      }
    });

    it('validates with the shared schema: 400 with message keys, nothing saved', async () => {
      const good = { kg_per_kwh: 0.3, year: 2024, source: 'Grid operator 2024 report' };
      const cases: [string, Record<string, unknown>, string, string][] = [
        ['TR', { ...good, kg_per_kwh: -0.1 }, 'kg_per_kwh', 'validation.outOfRange'],
        ['TR', { ...good, kg_per_kwh: 450 }, 'kg_per_kwh', 'validation.outOfRange'],
        ['TR', { ...good, kg_per_kwh: '0.3' }, 'kg_per_kwh', 'validation.invalidNumber'],
        ['TR', { ...good, year: 1980 }, 'year', 'validation.outOfRange'],
        ['TR', { ...good, year: 2024.5 }, 'year', 'validation.invalidNumber'],
        ['TR', { ...good, source: '  ' }, 'source', 'validation.required'],
        ['TR', { ...good, source: 'x'.repeat(301) }, 'source', 'validation.tooLong'],
        ['TUR', good, 'country', 'validation.invalidValue'],
        ['T1', good, 'country', 'validation.invalidValue'],
      ];
      for (const [country, body, field, key] of cases) {
        const res = await t.http.post(`/api/admin/co2-factors/${country}`, body, { token: admin.token });
        expect(res.statusCode, `${country} ${field}`).toBe(400);
        expect(res.json<{ errors: Record<string, string[]> }>().errors[field], field).toEqual([key]);
      }
      const extra = await t.http.post(
        '/api/admin/co2-factors/TR',
        { ...good, note: 1 },
        { token: admin.token },
      );
      expect(extra.statusCode).toBe(400);
      const { items } = (await list()).json<Co2FactorList>();
      expect(items.every((i) => i.origin === 'built_in')).toBe(true);
    });

    it("an override changes a plant's co2_avoided_kg and names its source; removing it restores the table's", async () => {
      const before = await kpis(tree.plantId);
      expect(before.energy_kwh).toBeCloseTo(96, 6);
      expect(before.co2_avoided_kg).toBeCloseTo(96 * 0.44, 6);
      expect(before.model).toMatchObject({ co2_factor_country: 'TR', co2_factor_origin: 'built_in' });

      const source = 'TEİAŞ 2024 grid mix (admin)';
      const res = await t.http.post(
        '/api/admin/co2-factors/tr',
        { kg_per_kwh: 0.5, year: 2024, source },
        { token: admin.token },
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Co2FactorItem>()).toMatchObject({
        country: 'TR',
        kg_per_kwh: 0.5,
        origin: 'override',
        built_in: { kg_per_kwh: 0.44, year: 2020 },
      });
      // The stored day was computed with the old factor: it is recomputed on this read.
      const after = await kpis(tree.plantId);
      expect(after.co2_avoided_kg).toBeCloseTo(96 * 0.5, 6);
      expect(after.model).toMatchObject({
        co2_factor_kg_per_kwh: 0.5,
        co2_factor_year: 2024,
        co2_factor_source: source,
        co2_factor_origin: 'override',
      });
      const audit = (
        await t.http.get('/api/audit', { token: admin.token, query: { entity: 'co2_factor' } })
      ).json<AuditList>();
      expect(audit.items[0]).toMatchObject({ action: 'create', entity: 'co2_factor', user_id: admin.id });

      expect((await t.http.delete('/api/admin/co2-factors/TR', { token: admin.token })).statusCode).toBe(204);
      expect((await kpis(tree.plantId)).co2_avoided_kg).toBeCloseTo(96 * 0.44, 6);
      expect((await t.http.delete('/api/admin/co2-factors/TR', { token: admin.token })).statusCode).toBe(404);
    });

    it('adds a country the table lacks: its plants leave DEFAULT; a DEFAULT override reaches the rest', async () => {
      expect((await kpis(paris.plantId)).model).toMatchObject({ co2_factor_country: 'DEFAULT' });
      expect((await kpis(paris.plantId)).co2_avoided_kg).toBeCloseTo(96 * 0.481, 6);

      const fr = { kg_per_kwh: 0.056, year: 2023, source: 'RTE, Bilan électrique 2023' };
      expect((await t.http.post('/api/admin/co2-factors/FR', fr, { token: admin.token })).statusCode).toBe(
        200,
      );
      const withFr = await kpis(paris.plantId);
      expect(withFr.co2_avoided_kg).toBeCloseTo(96 * 0.056, 6);
      expect(withFr.model).toMatchObject({ co2_factor_country: 'FR', co2_factor_origin: 'override' });
      const { items } = (await list()).json<Co2FactorList>();
      expect(items.map((i) => i.country)).toEqual(['DE', 'FR', 'MK', 'TR', 'DEFAULT']);
      expect(items.find((i) => i.country === 'FR')).toMatchObject({ built_in: null, origin: 'override' });

      // DEFAULT overridden: the Istanbul plant keeps the table's TR (more specific), Paris keeps FR.
      const def = { kg_per_kwh: 0.4, year: 2024, source: 'IEA world 2024' };
      expect(
        (await t.http.post('/api/admin/co2-factors/DEFAULT', def, { token: admin.token })).statusCode,
      ).toBe(200);
      expect((await kpis(tree.plantId)).co2_avoided_kg).toBeCloseTo(96 * 0.44, 6);
      expect((await t.http.delete('/api/admin/co2-factors/FR', { token: admin.token })).statusCode).toBe(204);
      expect((await kpis(paris.plantId)).co2_avoided_kg).toBeCloseTo(96 * 0.4, 6);
      expect((await t.http.delete('/api/admin/co2-factors/DEFAULT', { token: admin.token })).statusCode).toBe(
        204,
      );
      expect((await list()).json<Co2FactorList>().items.map((i) => i.country)).toEqual([
        'DE',
        'MK',
        'TR',
        'DEFAULT',
      ]);
    });
  });
});
