import { connect } from 'node:net';
import type { Socket } from 'node:net';
import {
  applyScale,
  decodeRegisters,
  decodeString,
  discoverSunSpec,
  expandTemplate,
  SUNSPEC_INVERTER_EVENT1_BITS,
} from '@solar/shared';
import type { SunSpecTemplateId } from '@solar/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exampleTopology } from '../example-topology';
import { createVirtualPlant } from '../plant';
import { driveSunSpecFromPlant } from './drive';
import { startSunSpecServer } from './sunspec-server';
import type { SunSpecServer } from './sunspec-server';

/** A raw Modbus TCP client: frames built byte by byte, answers collected by transaction id. */
class RawClient {
  private buffer = Buffer.alloc(0);
  private readonly waiting = new Map<number, (frame: Buffer) => void>();
  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      while (this.buffer.length >= 7 && this.buffer.length >= 6 + this.buffer.readUInt16BE(4)) {
        const frame = this.buffer.subarray(0, 6 + this.buffer.readUInt16BE(4));
        this.buffer = this.buffer.subarray(frame.length);
        this.waiting.get(frame.readUInt16BE(0))?.(frame);
      }
    });
  }

  static open(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  /** MBAP: transaction, protocol 0, length, unit; PDU: function, address, quantity. */
  static frame(tid: number, unit: number, fc: number, address: number, quantity: number): Buffer {
    return Buffer.from([
      tid >> 8,
      tid & 0xff,
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
    ]);
  }

  /** Sends raw bytes and waits for the answers to `tids` (undefined for each that does not come). */
  async send(bytes: Buffer, tids: number[], timeoutMs = 300): Promise<(Buffer | undefined)[]> {
    const answers = tids.map(
      (tid) =>
        new Promise<Buffer | undefined>((resolve) => {
          const timer = setTimeout(() => resolve(undefined), timeoutMs);
          this.waiting.set(tid, (frame) => {
            clearTimeout(timer);
            resolve(frame);
          });
        }),
    );
    this.socket.write(bytes);
    return Promise.all(answers);
  }

  /** Reads holding registers; rejects on an exception answer. */
  async read(unit: number, address: number, quantity: number, tid = 1): Promise<number[]> {
    const [answer] = await this.send(RawClient.frame(tid, unit, 3, address, quantity), [tid]);
    if (!answer) throw new Error('no answer');
    if (answer[7]! & 0x80) throw new Error(`Modbus exception ${answer[8]}`);
    const out: number[] = [];
    for (let i = 0; i < answer[8]! / 2; i++) out.push(answer.readUInt16BE(9 + 2 * i));
    return out;
  }

  close() {
    this.socket.destroy();
  }
}

const UNITS = [
  {
    unitId: 1,
    kind: 'inverter',
    manufacturer: 'Huawei',
    model: 'SUN2000-100KTL-M1',
    serial: 'HV2101001001',
    ratedPowerW: 100_000,
  },
  {
    unitId: 2,
    kind: 'inverter',
    manufacturer: 'Huawei',
    model: 'SUN2000-100KTL-M1',
    serial: 'HV2101001002',
    ratedPowerW: 100_000,
  },
  {
    unitId: 10,
    kind: 'meter',
    manufacturer: 'Janitza',
    model: 'UMG 604-PRO',
    serial: 'JZ7014410',
    ratedPowerW: 800_000,
  },
  { unitId: 20, kind: 'weather', manufacturer: 'Lufft', model: 'WS601-UMB', serial: 'LF6001187' },
] as const;

/** Reads and decodes the signals of a template the way the poller will: discovery, then the shared codec. */
async function readTemplate(client: RawClient, unit: number, template: SunSpecTemplateId) {
  const read = (address: number, count: number) => client.read(unit, address, count);
  const discovery = await discoverSunSpec(read);
  expect(discovery).not.toBeNull();
  const signals = expandTemplate(template, { chain: discovery!.models });
  const out: Record<string, number | null> = {};
  for (const s of signals) {
    const raw = decodeRegisters(await read(s.address, s.count), s.sunspec_type);
    const sf =
      s.scale_factor_address === null
        ? undefined
        : decodeRegisters(await read(s.scale_factor_address, 1), 'sunssf');
    out[s.key] = applyScale(raw, { scale: s.scale, scaleFactor: sf });
  }
  return { discovery: discovery!, values: out };
}

