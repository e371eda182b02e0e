import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSunSpecServer, type SunSpecServer, type SunSpecUnit } from '@solar/simulator';
import {
  buildRtuFrame,
  ModbusExceptionError,
  ModbusTransportError,
  RtuBus,
  SerialRtuTransport,
  TcpRtuTransport,
} from '@solar/modbus';

const unit = (unitId: number, kind: SunSpecUnit['kind'] = 'inverter'): SunSpecUnit => ({
  unitId,
  kind,
  manufacturer: 'Example',
  model: 'RTU',
  serial: `R${unitId}`,
  ratedPowerW: 50_000,
});
/** 'SunS' at 40000 (SunSpec's marker), then model 1. */
const SUNS = [0x5375, 0x6e53, 1];

describe('Modbus RTU over TCP against the simulator', () => {
  let sim: SunSpecServer;
  beforeAll(async () => {
    sim = await startSunSpecServer({
      port: 0,
      units: [unit(1), unit(2, 'meter')],
      transport: { kind: 'rtu-tcp' },
    });
  });
  afterAll(() => sim?.close());

  const bus = (timeoutMs = 300, retries = 1) =>
    new RtuBus({
      transport: new TcpRtuTransport({ host: '127.0.0.1', port: sim.port }),
      line: { baudRate: 9600 },
      timeoutMs,
      retries,
      endFramesBySilence: false,
    });

  it('reads two slaves on one connection, one request at a time', async () => {
    const client = bus();
    const answers = await Promise.all([
      client.readRegisters('holding', 1, 40000, 3),
      client.readRegisters('holding', 2, 40000, 3),
      client.readRegisters('input', 1, 40000, 2),
    ]);
    expect(answers).toEqual([SUNS, SUNS, SUNS.slice(0, 2)]);
    expect(client.counters).toMatchObject({ requests: 3, answered: 3, timeouts: 0, badFrames: 0 });
    client.close();
  });

  it('turns an exception answer into ModbusExceptionError, without a retry', async () => {
    const client = bus();
    const error = await client.readRegisters('holding', 1, 0, 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModbusExceptionError);
    expect((error as ModbusExceptionError).exceptionCode).toBe(2);
    expect(client.counters).toMatchObject({ requests: 1, exceptions: 1, retries: 0 });
    client.close();
  });

  it('retries a slave that does not answer, then gives up at its timeout without holding the others', async () => {
    const client = bus(200, 2);
    sim.setOnline(1, false);
    try {
      const started = performance.now();
      const dead = client.readRegisters('holding', 1, 40000, 3).catch((e: unknown) => e);
      const alive = client.readRegisters('holding', 2, 40000, 3).then((r) => ({ r, at: performance.now() }));
      const error = await dead;
      const deadMs = performance.now() - started;
      expect(error).toBeInstanceOf(ModbusTransportError);
      expect((error as ModbusTransportError).kind).toBe('timeout');
      // Three attempts of 200 ms plus the frames' time on a 9,600 baud wire (≈ 26 ms each).
      expect(deadMs).toBeGreaterThanOrEqual(3 * 200);
      expect(deadMs).toBeLessThan(3 * 300 + 500);
      const { r, at } = await alive;
      expect(r).toEqual(SUNS);
      // The live slave waited for the dead one's attempts, and no longer than that and its own answer.
      expect(at - started - deadMs).toBeLessThan(200);
      expect(client.counters).toMatchObject({ requests: 4, retries: 2, timeouts: 3, answered: 1 });
    } finally {
      sim.setOnline(1, true);
      client.close();
    }
  });

  it('fails fast when nothing listens', async () => {
    const closed = await new Promise<Server>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => resolve(s));
    });
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const client = new RtuBus({
      transport: new TcpRtuTransport({ host: '127.0.0.1', port }),
      line: { baudRate: 19200 },
      timeoutMs: 2000,
    });
    const started = performance.now();
    const error = await client.readRegisters('holding', 1, 0, 1).catch((e: unknown) => e);
    expect((error as ModbusTransportError).kind).toBe('connect');
    expect(performance.now() - started).toBeLessThan(1000);
    client.close();
  });
});

