import { describe, expect, it } from 'vitest';
import type { PointToStore } from '../../telemetry-store/telemetry-hub';
import { PointBatcher } from './point-batcher';

const point = (signal_id: number): PointToStore => ({ signal_id, ts: 1_780_000_000_000, value: signal_id });

/** A store that records each batch it is given, and fails the batches that contain `failOn`. */
function recordingStore(failOn?: number) {
  const batches: number[][] = [];
  const store = (points: PointToStore[]) => {
    batches.push(points.map((p) => p.signal_id));
    return points.some((p) => p.signal_id === failOn) ? Promise.reject(new Error('down')) : Promise.resolve();
  };
  return { batches, store };
}

describe('PointBatcher', () => {
  it('with no interval, stores each enqueue as its own batch and resolves once it is stored', async () => {
    const { batches, store } = recordingStore();
    const batcher = new PointBatcher(store, 0, 5000);
    await batcher.enqueue([point(1), point(2)]);
    await batcher.enqueue([point(3)]);
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it('gathers points for the interval, and sends at once when the batch is full', async () => {
    const { batches, store } = recordingStore();
    const batcher = new PointBatcher(store, 20, 3);
    const first = batcher.enqueue([point(1)]);
    const second = batcher.enqueue([point(2)]);
    expect(batches).toEqual([]);
    await Promise.all([first, second]);
    expect(batches).toEqual([[1, 2]]);
    await batcher.enqueue([point(3), point(4), point(5)]);
    expect(batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('rejects the enqueue that sent a batch that could not be stored, and goes on with the next', async () => {
    const { batches, store } = recordingStore(2);
    const batcher = new PointBatcher(store, 0, 5000);
    await expect(batcher.enqueue([point(2)])).rejects.toThrow('not stored');
    await batcher.enqueue([point(3)]);
    expect(batches).toEqual([[2], [3]]);
  });

  it('flush stores what waits without waiting for the timer', async () => {
    const { batches, store } = recordingStore();
    const batcher = new PointBatcher(store, 60_000, 5000);
    const queued = batcher.enqueue([point(7)]);
    await batcher.flush();
    await queued;
    expect(batches).toEqual([[7]]);
  });
});
