/**
 * Query keys of the performance calls. Every key starts with `all`; other features invalidate through this
 * factory, never a literal key.
 */
export const performanceKeys = {
  all: ['performance'] as const,
  /** A plant's degradation, soiling and cleaning payback. */
  plant: (plantId: number) => [...performanceKeys.all, 'plant', plantId] as const,
  /** A plant's expected-power model parameters. */
  model: (plantId: number) => [...performanceKeys.all, 'model', plantId] as const,
};
