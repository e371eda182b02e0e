import { api } from '../../../lib/api-client';
import { useDeleteMutation } from '../../../lib/mutations';
import { deviceKeys } from './query-keys';

/** DELETE devices/{id}: refused with 409 errors.hasChildren while signals or child devices remain. */
export async function deleteDevice(id: number): Promise<void> {
  await api.delete<unknown>(`devices/${id}`);
}

/** Deletes a device and refreshes the device lists. */
export const useDeleteDevice = () => useDeleteMutation(deleteDevice, deviceKeys.all);