describe('Modbus RTU answers that are not answers', () => {
  let server: Server;
  let port: number;
  /** How the fake slave answers its next requests, in turn. */
  const script: ((request: Buffer) => Buffer | null)[] = [];
  /** performance.now() of each request's arrival. */
  const arrivals: number[] = [];
  const good = (request: Buffer) => buildRtuFrame(request[0]!, Buffer.from([request[1]!, 2, 0x12, 0x34]));
  beforeAll(async () => {
    server = createServer((socket) => {
      socket.on('data', (request: Buffer) => {
        arrivals.push(performance.now());
        const answer = (script.shift() ?? good)(request);
        if (answer) socket.write(answer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const bus = () =>
    new RtuBus({
      transport: new TcpRtuTransport({ host: '127.0.0.1', port }),
      line: { baudRate: 115_200 },
      timeoutMs: 300,
      retries: 1,
      endFramesBySilence: false,
    });

  it('refuses a bad CRC and asks again', async () => {
    script.push((request) => {
      const frame = good(request);
      frame[frame.length - 1]! ^= 0xff;
      return frame;
    });
    const client = bus();
    expect(await client.readRegisters('holding', 5, 0, 1)).toEqual([0x1234]);
    expect(client.counters).toMatchObject({ requests: 2, badFrames: 1, retries: 1, answered: 1 });
    client.close();
  });

  it("refuses another slave's answer and another function's", async () => {
    script.push((request) => buildRtuFrame(request[0]! + 1, Buffer.from([request[1]!, 2, 0, 1])));
    script.push((request) => buildRtuFrame(request[0]!, Buffer.from([4, 2, 0, 1])));
    const client = bus();
    const error = await client.readRegisters('holding', 5, 0, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModbusTransportError);
    expect((error as ModbusTransportError).message).toMatch(/function/);
    expect(client.counters).toMatchObject({ requests: 2, badFrames: 2 });
    // The bus is usable after it.
    expect(await client.readRegisters('holding', 5, 0, 1)).toEqual([0x1234]);
    client.close();
  });

  it('keeps the t3.5 silence of the line between an answer and the next request', async () => {
    const client = new RtuBus({
      transport: new TcpRtuTransport({ host: '127.0.0.1', port }),
      // 1,200 baud 8N1: t3.5 = 29.2 ms, long enough to see over a loopback connection.
      line: { baudRate: 1200 },
      timeoutMs: 300,
      endFramesBySilence: false,
    });
    expect(client.interFrameSilenceMs).toBeCloseTo(29.17, 1);
    arrivals.length = 0;
    await Promise.all([1, 2, 3, 4].map((id) => client.readRegisters('holding', id, 0, 1)));
    const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
    expect(gaps).toHaveLength(3);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(29);
    client.close();
  });

  it('times out an answer that stops short', async () => {
    script.push((request) => good(request).subarray(0, 4));
    script.push((request) => good(request).subarray(0, 4));
    const client = bus();
    const error = await client.readRegisters('holding', 5, 0, 1).catch((e: unknown) => e);
    expect((error as ModbusTransportError).kind).toBe('protocol');
    expect(client.counters).toMatchObject({ requests: 2, badFrames: 2, timeouts: 0 });
    client.close();
  });
});

/** A pair of virtual serial ports from socat, or null when socat is not installed. */
function socatPair(): { a: string; b: string; stop(): void; ready: Promise<void> } | null {
  if (spawnSync('socat', ['-V']).error) return null;
  const dir = mkdtempSync(join(tmpdir(), 'rtu-'));
  const a = join(dir, 'a');
  const b = join(dir, 'b');
  const child: ChildProcess = spawn('socat', [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], {
    stdio: 'ignore',
  });
  const ready = (async () => {
    for (let i = 0; i < 100 && !(existsSync(a) && existsSync(b)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!existsSync(a) || !existsSync(b)) throw new Error('socat made no ports');
  })();
  return {
    a,
    b,
    ready,
    stop() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const pair = socatPair();
if (!pair)
  console.warn('socat is not installed: the serial-line RTU tests are skipped (apt-get install socat)');

describe.skipIf(!pair)('Modbus RTU on a serial line (socat virtual ports)', () => {
  let sim: SunSpecServer;
  beforeAll(async () => {
    await pair!.ready;
    sim = await startSunSpecServer({
      units: [unit(1), unit(7, 'meter')],
      transport: { kind: 'rtu-serial', path: pair!.b, line: { baudRate: 9600 }, paceLine: true },
    });
  });
  afterAll(async () => {
    await sim?.close();
    pair?.stop();
  });

  it('polls two slave ids on one bus in turn, each request after the t3.5 silence', async () => {
    const client = new RtuBus({
      transport: new SerialRtuTransport({ path: pair!.a, baudRate: 9600 }),
      line: { baudRate: 9600 },
      timeoutMs: 300,
      retries: 1,
    });
    const started = performance.now();
    const reads = [];
    for (let round = 0; round < 5; round++) {
      reads.push(client.readRegisters('holding', 1, 40000, 3), client.readRegisters('holding', 7, 40000, 3));
    }
    const answers = await Promise.all(reads);
    const elapsed = performance.now() - started;
    expect(answers).toEqual(Array.from({ length: 10 }, () => SUNS));
    expect(client.counters).toMatchObject({ requests: 10, answered: 10, badFrames: 0, timeouts: 0 });
    // Paced at 9,600 baud 8N1: each exchange is 8 + 11 bytes on the wire (19.8 ms) and two t3.5 (3.6 ms each).
    expect(elapsed).toBeGreaterThanOrEqual(10 * (19 * (10 / 9.6) + 2 * 3.6) * 0.95);
    // A slave that is not on the line: silence, then the timeout; the next request still gets its answer.
    const missing = await client.readRegisters('holding', 9, 40000, 1).catch((e: unknown) => e);
    expect((missing as ModbusTransportError).kind).toBe('timeout');
    expect(await client.readRegisters('holding', 7, 40000, 3)).toEqual(SUNS);
    client.close();
  });
});
