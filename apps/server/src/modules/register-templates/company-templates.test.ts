import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Device,
  RegisterTemplate,
  RegisterTemplateApplyAnswer,
  RegisterTemplateCheckAnswer,
  RegisterTemplateEntry,
  RegisterTemplatesAnswer,
} from '@solar/shared';
import { startHuaweiServer, type HuaweiServer } from '@solar/simulator';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import {
  HUAWEI_TEMPLATE_JSON as HUAWEI_JSON,
  openModbusInverterScene,
  type ModbusInverterScene,
} from '../../test/modbus-inverter-fixtures';
import { dialectUnderTest, type TestApp } from '../../test/test-app';

/** The shipped Huawei map copied into a company's own template, as the device pages copy one to edit it. */
const copyOf = (id: string, changes: Partial<RegisterTemplate> = {}): RegisterTemplate => ({
  ...structuredClone(HUAWEI_JSON),
  id,
  label: `Copy ${id}`,
  ...changes,
});

describe(`company register templates (${dialectUnderTest})`, () => {
  let scene: ModbusInverterScene<HuaweiServer>;
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let other: Tree;
  /** Manages devices of `tree`'s company. */
  let manager: TestUser;
  /** Manages devices of `other`'s company. */
  let outsider: TestUser;
  let sim: HuaweiServer;
  let inverter: Device;

  beforeAll(async () => {
    scene = await openModbusInverterScene({
      tree: 'TplA',
      startSimulator: () => startHuaweiServer({ host: '127.0.0.1', port: 0, unitIds: [1] }),
      inverter: { name: 'TPL INV-01', slave_id: 1, rated_power_kw: 100 },
    });
    ({ t, admin, tree, sim, inverter } = scene);
    other = await makeTree(t, admin.token, 'TplB');
    manager = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['device_management']) });
    outsider = await makeUser(t, { companyId: other.companyId, permissions: pairs(['device_management']) });
  });
  afterAll(async () => {
    await scene?.close();
  });

  const create = (body: unknown, token = manager.token, query?: Record<string, string>) =>
    t.http.post('/api/register-templates', body, { token, query });
  const put = (id: number, body: unknown, token = manager.token) =>
    t.http.call('PUT', `/api/register-templates/${id}`, { token, body });
  const list = async (token = manager.token) =>
    (await t.http.get('/api/register-templates', { token })).json<RegisterTemplatesAnswer>().templates;
  const audit = (id: number) =>
    t.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'user_id', 'before', 'after'])
      .where('entity', '=', 'register_template')
      .where('entity_id', '=', id)
      .orderBy('id')
      .execute();

  it('stores a company’s own template, lists it beside the shipped ones, changes and deletes it, each audited', async () => {
    const res = await create(copyOf('huawei-own'));
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json<RegisterTemplateEntry>();
    expect(saved).toMatchObject({ source: 'company', company_id: tree.companyId });
    expect(saved.template).toEqual(copyOf('huawei-own'));

    const mine = await list();
    expect(mine.map((e) => [e.source, e.template.id])).toEqual(
      expect.arrayContaining([
        ['shipped', 'huawei-sun2000'],
        ['company', 'huawei-own'],
      ]),
    );
    // Another company sees the shipped ones and its own only.
    expect((await list(outsider.token)).some((e) => e.id === saved.id)).toBe(false);

    const changed = await put(saved.id!, copyOf('huawei-own', { label: 'Çatı SUN2000 (düzenlendi)' }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<RegisterTemplateEntry>().template.label).toBe('Çatı SUN2000 (düzenlendi)');

    const removed = await t.http.delete(`/api/register-templates/${saved.id}`, { token: manager.token });
    expect(removed.statusCode).toBe(204);
    expect(
      (await t.http.get(`/api/register-templates/${saved.id}`, { token: manager.token })).statusCode,
    ).toBe(404);

    const rows = await audit(saved.id!);
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
    expect(rows.every((r) => r.user_id === manager.id)).toBe(true);
    expect(rows[1]!.after).toContain('düzenlendi');
  });

  it('exports a template as its JSON file, and importing that file gives the same template', async () => {
    const saved = (await create(copyOf('round-trip', { vendor: 'Örnek' }))).json<RegisterTemplateEntry>();
    const exported = await t.http.get(`/api/register-templates/${saved.id}`, { token: manager.token });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-disposition']).toBe('attachment; filename="round-trip.json"');
    const file = JSON.parse(exported.body) as RegisterTemplate;
    expect(file).toEqual(copyOf('round-trip', { vendor: 'Örnek' }));

    // The same company already has that id; the other company imports it as it is.
    const again = await create(file);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      detail: 'errors.templateIdTaken',
      errors: { id: ['errors.templateIdTaken'] },
    });
    const imported = await create(file, outsider.token);
    expect(imported.statusCode, imported.body).toBe(200);
    const back = await t.http.get(`/api/register-templates/${imported.json<RegisterTemplateEntry>().id}`, {
      token: outsider.token,
    });
    expect(JSON.parse(back.body)).toEqual(file);
  });

  it('refuses bad files, shipped ids, other companies’ templates and callers without the permission', async () => {
    for (const body of [
      {},
      { ...copyOf('bad-format'), format: 'other@1' },
      copyOf('Bad Id'),
      copyOf('bad-type', { device_type: 'toaster' as never }),
      copyOf('bad-alarm', { alarm_words: [{ key: 'not_judged', bits: [] }] }),
      [1],
    ]) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(JSON.stringify(res.json())).toContain('validation.');
    }
    // The shipped template's own id: a copy is given another.
    expect((await create(copyOf('huawei-sun2000'))).statusCode).toBe(409);

    const saved = (await create(copyOf('scoped'))).json<RegisterTemplateEntry>();
    const url = `/api/register-templates/${saved.id}`;
    expect((await t.http.get(url, { token: outsider.token })).statusCode).toBe(404);
    expect((await put(saved.id!, copyOf('scoped'), outsider.token)).statusCode).toBe(404);
    expect((await t.http.delete(url, { token: outsider.token })).statusCode).toBe(404);
    expect((await t.http.get('/api/register-templates/999999', { token: manager.token })).statusCode).toBe(
      404,
    );

    // The administrator names the company; a user cannot save into another.
    expect((await create(copyOf('admin-no-company'), admin.token)).statusCode).toBe(400);
    const byAdmin = await create(copyOf('admin-made'), admin.token, { company_id: String(other.companyId) });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json<RegisterTemplateEntry>().company_id).toBe(other.companyId);
    expect(
      (await create(copyOf('foreign'), manager.token, { company_id: String(other.companyId) })).statusCode,
    ).toBe(404);

    const viewer = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['device_management'], ['view']),
    });
    expect((await create(copyOf('viewer'), viewer.token)).statusCode).toBe(403);
    expect((await put(saved.id!, copyOf('scoped'), viewer.token)).statusCode).toBe(403);
    expect((await t.http.delete(url, { token: viewer.token })).statusCode).toBe(403);
    expect((await t.http.get(url, { token: viewer.token })).statusCode).toBe(403);
    expect((await t.http.get(url)).statusCode).toBe(401);
    // A user narrowed to one plant may use the company's templates but not change them.
    const narrowed = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['device_management']),
      units: [{ unit_type: 'plant', unit_id: tree.plantId }],
    });
    expect((await t.http.get(url, { token: narrowed.token })).statusCode).toBe(200);
    expect((await put(saved.id!, copyOf('scoped'), narrowed.token)).statusCode).toBe(403);
  });

  it('applies a stored template to a device of its company only', async () => {
    const saved = (
      await create(copyOf('apply-me', { strings: { ...HUAWEI_JSON.strings!, default: 1 } }))
    ).json<RegisterTemplateEntry>();
    const foreign = (await create(copyOf('apply-foreign'), outsider.token)).json<RegisterTemplateEntry>();
    const url = `/api/devices/${inverter.id}/register-template`;
    expect((await t.http.post(url, { template_id: foreign.id }, { token: admin.token })).statusCode).toBe(
      404,
    );
    expect((await t.http.post(url, { template_id: 999999 }, { token: manager.token })).statusCode).toBe(404);
    expect(
      (
        await t.http.post(
          url,
          { template_id: saved.id, template: 'huawei-sun2000' },
          { token: manager.token },
        )
      ).statusCode,
    ).toBe(400);
    expect(
      (await t.http.post(url, { template_id: saved.id, strings: 30 }, { token: manager.token })).statusCode,
    ).toBe(400);

    const res = await t.http.post(url, { template_id: saved.id }, { token: manager.token });
    expect(res.statusCode, res.body).toBe(200);
    const keys = res.json<RegisterTemplateApplyAnswer>().created.map((c) => c.key);
    expect(keys).toEqual(expect.arrayContaining(['ac_power', 'string1_dc_voltage']));
    expect(keys).not.toContain('string2_dc_voltage');
    const row = await t.ctx.db
      .selectFrom('audit_log')
      .select('after')
      .where('entity', '=', 'device')
      .where('entity_id', '=', inverter.id)
      .where('action', '=', 'register_template_apply')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.after!)).toMatchObject({ template: 'apply-me', template_id: saved.id });
  });

  it('reads each mapped register of the simulated SUN2000 once and names the register at fault', async () => {
    sim.setValues(1, { ac_power: 42.5, frequency: 50.01, temperature: 180 });
    const wrong = copyOf('wrong-address', {
      signals: HUAWEI_JSON.signals.map((s) => (s.key === 'frequency' ? { ...s, address: 39_000 } : s)),
    });
    const res = await t.http.post(
      `/api/devices/${inverter.id}/register-template/check`,
      { template_json: wrong, strings: 2 },
      { token: manager.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    const { registers } = res.json<RegisterTemplateCheckAnswer>();
    const byKey = new Map(registers.map((r) => [r.key, r]));
    expect(registers.length).toBe(HUAWEI_JSON.signals.length + 2 * HUAWEI_JSON.strings!.signals.length);
    // The register the device does not have: Modbus exception 2, illegal data address.
    expect(byKey.get('frequency')).toMatchObject({
      address: 39_000,
      outcome: 'exception',
      exception_code: 2,
    });
    // A register read, but its value is no inverter temperature.
    expect(byKey.get('temperature')).toMatchObject({ outcome: 'out_of_range', value: 180, max: 120 });
    expect(byKey.get('ac_power')).toMatchObject({ outcome: 'ok', value: 42.5, min: -5, max: 150 });
    // Every other register the device has answered plausibly (a coil or text would be `not_read`).
    expect(
      registers
        .filter((r) => r.outcome === 'exception' || r.outcome === 'out_of_range')
        .map((r) => r.key)
        .sort(),
    ).toEqual(['frequency', 'temperature']);

    // The shipped map fits: every register answers.
    const fits = await t.http.post(
      `/api/devices/${inverter.id}/register-template/check`,
      { template: 'huawei-sun2000', strings: 2 },
      { token: manager.token },
    );
    const outcomes = fits.json<RegisterTemplateCheckAnswer>().registers;
    expect(outcomes.filter((r) => r.outcome === 'exception')).toEqual([]);
  });

  it('answers one message for a device it cannot reach, and refuses the check to others', async () => {
    const silent = await save<Device>(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'TPL INV-02',
      type: 'inverter',
      protocol: 'modbus_tcp',
      ip: '127.0.0.1',
      // Nothing listens there.
      port: 1,
      slave_id: 1,
    });
    const url = `/api/devices/${silent.id}/register-template/check`;
    const started = performance.now();
    const res = await t.http.post(url, { template: 'huawei-sun2000' }, { token: manager.token });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ detail: 'errors.deviceUnreachable' });
    expect(res.body).not.toContain('ECONNREFUSED');
    // Answered at the deadline, as a silent device would be.
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);

    expect(
      (await t.http.post(url, { template: 'huawei-sun2000' }, { token: outsider.token })).statusCode,
    ).toBe(404);
    expect((await t.http.post(url, { template: 'huawei-sun2000' })).statusCode).toBe(401);
  });
});
