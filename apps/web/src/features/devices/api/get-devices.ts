import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { deviceList, type DeviceList, type DeviceListQuery } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { withQuery } from '../../../lib/list-query';
import { deviceKeys } from './query-keys';

/** GET devices: one page of devices, searched, filtered and sorted by the server. */
export async function getDevices(query: DeviceListQuery): Promise<DeviceList> {
  return deviceList.parse(await api.get<unknown>(withQuery('devices', query)));
}

/** The devices table's query; the previous page stays on screen while the next loads. */
export const devicesQueryOptions = (query: DeviceListQuery) =>
  queryOptions({
    queryKey: deviceKeys.list(query),
    queryFn: () => getDevices(query),
    placeholderData: keepPreviousData,
  });

/** Hook of devicesQueryOptions. */
export const useDevices = (query: DeviceListQuery) => useQuery(devicesQueryOptions(query));
