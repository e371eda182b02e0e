import type { SignalMeta } from './telemetry-store.repository';

/**
 * The one door telemetry goes through on its way in, and the feed of what got stored. Collectors (HTTP,
 * MQTT, Modbus, the in-process simulator) call `store`; live push (SSE) and the alarm engine listen with
 * `onStored`. Points given to `store` are already resolved to signal ids and checked (finite values,
 * signals that exist); scoping and key checks are the caller's business.
 */
export interface PointToStore {
  signal_id: number;
  /** Epoch milliseconds, UTC. */
  ts: number;
  value: number;
}

/** A point that was new to the database, with where it belongs. */
export interface StoredPoint extends PointToStore {
  device_id: number;
  plant_id: number;
}

export interface StoreResult {
  /** Points written for the first time. */
  inserted: number;
  /** Points that were already stored with the same (signal, ts): idempotent, not written again. */
  duplicates: number;
  /** Of `duplicates`, those whose value differs from the stored one (the stored value is kept). */
  conflicting: number;
}

/** Optional help for `store` from a caller that has already read the points' signals. */
export interface StoreOptions {
  /** Every signal of the points, as loadSignalMeta answers it: spares the store a second read. */
  meta?: ReadonlyMap<number, SignalMeta>;
  /**
   * The points are StoredPoints already, their device and plant those of `meta`: the listeners are handed
   * the inserted ones as they are instead of a copy of each (10,000 objects a batch).
   */
  placed?: boolean;
}

export interface TelemetryHub {
  store(points: readonly PointToStore[], options?: StoreOptions): Promise<StoreResult>;
  /** Called after each committed batch with the points it inserted; returns the unsubscribe function. */
  onStored(listener: (points: readonly StoredPoint[]) => void): () => void;
}
