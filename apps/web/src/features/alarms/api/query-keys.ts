/**
 * Query keys of the alarm calls. Every key starts with `all`, so invalidating `all` refreshes them all
 * (the list and the header badge); other features use this factory, never a literal key.
 */
export const alarmKeys = {
  all: ['alarms'] as const,
  list: () => [...alarmKeys.all, 'list'] as const,
  substation: () => [...alarmKeys.all, 'substation'] as const,
  /** The active alarms of the user's scope by priority (the header badge). */
  activeCounts: () => [...alarmKeys.all, 'activeCounts'] as const,
  /** The newest alarms of one device (a device page's history). */
  device: (deviceId: number) => [...alarmKeys.all, 'device', deviceId] as const,
  /** Every alarm of one plant. */
  plant: (plantId: number) => [...alarmKeys.all, 'plant', plantId] as const,
};
