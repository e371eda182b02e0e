import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, LatestValue, SunspecApplyAnswer } from '@solar/shared';
import {
  startSunSpecServer,
  sunspecScaleFactors,
  type SunSpecServer,
  type SunSpecUnit,
} from '@solar/simulator';
import { startModbusPoller } from '../modbus-poller';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../../test/test-app';
import { quietLog as quiet, until as waitUntil } from '../../../test/collector-helpers';

const until = (check: () => boolean | Promise<boolean>, timeoutMs = 15_000) =>
  waitUntil(check, timeoutMs, 50);

const INVERTER: SunSpecUnit = {
  unitId: 1,
  kind: 'inverter',
  manufacturer: 'Example',
  model: 'INV-RTU',
  serial: 'R1',
  ratedPowerW: 100_000,
};
const METER: SunSpecUnit = { unitId: 2, kind: 'meter', manufacturer: 'Example', model: 'MTR', serial: 'R2' };
const SERIAL_INVERTER: SunSpecUnit = { ...INVERTER, unitId: 3, serial: 'R3' };
const SERIAL_METER: SunSpecUnit = { ...METER, unitId: 4, serial: 'R4' };

/** What the server serves for `value` at scale factor `sf`, in kW/kWh: rounded to the register's resolution. */
const served = (value: number, sf: number) => (Math.round(value / 10 ** sf) * 10 ** sf) / 1000;

