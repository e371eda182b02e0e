import { describe, expect, it } from 'vitest';
import type { PointToStore } from '../../telemetry-store/telemetry-hub';
import { CommitBatcher } from './commit-batcher';

const point = (signal_id: number): PointToStore => ({ signal_id, ts: 1_780_000_000_000, value: signal_id });

/** A store that records each batch, fails those containing `failOn`, and can be held until released. */
function recordingStore(failOn?: number) {
  const batches: number[][] = [];
  let release: () => void = () => undefined;
  let held: Promise<void> | undefined;
  const store = async (points: PointToStore[]) => {
    batches.push(points.map((p) => p.signal_id));
    if (held) await held;
    if (points.some((p) => p.signal_id === failOn)) throw new Error('down');
  };
  const hold = () => {
    held = new Promise<void>((r) => (release = r));
    return () => {
      held = undefined;
      release();
    };
  };
  return { batches, store, hold };
}

describe('CommitBatcher', () => {
  it('sends a batch once it holds maxMessages messages, one store call for all of them', async () => {
    const { batches, store } = recordingStore();
    const batcher = new CommitBatcher(store, 60_000, 3);
    const a = batcher.enqueue([point(1), point(2)]);
    const b = batcher.enqueue([point(3)]);
    expect(batches).toEqual([]);
    expect(batcher.waitingMessages).toBe(2);
    const c = batcher.enqueue([point(4)]);
    await Promise.all([a, b, c]);
    expect(batches).toEqual([[1, 2, 3, 4]]);
  });

  it('sends a batch that is not full after the window', async () => {
    const { batches, store } = recordingStore();
    const batcher = new CommitBatcher(store, 20, 100);
    const started = performance.now();
    await Promise.all([batcher.enqueue([point(1)]), batcher.enqueue([point(2)])]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
    expect(batches).toEqual([[1, 2]]);
  });

  it('resolves no message before its batch is committed, and fills the next batch meanwhile', async () => {
    const { batches, store, hold } = recordingStore();
    const batcher = new CommitBatcher(store, 60_000, 2);
    const release = hold();
    let firstDone = false;
    const first = [batcher.enqueue([point(1)]), batcher.enqueue([point(2)])];
    void Promise.all(first).then(() => (firstDone = true));
    const second = [batcher.enqueue([point(3)]), batcher.enqueue([point(4)])];
    await new Promise((r) => setTimeout(r, 20));
    expect(firstDone).toBe(false);
    // The second batch waits for the first: stores run one at a time, in order.
    expect(batches).toEqual([[1, 2]]);
    release();
    await Promise.all([...first, ...second]);
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('keeps filling a batch whose window ended while another commits, and sends it whole after (group commit)', async () => {
    const { batches, store, hold } = recordingStore();
    const batcher = new CommitBatcher(store, 5, 100);
    const release = hold();
    const first = batcher.enqueue([point(1)]);
    await new Promise((r) => setTimeout(r, 20));
    expect(batches).toEqual([[1]]);
    const later = [batcher.enqueue([point(2)])];
    await new Promise((r) => setTimeout(r, 20));
    // Its window is over, but the store is busy: it takes more instead of queueing up.
    later.push(batcher.enqueue([point(3)]), batcher.enqueue([point(4)]));
    expect(batches).toEqual([[1]]);
    release();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('rejects every message of a batch that could not be stored, and goes on with the next', async () => {
    const { batches, store } = recordingStore(2);
    const batcher = new CommitBatcher(store, 60_000, 2);
    const failed = [batcher.enqueue([point(1)]), batcher.enqueue([point(2)])];
    for (const f of failed) await expect(f).rejects.toThrow('down');
    await Promise.all([batcher.enqueue([point(3)]), batcher.enqueue([point(4)])]);
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('flush sends what waits without waiting for the window', async () => {
    const { batches, store } = recordingStore();
    const batcher = new CommitBatcher(store, 60_000, 100);
    const queued = batcher.enqueue([point(7)]);
    await batcher.flush();
    await queued;
    expect(batches).toEqual([[7]]);
    expect(batcher.waitingMessages).toBe(0);
  });

  it('discards the batch not yet sent: its messages reject and nothing of it is stored', async () => {
    const { batches, store } = recordingStore();
    const batcher = new CommitBatcher(store, 60_000, 100);
    const queued = batcher.enqueue([point(8)]);
    batcher.discardWaiting();
    await expect(queued).rejects.toThrow('discarded');
    await batcher.flush();
    expect(batches).toEqual([]);
  });
});
