/**
 * Query keys of the camera calls. Every key starts with `all`, so invalidating `all` refreshes them all;
 * other features use this factory, never a literal key.
 */
export const cameraKeys = {
  all: ['cameras'] as const,
  /** The newest still image of a camera, through the server's proxy. */
  snapshot: (id: number) => [...cameraKeys.all, 'snapshot', id] as const,
};
