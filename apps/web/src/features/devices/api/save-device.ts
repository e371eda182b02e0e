import { deviceSchema, type Device, type DeviceBody } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useSaveMutation } from '../../../lib/mutations';
import { deviceKeys } from './query-keys';

/** POST devices/{id}: id 0 creates, any other id updates; only the chosen protocol's settings are kept. */
export async function saveDevice({ id, body }: { id: number; body: DeviceBody }): Promise<Device> {
  return deviceSchema.parse(await api.post<unknown>(`devices/${id}`, body));
}

/** Saves a device and refreshes the device lists. */
export const useSaveDevice = () => useSaveMutation(saveDevice, deviceKeys.all);
