import { expect } from 'vitest';
import type { AlarmRecord, DeviceType, Page } from '@solar/shared';
import type { AlarmEngine } from '../modules/alarms';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from './org-fixtures';
import { createTestApp, type TestApp } from './test-app';

/** A reading as POST /api/telemetry takes it. */
export interface Reading {
  signal_id: number;
  ts: number;
  value: number;
}

/**
 * What the alarm tests share: an app whose engine judges exactly the readings a test posts (its timer
 * ticks once an hour, so no tick raises or clears between two calls), an administrator, two companies'
 * trees, and in each a user with the same permissions.
 */
export interface AlarmScene {
  t: TestApp;
  engine: AlarmEngine;
  admin: TestUser;
  /** The tree the tests judge, and its user. */
  tree: Tree;
  operator: TestUser;
  /** Another company's tree, and its user, who must see none of the first one's alarms. */
  other: Tree;
  outsider: TestUser;
  /** Posts readings as the administrator and waits until the engine has written what they raise or clear. */
  ingest: (points: readonly Reading[]) => Promise<void>;
  /** GET /api/alarms as `token`. */
  alarmsOf: (token: string, query?: Record<string, string>) => Promise<AlarmRecord[]>;
  /** A device of the plant, made by the administrator (an HTTP one: nothing polls it). */
  addDevice: (plantId: number, name: string, type: DeviceType) => Promise<number>;
  /** A signal of the device, made by the administrator; answers its id. */
  addSignal: (deviceId: number, key: string, more?: { name?: string; unit?: string }) => Promise<number>;
  close: () => Promise<void>;
}

/** Starts the app and makes the trees `name` and `otherName`; the users get every method on `pages`. */
export async function openAlarmScene(
  names: { tree: string; other: string },
  pages: readonly Page[],
): Promise<AlarmScene> {
  const t = await createTestApp({}, { alarmEngine: { tickMs: 3_600_000 } });
  const engine = t.ctx.alarmEngine;
  const admin = await makeUser(t, { admin: true });
  const tree = await makeTree(t, admin.token, names.tree);
  const other = await makeTree(t, admin.token, names.other);
  const permissions = pairs(pages);
  const operator = await makeUser(t, { companyId: tree.companyId, permissions });
  const outsider = await makeUser(t, { companyId: other.companyId, permissions });
  return {
    t,
    engine,
    admin,
    tree,
    operator,
    other,
    outsider,
    async ingest(points) {
      const res = await t.http.post('/api/telemetry', { points }, { token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
      await engine.idle();
    },
    async alarmsOf(token, query = {}) {
      const res = await t.http.get('/api/alarms', { token, query });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<AlarmRecord[]>();
    },
    async addDevice(plantId, name, type) {
      return (
        await save(t, admin.token, '/api/devices/0', { plant_id: plantId, name, type, protocol: 'http' })
      ).id;
    },
    async addSignal(deviceId, key, more = {}) {
      return (await save(t, admin.token, '/api/signals/0', { device_id: deviceId, key, name: key, ...more }))
        .id;
    },
    close: () => t.close(),
  };
}
