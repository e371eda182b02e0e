import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { FileBuildPool, defaultFileBuildLimits } from './file-build-pool';
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
