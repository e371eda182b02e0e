import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantOverviewItem, PlantsOverviewAnswer } from '@solar/shared';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`a plant far below its field's neighbour is a warning that says why (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let neighbourId: number;
  let neighbourSignal: number;
  const keys = new Map<number, string>();

  /** One AC power reading of a plant, through the plant's own ingest key. */
  const post = async (plantId: number, signal_id: number, value: number) => {
    if (!keys.has(plantId)) {
      const res = await t.http.post(`/api/plants/${plantId}/ingest-key`, {}, { token: admin.token });
      keys.set(plantId, res.json<{ key: string }>().key);
    }
    const res = await t.http.post(
      '/api/telemetry',
      { points: [{ signal_id, ts: Date.now(), value }] },
      { headers: { 'x-api-key': keys.get(plantId)! }, xsrf: false },
    );
    expect(res.statusCode, res.body).toBe(200);
  };
  const overview = async () => {
    const res = await t.http.get('/api/plants/overview', { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json<PlantsOverviewAnswer>().items;
    const of = (id: number) => items.find((i) => i.plant_id === id)!;
    return { plant: of(tree.plantId), neighbour: of(neighbourId) };
  };
  /** A plant of 100 kW AC without coordinates (never "night"), with one inverter and its AC power. */
  const plantBody = (name: string) => ({
    field_id: tree.fieldId,
    name,
    time_zone: 'Europe/Istanbul',
    ac_capacity_kw: 100,
  });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Neighbours');
    await save(t, admin.token, `/api/plants/${tree.plantId}`, plantBody('Weak Plant'));
    neighbourId = (await save(t, admin.token, '/api/plants/0', plantBody('Strong Plant'))).id;
    const inverter = await save(t, admin.token, '/api/devices/0', {
      plant_id: neighbourId,
      name: 'INV-01',
      type: 'inverter',
      protocol: 'http',
      rated_power_kw: 100,
    });
    neighbourSignal = (
      await save(t, admin.token, '/api/signals/0', {
        device_id: inverter.id,
        key: 'ac_power',
        name: 'AC Power',
        unit: 'kW',
      })
    ).id;
  });
  afterAll(() => t.close());

  it('warns of the plant at 4 % beside one at 44 %, names the neighbour, and clears when it recovers', async () => {
    await post(tree.plantId, tree.signalId, 4);
    await post(neighbourId, neighbourSignal, 44);
    const before = await overview();
    expect(before.neighbour).toMatchObject({
      status: 'normal',
      below_neighbour: null,
      ac_capacity_percent: 44,
    });
    expect(before.plant).toMatchObject<Partial<PlantOverviewItem>>({
      status: 'warning',
      ac_capacity_percent: 4,
      below_neighbour: { plant_id: neighbourId, name: 'Strong Plant', ac_capacity_percent: 44 },
    });
    expect(before.plant.active_alarms.total).toBe(0);

    await new Promise((r) => setTimeout(r, 5));
    await post(tree.plantId, tree.signalId, 30);
    const after = await overview();
    expect(after.plant).toMatchObject({ status: 'normal', below_neighbour: null });
  });
});
