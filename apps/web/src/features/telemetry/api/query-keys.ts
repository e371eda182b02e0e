/**
 * Query keys of the telemetry calls (the server's telemetry module). Every key starts with `all`, so
 * invalidating `all` refreshes them all; other features use this factory, never a literal key.
 */
export const telemetryKeys = {
  all: ['telemetry'] as const,
  /** The catalog: without a plant the reachable plants, with one also its devices and signals. */
  catalog: (plantId: number | null) => [...telemetryKeys.all, 'catalog', plantId] as const,
  /** Stored series of signals over a range, whatever the asking page's request looks like. */
  series: (request: object) => [...telemetryKeys.all, 'series', request] as const,
  /** The newest stored value of each signal of a device. */
  latest: (deviceId: number) => [...telemetryKeys.all, 'latest', deviceId] as const,
  /** The newest stored value of each signal of every device of a plant. */
  plantLatest: (plantId: number) => [...telemetryKeys.all, 'plant-latest', plantId] as const,
};
