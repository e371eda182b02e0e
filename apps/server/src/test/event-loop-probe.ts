import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;
const PROBE_MS = 5;

/** The process's main thread's CPU time (user and system), ms, from /proc; null where there is no /proc. */
function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // The fields after the command's name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
  } catch {
    return null;
  }
}

/**
 * The longest time the event loop was held while `work` ran, ms: how late a 5 ms timer ran, counted only as
 * far as the main thread itself used the CPU meanwhile. On a machine whose cores are shared with other busy
 * processes a timer is also late when the operating system runs them instead, which is no block of ours; the
 * main thread's own CPU time (the SQLite reads, the JSON, the copies to a thread) is what other requests
 * wait for. Without /proc the lateness alone is counted.
 */
export async function longestEventLoopBlockMs<T>(
  work: () => Promise<T>,
): Promise<{ result: T; blockMs: number }> {
  let lastWall = performance.now();
  let lastCpu = mainThreadCpuMs();
  let blockMs = 0;
  const timer = setInterval(() => {
    const wall = performance.now();
    const cpu = mainThreadCpuMs();
    const late = wall - lastWall - PROBE_MS;
    const held = cpu === null || lastCpu === null ? late : Math.min(late, cpu - lastCpu);
    blockMs = Math.max(blockMs, held);
    lastWall = wall;
    lastCpu = cpu;
  }, PROBE_MS);
  try {
    return { result: await work(), blockMs };
  } finally {
    clearInterval(timer);
  }
}
