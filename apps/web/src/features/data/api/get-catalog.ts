import { useQuery } from '@tanstack/react-query';
import {
  telemetryCatalogAnswer,
  type CatalogDevice,
  type CatalogSignal,
  type TelemetryCatalogAnswer,
} from '@solar/shared';
import { api } from '../../../lib/api-client';

/** A signal as the page lists it: with the device it belongs to. */
export interface DataSignal extends CatalogSignal {
  device_id: number;
  device_name: string;
}

/**
 * GET telemetry/catalog[?plant_id=]: the plants the user reaches, and with a plant its devices and their
 * signals. Needs only dashboard view, unlike the management lists.
 */
export async function getCatalog(plantId?: number, signal?: AbortSignal): Promise<TelemetryCatalogAnswer> {
  const path = plantId === undefined ? 'telemetry/catalog' : `telemetry/catalog?plant_id=${plantId}`;
  return telemetryCatalogAnswer.parse(await api.get<unknown>(path, { signal }));
}

/** The active plants the user reaches, by name. */
export function useCatalogPlants() {
  return useQuery({
    queryKey: ['telemetry', 'catalog'],
    queryFn: ({ signal }) => getCatalog(undefined, signal).then((a) => a.plants),
  });
}

/** The active devices of the chosen plant with their active signals; nothing until a plant is chosen. */
export function usePlantCatalog(plantId: number | undefined) {
  return useQuery({
    queryKey: ['telemetry', 'catalog', plantId ?? null],
    queryFn: ({ signal }) => getCatalog(plantId, signal).then((a) => a.devices ?? []),
    enabled: plantId !== undefined,
  });
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