describe('SunSpec Modbus TCP server', () => {
  let server: SunSpecServer;
  let client: RawClient;
  beforeEach(async () => {
    server = await startSunSpecServer({ port: 0, units: [...UNITS] });
    client = await RawClient.open(server.port);
  });
  afterEach(async () => {
    client.close();
    await server.close();
  });

  it('serves SunS at 40000 and a chain the shared discovery walks, per unit', async () => {
    expect(await client.read(1, 40000, 2)).toEqual([0x5375, 0x6e53]);
    const ids = async (unit: number) =>
      (await discoverSunSpec((a, c) => client.read(unit, a, c)))!.models.map((m) => m.id);
    expect(await ids(1)).toEqual([1, 103, 160]);
    expect(await ids(10)).toEqual([1, 203]);
    expect(await ids(20)).toEqual([1, 307, 302, 303]);
    const common = await client.read(1, 40004, 66);
    expect(decodeString(common, 16, 0)).toBe('Huawei');
    expect(decodeString(common, 16, 16)).toBe('SUN2000-100KTL-M1');
    expect(decodeString(common, 16, 48)).toBe('HV2101001001');
    expect(decodeString(await client.read(10, 40004, 16), 16)).toBe('Janitza');
  });

  it('applies scale factors to values set in engineering units', async () => {
    server.setValues(1, {
      W: 51_234,
      WH: 123_456_789,
      St: 4,
      Evt1: 0,
      PhVphA: 231.4,
      A: 74.12,
      Hz: 50.01,
      DCV: 612.3,
      DCW: 52_400,
      TmpCab: 41.7,
      'module[2].DCW': 25_000,
    });
    const { values } = await readTemplate(client, 1, 'sunspec-inverter');
    expect(values.ac_power).toBeCloseTo(51.23, 2);
    expect(values.total_energy).toBeCloseTo(123_456.79, 1);
    expect(values.status_code).toBe(4);
    expect(values.event_bits).toBe(0);
    expect(values.ac_voltage).toBe(231.4);
    expect(values.ac_current).toBe(74.12);
    expect(values.frequency).toBe(50.01);
    expect(values.dc_voltage).toBe(612.3);
    expect(values.dc_power).toBeCloseTo(52.4, 6);
    expect(values.temperature).toBe(41.7);
    expect(values.mppt2_dc_power).toBeCloseTo(25, 6);
    // Not set yet: the standard's not-implemented value decodes to null.
    expect(values.mppt1_dc_energy).toBeNull();
    expect(() => server.setValues(1, { Nope: 1 })).toThrow(RangeError);
    expect(() => server.setValues(1, { W_SF: 1 })).toThrow(RangeError);
  });

  it('answers exceptions 01 and 02, 0x0B for an unknown unit, and pipelined requests in order', async () => {
    const [illegalFunction] = await client.send(RawClient.frame(7, 1, 6, 40000, 1), [7]);
    expect([...illegalFunction!.subarray(7)]).toEqual([0x86, 0x01]);
    const [illegalAddress] = await client.send(RawClient.frame(8, 1, 3, 100, 2), [8]);
    expect([...illegalAddress!.subarray(7)]).toEqual([0x83, 0x02]);
    // Past the end marker is outside the map too.
    await expect(client.read(1, 40000, 125)).resolves.toHaveLength(125);
    // The weather unit: SunS, 1 (68), 307 (13), 302 with one sensor set (7), 303 with one sensor (3), end (2).
    await expect(client.read(20, 40000 + 2 + 68 + 13 + 7 + 3, 2)).resolves.toEqual([0xffff, 0]);
    await expect(client.read(20, 40000 + 2 + 68 + 13 + 7 + 3 + 2 - 1, 2)).rejects.toThrow(/exception 2/);
    const [unknownUnit] = await client.send(RawClient.frame(9, 99, 3, 40000, 2), [9]);
    expect([...unknownUnit!.subarray(6)]).toEqual([99, 0x83, 0x0b]);
    const [tooMany] = await client.send(RawClient.frame(10, 1, 3, 40000, 126), [10]);
    expect([...tooMany!.subarray(7)]).toEqual([0x83, 0x03]);

    // Three requests for three units in one TCP segment, the third split across two writes.
    const frames = Buffer.concat([
      RawClient.frame(101, 1, 3, 40000, 2),
      RawClient.frame(102, 10, 4, 40002, 2),
      RawClient.frame(103, 20, 3, 40070, 2),
    ]);
    const pending = client.send(frames.subarray(0, 30), [101, 102, 103]);
    await new Promise((r) => setTimeout(r, 20));
    await client.send(frames.subarray(30), []);
    const [a, b, c] = await pending;
    expect(a!.readUInt16BE(9)).toBe(0x5375);
    expect(b![7]).toBe(4);
    expect([b!.readUInt16BE(9), b!.readUInt16BE(11)]).toEqual([1, 66]);
    expect([c!.readUInt16BE(9), c!.readUInt16BE(11)]).toEqual([307, 11]);
  });

  it('stays silent for a unit that is offline, and the others keep answering', async () => {
    server.setOnline(2, false);
    const [silent, other] = await client.send(
      Buffer.concat([RawClient.frame(21, 2, 3, 40000, 2), RawClient.frame(22, 1, 3, 40000, 2)]),
      [21, 22],
    );
    expect(silent).toBeUndefined();
    expect(other).toBeDefined();
    server.setOnline(2, true);
    expect(await client.read(2, 40000, 2)).toEqual([0x5375, 0x6e53]);
  });

  it('shows a virtual plant: inverter, meter and weather station, trips and communication loss', async () => {
    const definition = exampleTopology(1)[0]!;
    const plant = createVirtualPlant(definition, { seed: 1, faults: false, clouds: false });
    let now = Date.UTC(2025, 5, 21, 6);
    const driver = driveSunSpecFromPlant(
      server,
      plant,
      [
        { unitId: 1, deviceId: 'inv-01' },
        { unitId: 2, deviceId: 'inv-02' },
        { unitId: 10, deviceId: 'meter-1' },
        { unitId: 20, deviceId: 'ws-1' },
      ],
      60_000,
      () => now,
    );
    try {
      now = Date.UTC(2025, 5, 21, 9, 45);
      driver.update();
      const samples = plant.sample(now);
      const inv = samples.find((s) => s.deviceId === 'inv-01')!.values;
      const { values } = await readTemplate(client, 1, 'sunspec-inverter');
      expect(values.ac_power).toBeCloseTo(inv.ac_power!, 1);
      expect(values.total_energy).toBeCloseTo(inv.total_energy!, 1);
      expect(values.status_code).toBe(inv.status_code);
      expect(values.mppt1_dc_power! + values.mppt2_dc_power!).toBeCloseTo(inv.dc_power!, 0);
      const meter = samples.find((s) => s.deviceId === 'meter-1')!.values;
      const m = (await readTemplate(client, 10, 'sunspec-meter')).values;
      expect(m.active_power).toBeCloseTo(meter.active_power!, -1);
      expect(m.export_energy).toBeCloseTo(meter.export_energy!, -1);
      expect(m.power_factor).toBeCloseTo(meter.power_factor!, 2);
      const w = (await readTemplate(client, 20, 'sunspec-weather')).values;
      const wsSample = samples.find((s) => s.deviceId === 'ws-1')!;
      const ws = wsSample.values;
      expect(w.ambient_temperature).toBeCloseTo(ws.ambient_temperature!, 0);
      // 302 and 303: whole W/m² and tenths of a degree, as the standard fixes them.
      expect(ws.irradiance!).toBeGreaterThan(100);
      expect(w.poa_irradiance).toBe(Math.round(ws.irradiance!));
      // GHI is measured but not one of this station's signals: it is served all the same.
      expect(w.ghi).toBe(Math.round(wsSample.readings.ghi!));
      expect(w.module_temperature).toBeCloseTo(ws.module_temperature!, 6);

      plant.forceFault('inv-02', 'trip', now, 10 * 60_000);
      plant.forceFault('inv-01', 'comm_loss', now, 10 * 60_000);
      now += 60_000;
      driver.update();
      const tripped = (await readTemplate(client, 2, 'sunspec-inverter')).values;
      expect(tripped.status_code).toBe(7);
      expect(tripped.ac_power).toBe(0);
      expect(tripped.event_bits).toBe(2 ** SUNSPEC_INVERTER_EVENT1_BITS.GRID_DISCONNECT);
      const [silent] = await client.send(RawClient.frame(55, 1, 3, 40000, 2), [55]);
      expect(silent).toBeUndefined();
    } finally {
      driver.stop();
    }
  });
});
