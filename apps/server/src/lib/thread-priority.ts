import { readlinkSync } from 'node:fs';
import os from 'node:os';

/**
 * The id of the calling thread as the kernel knows it (Linux: /proc/thread-self is `<pid>/task/<tid>`), or
 * undefined where there is no such link.
 */
export function kernelThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Gives the calling thread alone a lower CPU priority (a higher nice value). On Linux a nice value is a
 * thread's, so a worker thread that builds files can yield the cores to the event loop whenever both want
 * one, without slowing the process's other threads. Lowering one's own priority needs no privilege.
 * Answers the nice value the thread now has, or undefined where the platform offers no per-thread priority
 * (the thread then runs at the process's priority, as before).
 */
export function lowerThreadPriority(nice: number): number | undefined {
  const tid = kernelThreadId();
  if (tid === undefined) return undefined;
  try {
    os.setPriority(tid, Math.max(os.getPriority(tid), nice));
    return os.getPriority(tid);
  } catch {
    return undefined;
  }
}
