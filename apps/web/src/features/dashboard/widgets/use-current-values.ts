import { useMemo } from 'react';
import { useLiveValues, type LiveValue } from '../../../lib/live-stream';
import { usePlantLatest } from '../../telemetry';

/**
 * The newest value of each signal: the stored latest value of the plant until the live stream brings a
 * newer one. Answers also whether the stored values are still loading or failed.
 */
export function useCurrentValues(plantId: number, signalIds: readonly number[]) {
  const latest = usePlantLatest(plantId);
  const live = useLiveValues(signalIds);
  const values = useMemo(() => {
    const map = new Map<number, LiveValue>();
    const wanted = new Set(signalIds);
    for (const v of latest.data ?? [])
      if (wanted.has(v.signal_id)) map.set(v.signal_id, { ts: Date.parse(v.ts), value: v.value });
    for (const [id, v] of live) {
      const known = map.get(id);
      if (!known || v.ts >= known.ts) map.set(id, v);
    }
    return map;
  }, [latest.data, live, signalIds]);
  return { values, isLoading: latest.isLoading, isError: latest.isError, refetch: latest.refetch };
}
