import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { alarmEventSchema, SUBSTATION_DEVICE_TYPES, type AlarmEvent, type AlarmRecord } from '@solar/shared';
import { liveStream, useLiveStatus, type LiveStatus } from '../../../lib/live-stream';
import { alarmKeys } from './query-keys';

/** Calls the listener with each alarm event pushed over the tab's live stream (SSE event `alarm`). */
export function useAlarmEvents(listener: (event: AlarmEvent) => void, enabled = true): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  }, [listener]);
  useEffect(() => {
    if (!enabled) return undefined;
    return liveStream.on('alarm', (data) => {
      const parsed = alarmEventSchema.safeParse(data);
      if (parsed.success) latest.current(parsed.data);
    });
  }, [enabled]);
}

/** The list with the alarm put in: replaced where it is, otherwise added and the list kept newest first. */
export function mergeAlarm(list: readonly AlarmRecord[], alarm: AlarmRecord): AlarmRecord[] {
  const at = list.findIndex((a) => a.id === alarm.id);
  if (at >= 0) return list.map((a, i) => (i === at ? alarm : a));
  return [alarm, ...list].sort((a, b) => Date.parse(b.started_at) - Date.parse(a.started_at) || b.id - a.id);
}

/**
 * True when the alarm names more consequences than the list holds under it: a cause raised after its
 * consequences took them under it (docs/architecture.md, "Alarm groups"), and their records changed
 * without an event of their own, so the list is read again.
 */
export function takesListedAlarms(list: readonly AlarmRecord[], alarm: AlarmRecord): boolean {
  if (alarm.consequence_count === 0) return false;
  return list.filter((a) => a.cause_alarm_id === alarm.id).length < alarm.consequence_count;
}

const isSubstation = (alarm: AlarmRecord) =>
  alarm.device_type !== null && (SUBSTATION_DEVICE_TYPES as readonly string[]).includes(alarm.device_type);

/**
 * Keeps the alarm list current without a reload: pushed events are merged into the cached list; while the
 * list is being fetched, or after the live connection was (re)opened or the server announced a `resync`
 * (events may have been missed), the list is fetched again instead. A substation alarm event refreshes the
 * header's counts too. Answers the connection's state.
 */
export function useLiveAlarmList(): LiveStatus {
  const client = useQueryClient();
  useAlarmEvents((event) => {
    const state = client.getQueryState(alarmKeys.list());
    if (
      !state ||
      state.fetchStatus === 'fetching' ||
      state.data === undefined ||
      takesListedAlarms(state.data as AlarmRecord[], event.alarm)
    )
      void client.invalidateQueries({ queryKey: alarmKeys.list() });
    else client.setQueryData<AlarmRecord[]>(alarmKeys.list(), (list) => mergeAlarm(list ?? [], event.alarm));
    if (isSubstation(event.alarm)) void client.invalidateQueries({ queryKey: alarmKeys.substation() });
    void client.invalidateQueries({ queryKey: alarmKeys.activeCounts() });
  });
  // The server node missed events from the other nodes for a while (docs/operations.md, "Several nodes"):
  // read the lists again.
  useEffect(
    () =>
      liveStream.on('resync', () => {
        void client.invalidateQueries({ queryKey: alarmKeys.list() });
        void client.invalidateQueries({ queryKey: alarmKeys.substation() });
        void client.invalidateQueries({ queryKey: alarmKeys.activeCounts() });
      }),
    [client],
  );
  const status = useLiveStatus();
  const wasOpen = useRef(false);
  useEffect(() => {
    if (status === 'open' && wasOpen.current === false) {
      wasOpen.current = true;
      void client.invalidateQueries({ queryKey: alarmKeys.list() });
    } else if (status !== 'open') wasOpen.current = false;
  }, [status, client]);
  return status;
}
