import { connect } from 'node:net';
import { SUNSPEC_INVERTER_EVENT1_BITS, SUNSPEC_INVERTER_STATES } from '@solar/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exampleTopology } from '../example-topology';
import { createVirtualPlant } from '../plant';
import {
  HUAWEI_DEVICE_STATUS,
  driveHuaweiFromPlant,
  huaweiAlarmWords,
  huaweiDeviceStatus,
  startHuaweiServer,
  type HuaweiServer,
} from './huawei-server';
import { buildRtuFrame, crc16Modbus } from '@solar/modbus';

/** One Modbus TCP request, its answer's PDU (undefined when none comes within 300 ms). */
function request(port: number, unit: number, fc: number, address: number, quantity: number) {
  return new Promise<Buffer | undefined>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        Buffer.from([
          0,
          1,
          0,
          0,
          0,
          6,
          unit,
          fc,
          address >> 8,
          address & 0xff,
          quantity >> 8,
          quantity & 0xff,
        ]),
      );
    });
    let data = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(undefined);
    }, 300);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (data.length >= 6 && data.length >= 6 + data.readUInt16BE(4)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(data.subarray(7));
      }
    });
    socket.once('error', reject);
  });
}

async function read(port: number, unit: number, address: number, quantity: number): Promise<number[]> {
  const pdu = await request(port, unit, 3, address, quantity);
  if (!pdu) throw new Error('no answer');
  if (pdu[0]! & 0x80) throw new Error(`Modbus exception ${pdu[1]}`);
  return Array.from({ length: pdu[1]! / 2 }, (_, i) => pdu.readUInt16BE(2 + 2 * i));
}
const i32 = (r: number[], at: number) => ((r[at]! << 16) | r[at + 1]!) >> 0;
const u32 = (r: number[], at: number) => r[at]! * 65_536 + r[at + 1]!;
const i16 = (v: number) => (v >= 0x8000 ? v - 0x10000 : v);

describe('Huawei SUN2000 simulator', () => {
  let server: HuaweiServer;
  beforeEach(async () => {
    server = await startHuaweiServer({ port: 0, unitIds: [1, 2] });
  });
  afterEach(async () => {
    await server.close();
  });

  it("shows the inverter's state and events as Huawei's device status and alarm bits", () => {
    expect(huaweiDeviceStatus(SUNSPEC_INVERTER_STATES.MPPT)).toBe(HUAWEI_DEVICE_STATUS.ON_GRID);
    expect(huaweiDeviceStatus(SUNSPEC_INVERTER_STATES.FAULT)).toBe(0x0300);
    expect(huaweiDeviceStatus(SUNSPEC_INVERTER_STATES.SLEEPING)).toBe(0xa000);
    // A grid disconnection is alarm 2032 (alarm 1, bit 7); a ground fault 2062 (alarm 2, bit 2).
    expect(
      huaweiAlarmWords(2 ** SUNSPEC_INVERTER_EVENT1_BITS.GRID_DISCONNECT, SUNSPEC_INVERTER_STATES.FAULT),
    ).toEqual({ huawei_alarm_1: 1 << 7, huawei_alarm_2: 0, huawei_alarm_3: 0 });
    expect(huaweiAlarmWords(2 ** SUNSPEC_INVERTER_EVENT1_BITS.GROUND_FAULT, 4).huawei_alarm_2).toBe(1 << 2);
    // A fault without an event is 2064, Device Fault (alarm 2, bit 4); a healthy inverter has none.
    expect(huaweiAlarmWords(0, SUNSPEC_INVERTER_STATES.FAULT).huawei_alarm_2).toBe(1 << 4);
    expect(huaweiAlarmWords(0, SUNSPEC_INVERTER_STATES.MPPT)).toEqual({
      huawei_alarm_1: 0,
      huawei_alarm_2: 0,
      huawei_alarm_3: 0,
    });
  });

  it("serves values at Huawei's registers, types and gains", async () => {
    server.setValues(1, {
      ac_power: 51.234,
      total_energy: 123_456.78,
      temperature: -4.5,
      string1_dc_current: 9.87,
      string24_dc_voltage: 712.3,
      huawei_alarm_1: 1 << 7,
    });
    const r = await read(server.port, 1, 32000, 120);
    expect(i32(r, 80)).toBe(51_234);
    expect(u32(r, 106)).toBe(12_345_678);
    expect(i16(r[87]!)).toBe(-45);
    expect(r[17]).toBe(987);
    expect(r[62]).toBe(7123);
    expect(r[8]).toBe(0x80);
    // The other unit is untouched; outside the block, another function or an unknown unit are refused.
    expect(i32(await read(server.port, 2, 32080, 2), 0)).toBe(0);
    await expect(read(server.port, 1, 32119, 2)).rejects.toThrow(/exception 2/);
    expect([...(await request(server.port, 1, 4, 32080, 2))!]).toEqual([0x84, 0x01]);
    expect([...(await request(server.port, 9, 3, 32080, 2))!]).toEqual([0x83, 0x0b]);
    expect(() => server.setValues(1, { nope: 1 })).toThrow(RangeError);
    server.setOnline(1, false);
    expect(await request(server.port, 1, 3, 32080, 2)).toBeUndefined();
  });

  it('shows a virtual plant’s inverter, and its trip as a Huawei fault', async () => {
    const plant = createVirtualPlant(exampleTopology(1)[0]!, { seed: 1, faults: false, clouds: false });
    let now = Date.UTC(2025, 5, 21, 6);
    const driver = driveHuaweiFromPlant(
      server,
      plant,
      [{ unitId: 1, deviceId: 'inv-01' }],
      60_000,
      () => now,
    );
    try {
      now = Date.UTC(2025, 5, 21, 9, 45);
      driver.update();
      const inv = plant.sample(now).find((s) => s.deviceId === 'inv-01')!.readings;
      let r = await read(server.port, 1, 32000, 120);
      expect(i32(r, 80) / 1000).toBeCloseTo(inv.ac_power!, 3);
      expect(u32(r, 106) / 100).toBeCloseTo(inv.total_energy!, 2);
      expect(i16(r[16]!) / 10).toBeCloseTo(inv.mppt1_dc_voltage!, 1);
      expect(r[89]).toBe(HUAWEI_DEVICE_STATUS.ON_GRID);
      plant.forceFault('inv-01', 'trip', now, 10 * 60_000);
      now += 60_000;
      driver.update();
      r = await read(server.port, 1, 32000, 120);
      expect(r[89]).toBe(HUAWEI_DEVICE_STATUS.SHUTDOWN_FAULT);
      expect(r[8]).toBe(1 << 7);
      expect(i32(r, 80)).toBe(0);
    } finally {
      driver.stop();
    }
  });
});

