import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { E } from '@solar/shared';
import { HttpError } from '../lib/http-errors';
import { FileBuildPool, defaultFileBuildLimits, type FileBuildPart } from './file-build-pool';
import { FILE_BUILD_THREAD_NICE } from './file-build-protocol';

/** Nice value of each of this process's threads (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The fields after the command name, which may itself hold spaces, start at field 3 (the state).
    out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[16]));
  }
  return out;
}

describe.runIf(process.platform === 'linux')('file-build threads', () => {
  const pool = new FileBuildPool({ ...defaultFileBuildLimits(), threads: 1, nice: FILE_BUILD_THREAD_NICE });
  afterAll(() => pool.close());

  it('run at a lower CPU priority than the event loop with FILE_BUILD_NICE=10, the event loop keeping its own', async () => {
    const before = threadNiceValues();
    const file = await pool.build(null, { kind: 'telemetry', format: 'csv', delimiter: 'comma' }, (send) =>
      send({
        series: {
          plant: 'Plant',
          signalId: 1,
          device: 'Inverter',
          signal: 'ac_power',
          unit: 'kW',
          timeZone: 'Europe/Istanbul',
          ts: new Float64Array([Date.parse('2026-01-01T00:00:00Z')]),
          value: new Float64Array([12.5]),
        },
      }),
    );
    expect(file.toString('utf8')).toContain('12.5');
    // The build's thread stays for the next build: it is the one thread that was not there before.
    const started = [...threadNiceValues()].filter(([tid]) => !before.has(tid));
    expect(started.map(([, nice]) => nice)).toContain(FILE_BUILD_THREAD_NICE);
    expect(threadNiceValues().get(process.pid)).toBe(before.get(process.pid));
  });

  it('keep the process’s priority by default (FILE_BUILD_NICE=0)', async () => {
    const even = new FileBuildPool({ ...defaultFileBuildLimits(), threads: 1 });
    try {
      const before = threadNiceValues();
      await even.build(null, { kind: 'telemetry', format: 'csv', delimiter: 'comma' }, () =>
        Promise.resolve(),
      );
      const started = [...threadNiceValues()].filter(([tid]) => !before.has(tid));
      expect(started.length).toBeGreaterThan(0);
      expect(started.map(([, nice]) => nice)).not.toContain(FILE_BUILD_THREAD_NICE);
    } finally {
      await even.close();
    }
  });
});

/** One signal's points as an export sends them: `points` five-minute values. */
function series(points: number): FileBuildPart {
  const ts = new Float64Array(points);
  const value = new Float64Array(points);
  for (let i = 0; i < points; i++) {
    ts[i] = Date.parse('2026-01-01T00:00:00Z') + i * 300_000;
    value[i] = 12.5 + (i % 97) / 7;
  }
  return {
    series: {
      plant: 'Plant',
      signalId: 1,
      device: 'Inverter',
      signal: 'ac_power',
      unit: 'kW',
      timeZone: 'Europe/Istanbul',
      ts,
      value,
    },
  };
}

describe('a file build past its thread’s heap limit', () => {
  // 48 MiB: the thread and a small file fit; two million points' lines of CSV do not.
  const pool = new FileBuildPool({ ...defaultFileBuildLimits(), threads: 1, heapMb: 48 });
  afterAll(() => pool.close());
  const csv = { kind: 'telemetry', format: 'csv', delimiter: 'comma' } as const;

  it('is answered 500 errors.fileTooLargeToBuild, and the next build gets a thread of its own and works', async () => {
    const failed = await pool
      .build(null, csv, (send) => send(series(2_000_000)))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failed).toBeInstanceOf(HttpError);
    expect(failed).toMatchObject({ status: 500, detail: E.fileTooLargeToBuild });
    expect((failed as Error).cause).toMatchObject({ code: 'ERR_WORKER_OUT_OF_MEMORY' });
    const file = await pool.build(null, csv, (send) => send(series(10)));
    expect(file.toString('utf8').split('\r\n').filter(Boolean)).toHaveLength(11);
  }, 120_000);
});
