import { useEffect, useRef } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useLiveValues } from '../../../lib/live-stream';
import { useAlarmEvents } from '../../alarms';
import { catalogQueryOptions } from '../../telemetry';
import { plantKeys } from '../api/query-keys';

/** Fewest milliseconds between two overview refreshes caused by live events. */
const REFRESH_MIN_MS = 3_000;
/**
 * Up to this many plants, the page follows their signals over the stream (one catalog call per plant
 * names them). A larger fleet is refreshed on a timer instead: a catalog call per plant would be thousands
 * of requests for a portfolio map.
 */
const LIVE_PLANT_LIMIT = 50;
/** Refresh period of a fleet too large to follow signal by signal, and the safety net of a small one. */
const POLL_MS = 30_000;
/** The signals whose changes move the overview's figures: inverter AC power and the energy counters. */
const LIVE_KEYS = new Set(['ac_power', 'total_energy', 'export_energy']);

/**
 * Keeps the plants overview current without a reload: watches the plants' power and counter signals and
 * every alarm event over the tab's stream, and refetches the overview at most every few seconds (the
 * server derives status, PR and energy, so the page does not recompute them).
 */
export function useLiveOverview(plantIds: readonly number[]): void {
  const client = useQueryClient();
  // The catalog names every signal, also those that have not reported yet.
  const followed = plantIds.length <= LIVE_PLANT_LIMIT ? plantIds : [];
  const watched = useQueries({
    queries: followed.map((id) => catalogQueryOptions(id)),
    combine: (results) =>
      results.flatMap((r) =>
        (r.data?.devices ?? []).flatMap((d) =>
          d.signals.filter((s) => LIVE_KEYS.has(s.key)).map((s) => s.id),
        ),
      ),
  });
  const live = useLiveValues(watched);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const last = useRef(0);

  const refresh = useRef(() => {
    if (timer.current) return;
    const wait = Math.max(0, last.current + REFRESH_MIN_MS - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      void client.invalidateQueries({ queryKey: plantKeys.overview() });
    }, wait);
  });

  useEffect(() => {
    // Values older than the overview's answer are already in it; newer ones are news.
    const fetchedAt = client.getQueryState(plantKeys.overview())?.dataUpdatedAt ?? 0;
    for (const v of live.values())
      if (v.ts > fetchedAt) {
        refresh.current();
        return;
      }
  }, [live, client]);

  useAlarmEvents(() => refresh.current());

  useEffect(() => {
    const timer = setInterval(() => refresh.current(), POLL_MS);
    return () => clearInterval(timer);
  }, []);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
}
