import type { DataQualityProblemsQuery } from '@solar/shared';

/**
 * Query keys of the data-quality calls. Every key starts with `all`: accepting a flag or rerunning a day
 * invalidates `all`, so the plant's card, the inverter's and the admin list refresh together.
 */
export const dataQualityKeys = {
  all: ['data-quality'] as const,
  plant: (plantId: number, from: string | null, to: string | null) =>
    [...dataQualityKeys.all, 'plant', plantId, from, to] as const,
  device: (deviceId: number, from: string | null, to: string | null) =>
    [...dataQualityKeys.all, 'device', deviceId, from, to] as const,
  problems: (query: DataQualityProblemsQuery) => [...dataQualityKeys.all, 'problems', query] as const,
};
