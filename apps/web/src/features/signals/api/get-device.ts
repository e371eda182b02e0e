import { useQuery } from '@tanstack/react-query';
import { deviceSchema, type Device } from '@solar/shared';
import { api } from '../../../lib/api-client';

/** GET devices/{id}: the device whose signals are shown (its name, plant and protocol). */
export async function getDevice(id: number): Promise<Device> {
  return deviceSchema.parse(await api.get<unknown>(`devices/${id}`));
}

/** The device of the signals page; only asked when the user may view devices. */
export function useDevice(id: number, enabled: boolean) {
  return useQuery({ queryKey: ['devices', 'one', id], queryFn: () => getDevice(id), enabled });
}
