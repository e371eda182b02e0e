/**
 * Query keys of the single-line calls. Every key starts with `all`, so invalidating `all` refreshes them all;
 * other features use this factory, never a literal key.
 */
export const singleLineKeys = {
  all: ['single-line'] as const,
  /** GET plants/{id}/topology. */
  topology: (plantId: number) => [...singleLineKeys.all, 'topology', plantId] as const,
  /** The automatic (elkjs) layout of a graph shape; positions do not change it. */
  layout: (plantId: number, shape: string) => [...singleLineKeys.all, 'layout', plantId, shape] as const,
};
