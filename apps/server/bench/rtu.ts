/**
 * bench:rtu — Modbus RTU polls per second on one bus, at 9,600 and at 115,200 baud, through the poller's
 * RTU master (@solar/modbus) over a pair of virtual serial ports (socat) to the simulator's RTU
 * slaves. Two slave ids on the bus, read in turn, one request at a time, each a read of BENCH_REGISTERS
 * holding registers (10: a typical block of an inverter's map).
 *
 * socat's ports move bytes at memory speed whatever baud rate they are set to, so the slaves answer
 * "paced": after the time the request and the answer would take on a real line at that baud rate (8N1,
 * 10 bits a character) and the t3.5 silence; the master keeps its own t3.5 before each request. The
 * paced figure is what a real bus allows; the unpaced one is the master's own cost (framing, timers).
 * Prints figures; asserts nothing. Needs socat (apt-get install socat).
 *   BENCH_SECONDS (5) per run   BENCH_REGISTERS (10)   BENCH_BAUDS (9600,115200)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSunSpecServer } from '@solar/simulator';
import {
  interFrameSilenceMs,
  readAnswerBytes,
  RtuBus,
  SerialRtuTransport,
  transmissionTimeMs,
} from '@solar/modbus';
import { recordFigure } from './report';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const REGISTERS = Number(process.env.BENCH_REGISTERS ?? 10);
const BAUDS = (process.env.BENCH_BAUDS ?? '9600,115200').split(',').map(Number);
const UNITS = [1, 2];

async function socatPair(): Promise<{ a: string; b: string; stop(): void }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-rtu-'));
  const [a, b] = [path.join(dir, 'a'), path.join(dir, 'b')];
  const child = spawn('socat', [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], { stdio: 'ignore' });
  for (let i = 0; i < 100 && !(existsSync(a) && existsSync(b)); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!existsSync(a) || !existsSync(b)) throw new Error('socat made no virtual ports');
  return {
    a,
    b,
    stop() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls per second over one bus at `baudRate`, the slaves paced or not. */
async function run(baudRate: number, paced: boolean): Promise<{ pollsPerS: number; failed: number }> {
  const pair = await socatPair();
  const line = { baudRate };
  const sim = await startSunSpecServer({
    units: UNITS.map((unitId) => ({
      unitId,
      kind: 'inverter' as const,
      manufacturer: 'Bench',
      model: 'RTU',
      serial: `B${unitId}`,
      ratedPowerW: 100_000,
    })),
    transport: { kind: 'rtu-serial', path: pair.b, line, paceLine: paced },
  });
  const bus = new RtuBus({
    transport: new SerialRtuTransport({ path: pair.a, ...line }),
    line,
    timeoutMs: 500,
    retries: 1,
  });
  try {
    // Open the port and warm up.
    for (const unit of UNITS) await bus.readRegisters('holding', unit, 40000, REGISTERS);
    let polls = 0;
    let failed = 0;
    const end = performance.now() + SECONDS * 1000;
    const started = performance.now();
    while (performance.now() < end) {
      for (const unit of UNITS) {
        try {
          await bus.readRegisters('holding', unit, 40000, REGISTERS);
          polls++;
        } catch {
          failed++;
        }
      }
    }
    const elapsedS = (performance.now() - started) / 1000;
    return { pollsPerS: polls / elapsedS, failed };
  } finally {
    bus.close();
    await sim.close();
    pair.stop();
  }
}

async function main(): Promise<void> {
  if (spawnSync('socat', ['-V']).error) {
    console.error('bench:rtu needs socat (apt-get install socat)');
    process.exit(1);
  }
  console.log(
    `Modbus RTU, one bus, ${UNITS.length} slaves in turn, reads of ${REGISTERS} registers, ${SECONDS} s per run`,
  );
  for (const baudRate of BAUDS) {
    const line = { baudRate };
    const exchangeMs =
      transmissionTimeMs(line, 8) +
      transmissionTimeMs(line, readAnswerBytes(REGISTERS)) +
      2 * interFrameSilenceMs(line);
    const paced = await run(baudRate, true);
    const unpaced = await run(baudRate, false);
    console.log(
      `${String(baudRate).padStart(6)} baud: ${paced.pollsPerS.toFixed(1)} polls/s paced as the line ` +
        `(a line's ceiling ${(1000 / exchangeMs).toFixed(1)}/s: ${exchangeMs.toFixed(2)} ms a request and answer ` +
        `with two t3.5 of ${interFrameSilenceMs(line).toFixed(2)} ms), ${unpaced.pollsPerS.toFixed(1)} polls/s unpaced; ` +
        `failed ${paced.failed + unpaced.failed}`,
    );
    const params = { baud: baudRate, registers: REGISTERS, slaves: UNITS.length, seconds: SECONDS };
    recordFigure({
      bench: 'rtu',
      database: 'none',
      name: `rtu_${baudRate}_baud_polls_per_s`,
      value: Number(paced.pollsPerS.toFixed(1)),
      unit: 'polls/s',
      params,
    });
    recordFigure({
      bench: 'rtu',
      database: 'none',
      name: `rtu_${baudRate}_baud_unpaced_polls_per_s`,
      value: Number(unpaced.pollsPerS.toFixed(1)),
      unit: 'polls/s',
      params,
    });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
