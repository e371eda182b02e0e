/**
 * The Modbus poller's decisions, free of sockets, timers and SQL so that they can be tested alone: what a
 * poll's answers mean, how a device's communication state moves, when its status is worth writing, when
 * to poll next and which devices a reload stops or starts. modbus-poller.ts does the I/O around them.
 */
import type { DeviceStatusRow, PolledDevice } from '../collectors.repository';

/** The longest wait for one answer (ms), whatever the poll interval. */
export const MAX_READ_TIMEOUT_MS = 3000;
/** last_ok_at alone is written at most this often (ms): it changes on every answered poll. */
export const OK_AT_WRITE_INTERVAL_MS = 60_000;
/** First polls are spread over at most this much (ms), so that many devices do not all poll at once. */
export const FIRST_POLL_SPREAD_MS = 1000;

/** What one read of a poll came back with. */
export type ReadResult =
  | { kind: 'registers'; registers: number[] }
  /** The device answered with a Modbus exception: it is there and refused this range. */
  | { kind: 'exception' }
  /** No answer (timeout, connection refused or reset): the rest of the poll is skipped. */
  | { kind: 'transport'; error: Error }
  /** Not read, because an earlier read had no answer or the poller is stopping. */
  | { kind: 'skipped' };

/** A whole poll judged: answered (with how many ranges were refused), or missed with why. */
export type PollOutcome = { answered: true; exceptions: number } | { answered: false; error: string };

/**
 * A poll is missed when the connection failed, or when every read answered an exception (nothing came
 * back); refused ranges beside answered ones still make it answered.
 */
export function judgePoll(results: readonly ReadResult[]): PollOutcome {
  const transport = results.find((r) => r.kind === 'transport');
  if (transport) return { answered: false, error: transport.error.message };
  const exceptions = results.filter((r) => r.kind === 'exception').length;
  if (results.length > 0 && exceptions === results.length) {
    return { answered: false, error: 'every read answered an exception' };
  }
  return { answered: true, exceptions };
}

/** The registers of each read, undefined where none came back (what decodePoll takes). */
export function answersOf(results: readonly ReadResult[]): (number[] | undefined)[] {
  return results.map((r) => (r.kind === 'registers' ? r.registers : undefined));
}

/**
 * The status change a poll makes: an answered poll makes the device online and resets the count;
 * `missedPollsForLoss` missed polls in a row make it lost (before that its state stays as it was).
 */
export function statusAfterPoll(
  status: DeviceStatusRow,
  outcome: PollOutcome,
  at: number,
  missedPollsForLoss: number,
): Partial<DeviceStatusRow> {
  if (outcome.answered) return { missed_polls: 0, last_ok_at: at, last_error: null, comm_state: 'online' };
  const missed = status.missed_polls + 1;
  return {
    missed_polls: missed,
    last_error: outcome.error,
    comm_state: missed >= missedPollsForLoss ? 'lost' : status.comm_state,
  };
}

/** The change a device makes when it is no longer polled: its state is not known any more. */
export const NOT_POLLED: Partial<DeviceStatusRow> = { comm_state: 'unknown', missed_polls: 0 };

/** The status after a change, and whether its communication state changed (changed_at moves only then). */
export function applyStatus(
  previous: DeviceStatusRow,
  change: Partial<DeviceStatusRow>,
  at: number,
): { status: DeviceStatusRow; stateChanged: boolean } {
  const status: DeviceStatusRow = { ...previous, ...change };
  const stateChanged = status.comm_state !== previous.comm_state;
  if (stateChanged) status.changed_at = at;
  return { status, stateChanged };
}

/**
 * Whether the new status is worth a write: when something an alarm or an operator reads changes, and
 * last_ok_at alone at most once per OK_AT_WRITE_INTERVAL_MS after the last written one.
 */
export function statusWorthWriting(
  previous: DeviceStatusRow,
  status: DeviceStatusRow,
  writtenOkAt: number | null,
): boolean {
  return (
    status.comm_state !== previous.comm_state ||
    status.missed_polls !== previous.missed_polls ||
    status.last_error !== previous.last_error ||
    (status.last_ok_at !== null &&
      (writtenOkAt === null || status.last_ok_at - writtenOkAt >= OK_AT_WRITE_INTERVAL_MS))
  );
}

/** The status of a device seen for the first time. */
export function initialStatus(deviceId: number, at: number): DeviceStatusRow {
  return {
    device_id: deviceId,
    comm_state: 'unknown',
    missed_polls: 0,
    last_ok_at: null,
    last_error: null,
    changed_at: at,
  };
}

/** Wait for each answer (ms): the configured one, else the poll interval but at most MAX_READ_TIMEOUT_MS. */
export function readTimeoutMs(pollIntervalS: number, configuredMs?: number): number {
  return configuredMs ?? Math.min(MAX_READ_TIMEOUT_MS, pollIntervalS * 1000);
}

/** Delay (ms) to a device's first poll: `random01` (0 ≤ r < 1) of the interval, at most FIRST_POLL_SPREAD_MS. */
export function firstPollDelayMs(pollIntervalS: number, random01: number): number {
  return Math.floor(random01 * Math.min(pollIntervalS * 1000, FIRST_POLL_SPREAD_MS));
}

/** Delay (ms) to the next poll: one interval after the last one started, at once when it took longer. */
export function nextPollDelayMs(pollIntervalS: number, startedAt: number, now: number): number {
  return Math.max(0, pollIntervalS * 1000 - (now - startedAt));
}

/** What identifies a device's polling set-up: any change to it (address, map, interval) restarts its loop. */
export const deviceFingerprint = (device: PolledDevice): string => JSON.stringify(device);

/** Which loops a reload stops, and which devices it starts polling. */
export interface ReloadPlan {
  /** Loops to stop; `gone` when the device is not polled any more (rather than changed). */
  stop: { deviceId: number; gone: boolean }[];
  /** Devices without a loop after the stops: new ones and changed ones. */
  start: PolledDevice[];
}

/** Compares the running loops (device id → fingerprint) with the devices to poll now. */
export function planReload(
  running: ReadonlyMap<number, string>,
  wanted: readonly PolledDevice[],
): ReloadPlan {
  const byId = new Map(wanted.map((d) => [d.id, d]));
  const stop: ReloadPlan['stop'] = [];
  for (const [deviceId, fingerprint] of running) {
    const next = byId.get(deviceId);
    if (next && deviceFingerprint(next) === fingerprint) continue;
    stop.push({ deviceId, gone: !next });
  }
  const kept = (id: number) => running.has(id) && !stop.some((s) => s.deviceId === id);
  return { stop, start: wanted.filter((d) => !kept(d.id)) };
}
