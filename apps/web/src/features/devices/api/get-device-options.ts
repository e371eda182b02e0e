import { queryOptions, useQuery } from '@tanstack/react-query';
import { deviceList, type Device } from '@solar/shared';
import { fetchOptionList } from '../../../lib/lookups';
import { deviceKeys } from './query-keys';

/** Devices of one plant, for parent selects (needs device_management view). */
export const deviceOptionsQueryOptions = (plantId: number | null | undefined) =>
  queryOptions({
    queryKey: deviceKeys.options(plantId ?? null),
    queryFn: () => fetchOptionList<Device>('devices', deviceList, { plant_id: plantId }),
  });

/** Hook of deviceOptionsQueryOptions; nothing until a plant is chosen. */
export const useDeviceOptions = (plantId: number | null | undefined, enabled = true) =>
  useQuery({ ...deviceOptionsQueryOptions(plantId), enabled: enabled && !!plantId });