/** A socat pair of virtual serial ports, or null when socat is not installed. */
async function socatPair(): Promise<{ a: string; b: string; stop(): void } | null> {
  if (spawnSync('socat', ['-V']).error) return null;
  const dir = mkdtempSync(join(tmpdir(), 'rtu-poller-'));
  const [a, b] = [join(dir, 'a'), join(dir, 'b')];
  const child = spawn('socat', [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], { stdio: 'ignore' });
  for (let i = 0; i < 100 && !(existsSync(a) && existsSync(b)); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    a,
    b,
    stop() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe(`Modbus RTU devices polled by the server (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let gateway: SunSpecServer;
  let serial: SunSpecServer | undefined;
  let pair: Awaited<ReturnType<typeof socatPair>>;

  beforeAll(async () => {
    t = await createTestApp({
      deviceNetworks: {
        extraAllowed: ['127.0.0.0/8'],
        cameraDeadlineMs: 1_000,
        modbusDeadlineMs: 1_000,
        // socat's virtual ports are pseudo-terminals, which production does not allow (config.ts).
        serialPorts: ['/dev/pts/'],
      },
    });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'RTU');
    gateway = await startSunSpecServer({ port: 0, units: [INVERTER, METER], transport: { kind: 'rtu-tcp' } });
    pair = await socatPair();
    if (!pair) console.warn('socat is not installed: the serial-port RTU device is not tested');
    else {
      serial = await startSunSpecServer({
        units: [SERIAL_INVERTER, SERIAL_METER],
        transport: { kind: 'rtu-serial', path: pair.b, line: { baudRate: 19_200 } },
      });
    }
  });
  afterAll(async () => {
    await gateway?.close();
    await serial?.close();
    pair?.stop();
    await t?.close();
  });

  const rtuDevice = (name: string, type: string, slave_id: number, link: Record<string, unknown>) => ({
    plant_id: tree.plantId,
    name,
    type,
    protocol: 'modbus_rtu',
    slave_id,
    baud_rate: 19_200,
    poll_interval_s: 1,
    ...link,
  });

  it('takes a serial path or a gateway address, not both, and keeps it', async () => {
    const refused = async (body: Record<string, unknown>, field: string, message: string) => {
      const res = await t.http.post('/api/devices/0', body, { token: admin.token });
      expect(res.statusCode, res.body).toBe(400);
      expect(JSON.stringify(res.json())).toContain(field);
      expect(JSON.stringify(res.json())).toContain(message);
    };
    // Neither: kept, not polled (devices saved before the link existed stay valid).
    const unlinked = await save<Device>(
      t,
      admin.token,
      '/api/devices/0',
      rtuDevice('None', 'inverter', 1, {}),
    );
    expect(unlinked).toMatchObject({ serial_path: null, ip: null, port: null });
    expect((await t.http.delete(`/api/devices/${unlinked.id}`, { token: admin.token })).statusCode).toBe(204);
    await refused(
      rtuDevice('Both', 'inverter', 1, { serial_path: '/dev/ttyUSB0', ip: '127.0.0.1', port: 502 }),
      'serial_path',
      'validation.oneOfRequired',
    );
    await refused(rtuDevice('No port', 'inverter', 1, { ip: '127.0.0.1' }), 'port', 'validation.required');
    await refused(
      rtuDevice('Climbs', 'inverter', 1, { serial_path: '/dev/../etc/passwd' }),
      'serial_path',
      'validation.invalidValue',
    );
    await refused(
      rtuDevice('Relative', 'inverter', 1, { serial_path: 'ttyUSB0' }),
      'serial_path',
      'validation.invalidValue',
    );
    // The gateway's address is checked against the device networks, as a Modbus TCP device's is.
    await refused(
      rtuDevice('Outside', 'inverter', 1, { ip: '203.0.113.5', port: 502 }),
      'ip',
      'validation.networkNotAllowed',
    );
    const onSerial = await save<Device>(
      t,
      admin.token,
      '/api/devices/0',
      rtuDevice('On serial', 'inverter', 9, { serial_path: '/dev/serial/by-id/usb-FTDI_RS485-if00' }),
    );
    expect(onSerial).toMatchObject({
      protocol: 'modbus_rtu',
      serial_path: '/dev/serial/by-id/usb-FTDI_RS485-if00',
      ip: null,
      port: null,
      baud_rate: 19_200,
      slave_id: 9,
    });
    // Another protocol drops the path.
    const tcp = await save<Device>(t, admin.token, `/api/devices/${onSerial.id}`, {
      ...rtuDevice('On serial', 'inverter', 9, {}),
      protocol: 'modbus_tcp',
      ip: '127.0.0.1',
      port: 502,
    });
    expect(tcp).toMatchObject({ serial_path: null, baud_rate: null });
    expect((await t.http.delete(`/api/devices/${onSerial.id}`, { token: admin.token })).statusCode).toBe(204);
  });

  it('polls RTU slaves through a gateway and on a serial line, and stores their readings', async () => {
    const make = async (name: string, unit: SunSpecUnit, link: Record<string, unknown>) => {
      const device = await save<Device>(
        t,
        admin.token,
        '/api/devices/0',
        rtuDevice(name, unit.kind === 'meter' ? 'meter' : 'inverter', unit.unitId, link),
      );
      // The standard SunSpec layout: the same register maps as over TCP.
      const models = unit.kind === 'meter' ? [1, 203] : [1, 103];
      const applied = await t.http.post(
        `/api/devices/${device.id}/sunspec/apply`,
        { models },
        { token: admin.token },
      );
      expect(applied.statusCode, applied.body).toBe(200);
      expect(applied.json<SunspecApplyAnswer>().created.length).toBeGreaterThan(0);
      return device;
    };
    const viaGateway = { ip: '127.0.0.1', port: gateway.port };
    const inverter = await make('GW INV', INVERTER, viaGateway);
    const meter = await make('GW MTR', METER, viaGateway);
    const onSerial = serial
      ? [
          await make('SER INV', SERIAL_INVERTER, { serial_path: pair!.a }),
          await make('SER MTR', SERIAL_METER, { serial_path: pair!.a }),
        ]
      : [];
    const polled = [inverter, meter, ...onSerial];
    gateway.setValues(INVERTER.unitId, { W: 51_234, WH: 123_456_789, St: 4 });
    gateway.setValues(METER.unitId, { W: 12_345, TotWhExp: 5_000_123 });
    serial?.setValues(SERIAL_INVERTER.unitId, { W: 40_000, WH: 7_654_321, St: 4 });
    serial?.setValues(SERIAL_METER.unitId, { W: 2_345, TotWhExp: 1_000_000 });
    const invSf = sunspecScaleFactors(INVERTER);
    const mtrSf = sunspecScaleFactors(METER);

    const poller = startModbusPoller(t.ctx, quiet, {
      timeoutMs: 300,
      excludeDeviceIds: (id) => !polled.some((d) => d.id === id),
    });
    const latest = async (deviceId: number) => {
      const res = await t.http.get('/api/telemetry/latest', {
        token: admin.token,
        query: { device_id: String(deviceId) },
      });
      return new Map(res.json<{ items: LatestValue[] }>().items.map((v) => [v.key, v.value]));
    };
    try {
      await until(async () => {
        for (const d of polled) {
          const values = await latest(d.id);
          if (!values.has(d.type === 'meter' ? 'active_power' : 'ac_power')) return false;
        }
        return true;
      });
      const inv = await latest(inverter.id);
      expect(inv.get('ac_power')).toBeCloseTo(served(51_234, invSf.W_SF!), 9);
      expect(inv.get('total_energy')).toBeCloseTo(served(123_456_789, invSf.WH_SF!), 9);
      expect(inv.get('status_code')).toBe(4);
      const mtr = await latest(meter.id);
      expect(mtr.get('active_power')).toBeCloseTo(served(12_345, mtrSf.W_SF!), 9);
      expect(mtr.get('export_energy')).toBeCloseTo(served(5_000_123, mtrSf.TotWh_SF!), 9);
      if (serial) {
        const sInv = await latest(onSerial[0]!.id);
        expect(sInv.get('ac_power')).toBeCloseTo(served(40_000, invSf.W_SF!), 9);
        expect(sInv.get('total_energy')).toBeCloseTo(served(7_654_321, invSf.WH_SF!), 9);
        const sMtr = await latest(onSerial[1]!.id);
        expect(sMtr.get('active_power')).toBeCloseTo(served(2_345, mtrSf.W_SF!), 9);
      }
      for (const d of polled) expect(poller.states().get(d.id)?.state).toBe('online');

      // A slave that falls silent is lost after its timeouts; the others on its bus stay online.
      gateway.setOnline(INVERTER.unitId, false);
      serial?.setOnline(SERIAL_INVERTER.unitId, false);
      await until(
        () =>
          poller.states().get(inverter.id)?.state === 'lost' &&
          (!serial || poller.states().get(onSerial[0]!.id)?.state === 'lost'),
      );
      expect(poller.states().get(meter.id)!.state).toBe('online');
      if (serial) expect(poller.states().get(onSerial[1]!.id)!.state).toBe('online');
      const row = await t.ctx.db
        .selectFrom('device_status')
        .selectAll()
        .where('device_id', '=', inverter.id)
        .executeTakeFirstOrThrow();
      expect(row.comm_state).toBe('lost');
      expect(row.last_error).toMatch(/No answer/);
      // Back: online again on its next answer.
      gateway.setOnline(INVERTER.unitId, true);
      serial?.setOnline(SERIAL_INVERTER.unitId, true);
      await until(() => poller.states().get(inverter.id)?.state === 'online');
    } finally {
      await poller.stop();
    }
  });

  it('opens only the serial ports the server allows, checked on the port the path resolves to', async () => {
    // A regular file where a port should be: without the check the server would open it read-write.
    const dir = mkdtempSync(join(tmpdir(), 'rtu-refused-'));
    const notAPort = join(dir, 'ttyUSB0');
    writeFileSync(notAPort, '');
    const device = await save<Device>(
      t,
      admin.token,
      '/api/devices/0',
      rtuDevice('Not a port', 'inverter', 5, { serial_path: notAPort }),
    );
    const applied = await t.http.post(
      `/api/devices/${device.id}/sunspec/apply`,
      { models: [1, 103] },
      { token: admin.token },
    );
    expect(applied.statusCode, applied.body).toBe(200);
    const poller = startModbusPoller(t.ctx, quiet, {
      timeoutMs: 300,
      excludeDeviceIds: (id) => id !== device.id,
    });
    try {
      await until(() => poller.states().get(device.id)?.state === 'lost');
      const row = await t.ctx.db
        .selectFrom('device_status')
        .selectAll()
        .where('device_id', '=', device.id)
        .executeTakeFirstOrThrow();
      expect(row.last_error).toMatch(/not an allowed serial port/);
      expect(readFileSync(notAPort, 'utf8')).toBe('');
    } finally {
      await poller.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