/** One RTU frame over TCP (an RTU-over-TCP gateway's line): the answer's PDU, undefined when none comes. */
function rtuRequest(port: number, unit: number, address: number, quantity: number) {
  return new Promise<Buffer | undefined>((resolve, reject) => {
    const pdu = Buffer.from([3, address >> 8, address & 0xff, quantity >> 8, quantity & 0xff]);
    const socket = connect(port, '127.0.0.1', () => socket.write(buildRtuFrame(unit, pdu)));
    let data = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(undefined);
    }, 300);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const length = data.length > 2 && data[1]! & 0x80 ? 5 : data.length > 2 ? 5 + data[2]! : Infinity;
      if (data.length >= length) {
        clearTimeout(timer);
        socket.destroy();
        expect(data[0]).toBe(unit);
        expect(crc16Modbus(data.subarray(0, length - 2))).toBe(data.readUInt16LE(length - 2));
        resolve(data.subarray(1, length - 2));
      }
    });
    socket.once('error', reject);
  });
}

describe('Huawei SUN2000 simulator over RTU', () => {
  it('answers RTU frames over TCP with the same map; a unit not on the line answers a gateway exception', async () => {
    const server = await startHuaweiServer({ port: 0, unitIds: [3], transport: { kind: 'rtu-tcp' } });
    try {
      server.setValues(3, { ac_power: 12.5, huawei_device_status: HUAWEI_DEVICE_STATUS.ON_GRID });
      const pdu = (await rtuRequest(server.port, 3, 32080, 10))!;
      expect([pdu[0], pdu[1]]).toEqual([3, 20]);
      expect(pdu.readInt32BE(2)).toBe(12_500);
      expect(pdu.readUInt16BE(2 + 2 * 9)).toBe(0x0200);
      expect([...(await rtuRequest(server.port, 7, 32080, 2))!]).toEqual([0x83, 0x0b]);
      server.setOnline(3, false);
      expect(await rtuRequest(server.port, 3, 32080, 2)).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
