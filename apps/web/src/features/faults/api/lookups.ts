import { useQuery } from '@tanstack/react-query';
import { telemetryCatalogAnswer, userListSchema } from '@solar/shared';
import { api } from '../../../lib/api-client';

/** GET telemetry/catalog: the reachable active plants (needs only dashboard view). */
export function useFaultPlants(enabled = true) {
  return useQuery({
    queryKey: ['faults', 'catalog'],
    queryFn: async () => telemetryCatalogAnswer.parse(await api.get<unknown>('telemetry/catalog')).plants,
    enabled,
  });
}

/** GET telemetry/catalog?plant_id=: the plant's active devices with their signals. */
export function useFaultPlantDevices(plantId: number | null | undefined) {
  return useQuery({
    queryKey: ['faults', 'catalog', plantId ?? null],
    queryFn: async () =>
      telemetryCatalogAnswer.parse(await api.get<unknown>(`telemetry/catalog?plant_id=${plantId}`)).devices ??
      [],
    enabled: !!plantId,
  });
}

/** Active users who may be assigned (GET Users needs user_management view). */
export function useAssignees(enabled: boolean) {
  return useQuery({
    queryKey: ['users', 'assignees'],
    queryFn: async () =>
      userListSchema
        .parse(await api.get<unknown>('Users'))
        .filter((u) => u.is_active)
        .map((u) => ({ id: u.id, name: `${u.name} ${u.surname}`.trim(), company_id: u.company_id })),
    enabled,
  });
}
