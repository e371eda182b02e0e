import type { CatalogDevice, CatalogSignal } from '@solar/shared';

/** A signal as the page lists it: with the device it belongs to. */
export interface DataSignal extends CatalogSignal {
  device_id: number;
  device_name: string;
}

/** The signals of the chosen devices, in the order of the devices, each knowing its device. */
export function signalsOfDevices(
  devices: readonly CatalogDevice[],
  deviceIds: readonly number[],
): DataSignal[] {
  return deviceIds.flatMap((id) => {
    const device = devices.find((d) => d.id === id);
    return (device?.signals ?? []).map((s) => ({ ...s, device_id: device!.id, device_name: device!.name }));
  });
}
