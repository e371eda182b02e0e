import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Topology } from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`single-line topology (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let tree: Tree;
  let stringBoxes: Device[];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Topo');
    editor = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['single_line'], ['view', 'update']),
    });
    stringBoxes = [];
    for (const name of ['SB-1', 'SB-2']) {
      stringBoxes.push(
        await save<Device>(t, admin.token, '/api/devices/0', {
          plant_id: tree.plantId,
          parent_device_id: tree.deviceId,
          name,
          type: 'string_box',
          protocol: 'http',
          rated_power_kw: 50,
        }),
      );
    }
  });
  afterAll(() => t.close());

  const topology = async (plantId: number, token = editor.token) => {
    const res = await t.http.get(`/api/plants/${plantId}/topology`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Topology>();
  };
  const edges = (topo: Topology) => topo.edges.map((e) => `${e.source} ${e.target}`);
  const savedRows = () =>
    t.ctx.db.selectFrom('single_line_positions').selectAll().orderBy('node_id').execute();

  it('draws a demo plant: grid → meter → transformer → busbar → inverters, every device a node', async () => {
    const plant = await t.ctx.db
      .selectFrom('plants')
      .select(['id', 'name'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const devices = await t.ctx.db
      .selectFrom('devices')
      .select(['id', 'type', 'name', 'rated_power_kw'])
      .where('plant_id', '=', plant.id)
      .orderBy('id')
      .execute();
    const topo = await topology(plant.id, admin.token);
    expect(topo.plant_name).toBe(plant.name);
    const deviceNodes = topo.nodes.filter((n) => n.kind === 'device');
    expect(deviceNodes.map((n) => n.device_id)).toEqual(devices.map((d) => d.id));
    const id = (type: string) => `device:${devices.find((d) => d.type === type)!.id}`;
    const inverters = devices.filter((d) => d.type === 'inverter');
    expect(inverters.length).toBeGreaterThan(1);
    const transformer = id('transformer');
    expect(edges(topo)).toEqual(
      expect.arrayContaining([
        `grid ${id('meter')}`,
        `${id('meter')} ${transformer}`,
        `${transformer} busbar:${transformer}`,
        ...inverters.map((d) => `busbar:${transformer} device:${d.id}`),
      ]),
    );
    // The weather station and the camera observe; they are not on the energy path.
    for (const type of ['camera', 'weather_station']) {
      expect(topo.edges.some((e) => e.source === id(type) || e.target === id(type))).toBe(false);
    }
    const inverter = deviceNodes.find((n) => n.device_type === 'inverter')!;
    const acPower = await t.ctx.db
      .selectFrom('signals')
      .select('id')
      .where('device_id', '=', inverter.device_id)
      .where('key', '=', 'ac_power')
      .executeTakeFirstOrThrow();
    expect(inverter).toMatchObject({
      name: inverters[0]!.name,
      rated_power_kw: Number(inverters[0]!.rated_power_kw),
      power_signal_id: acPower.id,
      position: null,
    });
  });

  it('follows parent_device_id down to string boxes', async () => {
    const topo = await topology(tree.plantId);
    const inv = `device:${tree.deviceId}`;
    expect(edges(topo)).toEqual([
      `grid ${inv}`,
      `${inv} busbar:${inv}`,
      ...stringBoxes.map((b) => `busbar:${inv} device:${b.id}`),
    ]);
    expect(topo.nodes.find((n) => n.id === `device:${stringBoxes[0]!.id}`)).toMatchObject({
      device_type: 'string_box',
      name: 'SB-1',
      rated_power_kw: 50,
    });
  });

  it('saves dragged positions, merges them, forgets a null one, and audits the change', async () => {
    const inv = `device:${tree.deviceId}`;
    const post = (positions: unknown) =>
      t.http.post(`/api/plants/${tree.plantId}/topology/positions`, { positions }, { token: editor.token });
    let res = await post([
      { node_id: 'grid', position: { x_px: 10, y_px: 20.5 } },
      { node_id: inv, position: { x_px: -30, y_px: 40 } },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    res = await post([{ node_id: `busbar:${inv}`, position: { x_px: 1, y_px: 2 } }]);
    expect(res.statusCode, res.body).toBe(200);
    res = await post([{ node_id: 'grid', position: null }]);
    const answered = res.json<Topology>();
    const topo = await topology(tree.plantId);
    expect(answered).toEqual(topo);
    expect(Object.fromEntries(topo.nodes.map((n) => [n.id, n.position]))).toMatchObject({
      grid: null,
      [inv]: { x_px: -30, y_px: 40 },
      [`busbar:${inv}`]: { x_px: 1, y_px: 2 },
      [`device:${stringBoxes[0]!.id}`]: null,
    });
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['user_id', 'action', 'entity_id', 'before', 'after'])
      .where('entity', '=', 'single_line')
      .orderBy('id')
      .execute();
    expect(audit).toHaveLength(3);
    expect(audit[2]).toMatchObject({ user_id: editor.id, action: 'update', entity_id: tree.plantId });
    expect(JSON.parse(audit[2]!.before!)).toHaveProperty('grid');
    expect(JSON.parse(audit[2]!.after!)).not.toHaveProperty('grid');
  });

  it('answers 400 on bad positions and changes nothing', async () => {
    const before = await savedRows();
    const inv = `device:${tree.deviceId}`;
    for (const [positions, field] of [
      [[{ node_id: 'device:999999', position: { x_px: 1, y_px: 1 } }], 'positions.0.node_id'],
      [
        [
          { node_id: inv, position: { x_px: 1, y_px: 1 } },
          { node_id: 'nope', position: null },
        ],
        'positions.1.node_id',
      ],
      [[{ node_id: inv, position: { x_px: 'left', y_px: 1 } }], 'positions.0.position.x_px'],
      [[{ node_id: inv, position: { x_px: 1e9, y_px: 1 } }], 'positions.0.position.x_px'],
      [[{ node_id: inv, position: { x_px: 1 } }], 'positions.0.position.y_px'],
      [[{ node_id: '', position: null }], 'positions.0.node_id'],
      [[], 'positions'],
      ['x', 'positions'],
      [
        [
          { node_id: inv, position: null },
          { node_id: inv, position: { x_px: 1, y_px: 1 } },
        ],
        'positions',
      ],
    ] as const) {
      const res = await t.http.post(
        `/api/plants/${tree.plantId}/topology/positions`,
        { positions },
        { token: editor.token },
      );
      expect(res.statusCode, JSON.stringify(positions)).toBe(400);
      expect(Object.keys(res.json<{ errors: object }>().errors), JSON.stringify(positions)).toContain(field);
    }
    expect(await savedRows()).toEqual(before);
  });

  it('hides another company’s plant (404) and saves nothing there', async () => {
    const other = await makeTree(t, admin.token, 'Other');
    const before = await savedRows();
    expect(
      (await t.http.get(`/api/plants/${other.plantId}/topology`, { token: editor.token })).statusCode,
    ).toBe(404);
    const res = await t.http.post(
      `/api/plants/${other.plantId}/topology/positions`,
      { positions: [{ node_id: 'grid', position: { x_px: 1, y_px: 1 } }] },
      { token: editor.token },
    );
    expect(res.statusCode).toBe(404);
    expect((await t.http.get('/api/plants/987654/topology', { token: admin.token })).statusCode).toBe(404);
    expect(await savedRows()).toEqual(before);
  });

  it('refuses without a token (401) and without the single_line permission (403)', async () => {
    const viewer = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['single_line'], ['view']),
    });
    const plantOnly = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['plant']) });
    const body = { positions: [{ node_id: 'grid', position: { x_px: 1, y_px: 1 } }] };
    expect((await t.http.get(`/api/plants/${tree.plantId}/topology`)).statusCode).toBe(401);
    expect((await t.http.post(`/api/plants/${tree.plantId}/topology/positions`, body)).statusCode).toBe(401);
    expect(
      (await t.http.get(`/api/plants/${tree.plantId}/topology`, { token: plantOnly.token })).statusCode,
    ).toBe(403);
    expect(
      (await t.http.post(`/api/plants/${tree.plantId}/topology/positions`, body, { token: viewer.token }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.http.get(`/api/plants/${tree.plantId}/topology`, { token: viewer.token })).statusCode,
    ).toBe(200);
  });
});
