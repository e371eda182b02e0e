import { queryOptions, useQuery } from '@tanstack/react-query';
import { telemetryCatalogAnswer, type TelemetryCatalogAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { telemetryKeys } from './query-keys';

/**
 * GET telemetry/catalog[?plant_id=]: the plants the user reaches, and with a plant its devices and their
 * signals. Needs only dashboard view, unlike the management lists, so every page that lets users pick a
 * signal (data, custom alarms, faults) reads it.
 */
export async function getCatalog(
  plantId: number | null,
  signal?: AbortSignal,
): Promise<TelemetryCatalogAnswer> {
  const path = plantId === null ? 'telemetry/catalog' : `telemetry/catalog?plant_id=${plantId}`;
  return telemetryCatalogAnswer.parse(await api.get<unknown>(path, { signal }));
}

/** The catalog answer, cached as the server gave it; the hooks below select their part of it. */
export const catalogQueryOptions = (plantId: number | null) =>
  queryOptions({
    queryKey: telemetryKeys.catalog(plantId),
    queryFn: ({ signal }) => getCatalog(plantId, signal),
  });

/** The active plants the user reaches, by name; idle while `enabled` is false. */
export const useCatalogPlants = (enabled = true) =>
  useQuery({ ...catalogQueryOptions(null), select: (answer) => answer.plants, enabled });

/** The active devices of the chosen plant with their active signals; nothing until a plant is chosen. */
export const usePlantCatalog = (plantId: number | null | undefined) =>
  useQuery({
    ...catalogQueryOptions(plantId ?? null),
    select: (answer) => answer.devices ?? [],
    enabled: !!plantId,
  });
