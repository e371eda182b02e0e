/**
 * Query keys of the inverter calls. Every key starts with `all`, so invalidating `all` refreshes them all;
 * other features use this factory, never a literal key.
 */
export const inverterKeys = {
  all: ['inverters'] as const,
  /** GET inverters/{id}/summary for a local day (null: today). */
  summary: (id: number, date: string | null) => [...inverterKeys.all, 'summary', id, date] as const,
  /** GET devices/{id}/strings for a local day. */
  strings: (id: number, date: string) => [...inverterKeys.all, 'strings', id, date] as const,
};
