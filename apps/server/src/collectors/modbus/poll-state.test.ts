import { describe, expect, it } from 'vitest';
import type { DeviceStatusRow, PolledDevice } from '../collectors.repository';
import {
  answersOf,
  applyStatus,
  deviceFingerprint,
  firstPollDelayMs,
  initialStatus,
  judgePoll,
  nextPollDelayMs,
  planReload,
  readTimeoutMs,
  statusAfterPoll,
  statusWorthWriting,
  type ReadResult,
} from './poll-state';

const T0 = Date.UTC(2026, 5, 1, 12);
const status = (over: Partial<DeviceStatusRow> = {}): DeviceStatusRow => ({
  ...initialStatus(7, T0),
  ...over,
});
const registers = (...values: number[]): ReadResult => ({ kind: 'registers', registers: values });
const device = (id: number, over: Partial<PolledDevice> = {}): PolledDevice => ({
  id,
  plant_id: 1,
  name: `inv ${id}`,
  ip: '10.0.0.1',
  port: 502,
  slave_id: 1,
  poll_interval_s: 10,
  signals: [],
  bounds: {},
  ...over,
});

describe('judgePoll', () => {
  it('answers a poll in which at least one range came back, counting the refused ones', () => {
    expect(judgePoll([registers(1), { kind: 'exception' }])).toEqual({ answered: true, exceptions: 1 });
    expect(judgePoll([])).toEqual({ answered: true, exceptions: 0 });
  });

  it('misses a poll without a connection, or in which every range was refused', () => {
    const reset = new Error('read ECONNRESET');
    expect(judgePoll([registers(1), { kind: 'transport', error: reset }, { kind: 'skipped' }])).toEqual({
      answered: false,
      error: 'read ECONNRESET',
    });
    expect(judgePoll([{ kind: 'exception' }, { kind: 'exception' }])).toEqual({
      answered: false,
      error: 'every read answered an exception',
    });
  });

  it('hands decodePoll the registers by position, undefined where none came back', () => {
    expect(answersOf([registers(1, 2), { kind: 'exception' }, { kind: 'skipped' }])).toEqual([
      [1, 2],
      undefined,
      undefined,
    ]);
  });
});

describe('communication state', () => {
  it('becomes lost on the third missed poll in a row, and online again on one answered poll', () => {
    const missed = { answered: false, error: 'timeout' } as const;
    let s = status({ comm_state: 'online', last_ok_at: T0 });
    for (const [n, expected] of [
      [1, 'online'],
      [2, 'online'],
      [3, 'lost'],
      [4, 'lost'],
    ] as const) {
      s = applyStatus(s, statusAfterPoll(s, missed, T0 + n * 1000, 3), T0 + n * 1000).status;
      expect([s.missed_polls, s.comm_state]).toEqual([n, expected]);
    }
    expect(s.changed_at).toBe(T0 + 3000);
    expect(s.last_error).toBe('timeout');
    const back = applyStatus(
      s,
      statusAfterPoll(s, { answered: true, exceptions: 0 }, T0 + 9000, 3),
      T0 + 9000,
    );
    expect(back.stateChanged).toBe(true);
    expect(back.status).toEqual({
      device_id: 7,
      comm_state: 'online',
      missed_polls: 0,
      last_ok_at: T0 + 9000,
      last_error: null,
      changed_at: T0 + 9000,
    });
  });

  it('keeps changed_at when the state stays the same', () => {
    const s = status({ comm_state: 'online', changed_at: T0 });
    const next = applyStatus(s, { last_ok_at: T0 + 5000 }, T0 + 5000);
    expect(next.stateChanged).toBe(false);
    expect(next.status.changed_at).toBe(T0);
  });

  it('writes what alarms and operators read at once, and last_ok_at alone once a minute', () => {
    const s = status({ comm_state: 'online', last_ok_at: T0 });
    const okLater = (ms: number) => ({ ...s, last_ok_at: T0 + ms });
    expect(statusWorthWriting(s, okLater(59_999), T0)).toBe(false);
    expect(statusWorthWriting(s, okLater(60_000), T0)).toBe(true);
    expect(statusWorthWriting(s, okLater(1000), null)).toBe(true);
    expect(statusWorthWriting(s, { ...s, missed_polls: 1 }, T0)).toBe(true);
    expect(statusWorthWriting(s, { ...s, last_error: 'timeout' }, T0)).toBe(true);
    expect(statusWorthWriting(s, { ...s, comm_state: 'lost' }, T0)).toBe(true);
  });
});

describe('scheduling', () => {
  it('waits for answers as long as the poll interval, at most 3 s, unless configured', () => {
    expect(readTimeoutMs(1)).toBe(1000);
    expect(readTimeoutMs(60)).toBe(3000);
    expect(readTimeoutMs(60, 250)).toBe(250);
  });

  it('spreads first polls over at most 1 s and keeps one interval between poll starts', () => {
    expect(firstPollDelayMs(10, 0)).toBe(0);
    expect(firstPollDelayMs(10, 0.999)).toBe(999);
    expect(nextPollDelayMs(10, T0, T0 + 1500)).toBe(8500);
    // A poll that took longer than the interval: the next one at once.
    expect(nextPollDelayMs(10, T0, T0 + 12_000)).toBe(0);
  });
});

describe('planReload', () => {
  it('keeps unchanged loops, restarts changed ones, stops gone ones and starts new ones', () => {
    const kept = device(1);
    const changed = device(2);
    const running = new Map([
      [1, deviceFingerprint(kept)],
      [2, deviceFingerprint(changed)],
      [3, deviceFingerprint(device(3))],
    ]);
    const moved = device(2, { ip: '10.0.0.2' });
    const added = device(4);
    expect(planReload(running, [kept, moved, added])).toEqual({
      stop: [
        { deviceId: 2, gone: false },
        { deviceId: 3, gone: true },
      ],
      start: [moved, added],
    });
  });
});
