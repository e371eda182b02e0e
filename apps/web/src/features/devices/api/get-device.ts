import { queryOptions, useQuery } from '@tanstack/react-query';
import { deviceSchema, type Device } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { deviceKeys } from './query-keys';

/** GET devices/{id}: one device (its name, plant and protocol). */
export async function getDevice(id: number): Promise<Device> {
  return deviceSchema.parse(await api.get<unknown>(`devices/${id}`));
}

/** One device by id. */
export const deviceQueryOptions = (id: number) =>
  queryOptions({ queryKey: deviceKeys.detail(id), queryFn: () => getDevice(id) });

/** Hook of deviceQueryOptions; only asked while `enabled` (e.g. when the user may view devices). */
export const useDevice = (id: number, enabled: boolean) => useQuery({ ...deviceQueryOptions(id), enabled });
