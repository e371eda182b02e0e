import { queryOptions, useQuery } from '@tanstack/react-query';
import { mapSettingsAnswer, type MapSettingsAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { mapKeys } from './query-keys';

/** GET map/settings: the tile server the base layer loads from (MAP_TILE_URL on the server). */
export async function getMapSettings(signal?: AbortSignal): Promise<MapSettingsAnswer> {
  return mapSettingsAnswer.parse(await api.get<unknown>('map/settings', { signal }));
}

/** The settings change only with the server's configuration: fetched once per session. */
export const mapSettingsQueryOptions = () =>
  queryOptions({
    queryKey: mapKeys.settings(),
    queryFn: ({ signal }) => getMapSettings(signal),
    staleTime: Infinity,
  });

/** Hook of mapSettingsQueryOptions. */
export const useMapSettings = () => useQuery(mapSettingsQueryOptions());
