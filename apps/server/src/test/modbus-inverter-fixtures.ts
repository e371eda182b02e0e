import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type {
  AlarmRecord,
  Device,
  InverterSummaryAnswer,
  LatestValue,
  RegisterTemplate,
} from '@solar/shared';
import { startModbusPoller, type ModbusPoller } from '../collectors/modbus/modbus-poller';
import { quietLog, until } from './collector-helpers';
import { makeTree, makeUser, save, type TestUser, type Tree } from './org-fixtures';
import { createTestApp, type TestApp } from './test-app';

/** The shipped Huawei SUN2000 template as its JSON file holds it (what the export must give back). */
export const HUAWEI_TEMPLATE_JSON = JSON.parse(
  readFileSync(
    new URL('../../../../packages/shared/src/register-templates/huawei-sun2000.json', import.meta.url),
    'utf8',
  ),
) as RegisterTemplate;

/** Resolves once `check` holds; a polled value takes a poll (1 s) and a write, so 15 s at 50 ms steps. */
export const untilPolled = (check: () => boolean | Promise<boolean>, timeoutMs = 15_000) =>
  until(check, timeoutMs, 50);

/** A simulated Modbus device as the simulator starts it (its Huawei or template server). */
interface SimulatedDevice {
  port: number;
  close(): Promise<void>;
}

/**
 * What the register-template tests share: an app that may reach devices on loopback, an administrator, a
 * tree, a simulated device, and the tree's inverter at the simulator's port.
 */
export interface ModbusInverterScene<S extends SimulatedDevice> {
  t: TestApp;
  admin: TestUser;
  tree: Tree;
  sim: S;
  inverter: Device;
  /** The inverter's latest values by signal key (GET /api/telemetry/latest). */
  latest: () => Promise<Map<string, LatestValue>>;
  /** The same, the value alone. */
  latestValues: () => Promise<Map<string, number>>;
  /** The inverter's alarms (GET /api/alarms). */
  alarms: () => Promise<AlarmRecord[]>;
  /** GET /api/inverters/{id}/summary, which must answer 200. */
  summary: () => Promise<InverterSummaryAnswer>;
  /** The console's Modbus poller on the inverter alone; the caller stops it. */
  startPoller: () => ModbusPoller;
  close: () => Promise<void>;
}

/**
 * Starts the app and the simulated device, makes the tree `tree` and in it the inverter `inverter` (device
 * fields; the type, address and port are set here). `hourlyAlarmTicks`: the engine's timer ticks once an
 * hour, so only the points the poller stores raise and clear alarms.
 */
export async function openModbusInverterScene<S extends SimulatedDevice>(spec: {
  tree: string;
  startSimulator: () => Promise<S>;
  inverter: Record<string, unknown>;
  hourlyAlarmTicks?: boolean;
}): Promise<ModbusInverterScene<S>> {
  const t = await createTestApp(
    { deviceNetworks: { extraAllowed: ['127.0.0.0/8'], cameraDeadlineMs: 1_000, modbusDeadlineMs: 1_000 } },
    spec.hourlyAlarmTicks ? { alarmEngine: { tickMs: 3_600_000 } } : {},
  );
  let sim: S | undefined;
  try {
    const admin = await makeUser(t, { admin: true });
    const tree = await makeTree(t, admin.token, spec.tree);
    sim = await spec.startSimulator();
    const inverter = await save<Device>(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      type: 'inverter',
      protocol: 'modbus_tcp',
      ip: '127.0.0.1',
      port: sim.port,
      ...spec.inverter,
    });
    const deviceQuery = { device_id: String(inverter.id) };
    const latest = async () => {
      const res = await t.http.get('/api/telemetry/latest', { token: admin.token, query: deviceQuery });
      return new Map(res.json<{ items: LatestValue[] }>().items.map((v) => [v.key, v]));
    };
    const started = sim;
    return {
      t,
      admin,
      tree,
      sim,
      inverter,
      latest,
      latestValues: async () => new Map([...(await latest())].map(([key, v]) => [key, v.value])),
      alarms: async () =>
        (await t.http.get('/api/alarms', { token: admin.token, query: deviceQuery })).json<AlarmRecord[]>(),
      async summary() {
        const res = await t.http.get(`/api/inverters/${inverter.id}/summary`, { token: admin.token });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<InverterSummaryAnswer>();
      },
      startPoller: () =>
        startModbusPoller(t.ctx, quietLog, {
          timeoutMs: 300,
          excludeDeviceIds: (id) => id !== inverter.id,
        }),
      async close() {
        await started.close();
        await t.close();
      },
    };
  } catch (error) {
    await sim?.close();
    await t.close();
    throw error;
  }
}
