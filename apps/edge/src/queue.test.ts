import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReadingQueue } from './queue';

const dirs: string[] = [];
const fileIn = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'edge-queue-'));
  dirs.push(dir);
  return path.join(dir, 'queue.sqlite');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const reading = (ts: number, signal_id = 1) => ({ signal_id, ts, value: ts / 1000 });

describe('the durable reading queue', () => {
  it('hands readings out in reading-time order, whatever order they were pushed in', () => {
    const q = new ReadingQueue(fileIn(), { maxRows: 100 });
    q.push([reading(3000), reading(1000, 2)]);
    q.push([reading(2000), reading(1000, 1)]);
    expect(q.oldest(10).map((r) => [r.ts, r.signal_id])).toEqual([
      [1000, 2],
      [1000, 1],
      [2000, 1],
      [3000, 1],
    ]);
    expect(q.oldest(2).map((r) => r.ts)).toEqual([1000, 1000]);
    expect(q.oldest(10, 2000).map((r) => r.ts)).toEqual([1000, 1000]);
    expect(q.since(2000, 10).map((r) => r.ts)).toEqual([2000, 3000]);
    expect(q.oldestTs()).toBe(1000);
    q.close();
  });

  it('reads the batch after a batch still on the wire, without repeating or skipping a reading', () => {
    const q = new ReadingQueue(fileIn(), { maxRows: 100 });
    // Two readings of one time, so that the cursor must tell them apart by sequence too.
    q.push([reading(1000, 1), reading(1000, 2), reading(2000, 1), reading(2000, 2), reading(3000, 1)]);
    const first = q.oldest(3, 3000);
    const second = q.oldest(3, 3000, first.at(-1));
    expect(first.map((r) => [r.ts, r.signal_id])).toEqual([
      [1000, 1],
      [1000, 2],
      [2000, 1],
    ]);
    expect(second.map((r) => [r.ts, r.signal_id])).toEqual([[2000, 2]]);
    expect(q.oldest(3, 3000, second.at(-1))).toEqual([]);
    // Acknowledged out of order, as two batches on the wire may be.
    q.ack(second);
    q.ack(first);
    expect(q.depth).toBe(1);
    expect(q.oldest(10).map((r) => r.ts)).toEqual([3000]);
    q.close();
  });

  it('removes only the acknowledged readings, and counts the ones the console refused', () => {
    const q = new ReadingQueue(fileIn(), { maxRows: 100 });
    q.push([1, 2, 3, 4, 5].map((s) => reading(s * 1000)));
    const batch = q.oldest(2);
    // A reading pushed while the batch was on the wire is not part of its acknowledgement.
    q.push([reading(500)]);
    q.ack(batch, 1);
    expect(q.depth).toBe(4);
    expect(q.oldest(10).map((r) => r.ts)).toEqual([500, 3000, 4000, 5000]);
    expect(q.counter('rejected_total')).toBe(1);
    // Acknowledging the same batch again (an answer that came twice) removes nothing more.
    q.ack(batch);
    expect(q.depth).toBe(4);
    q.close();
  });

  it('keeps its bound by dropping the oldest readings, and counts them', () => {
    const q = new ReadingQueue(fileIn(), { maxRows: 5 });
    q.push([1, 2, 3].map((s) => reading(s * 1000)));
    q.push([4, 5, 6, 7].map((s) => reading(s * 1000)));
    expect(q.depth).toBe(5);
    expect(q.oldest(10).map((r) => r.ts)).toEqual([3000, 4000, 5000, 6000, 7000]);
    expect(q.counter('dropped_total')).toBe(2);
    q.push([reading(8000)]);
    expect(q.counter('dropped_total')).toBe(3);
    expect(q.oldestTs()).toBe(4000);
    q.close();
  });

  it('keeps its readings and counts across a reopen, and only unacknowledged ones', () => {
    const file = fileIn();
    const first = new ReadingQueue(file, { maxRows: 3, journal: true });
    first.push([1, 2, 3, 4].map((s) => reading(s * 1000)));
    first.ack(first.oldest(1), 1);
    first.close();
    const again = new ReadingQueue(file, { maxRows: 3 });
    expect(again.depth).toBe(2);
    expect(again.oldest(10).map((r) => r.ts)).toEqual([3000, 4000]);
    expect(again.counter('dropped_total')).toBe(1);
    expect(again.counter('rejected_total')).toBe(1);
    expect(again.counter('queued_total')).toBe(4);
    expect(again.journalEntries()).toHaveLength(4);
    again.close();
  });
});
