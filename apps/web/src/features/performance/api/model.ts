import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  plantModelAnswer,
  plantModelFitAnswer,
  type PlantModelAnswer,
  type PlantModelBody,
  type PlantModelFitAnswer,
  type PlantModelFitBody,
} from '@solar/shared';
import { api } from '../../../lib/api-client';
import { plantKeys } from '../../plants';
import { performanceKeys } from './query-keys';

/** GET plants/{id}/model */
export async function getPlantModel(plantId: number, signal?: AbortSignal): Promise<PlantModelAnswer> {
  return plantModelAnswer.parse(await api.get<unknown>(`plants/${plantId}/model`, { signal }));
}

/** A plant's model parameters (page plant_management, view). */
export const plantModelQueryOptions = (plantId: number) =>
  queryOptions({
    queryKey: performanceKeys.model(plantId),
    queryFn: ({ signal }) => getPlantModel(plantId, signal),
  });

export const usePlantModel = (plantId: number, enabled: boolean) =>
  useQuery({ ...plantModelQueryOptions(plantId), enabled });

/** New parameters change the expected energy: the performance answer and every KPI of the plant. */
function useRefreshAfterModel() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: performanceKeys.all });
    void client.invalidateQueries({ queryKey: plantKeys.all });
  };
}

/** PUT plants/{id}/model */
export function useSavePlantModel(plantId: number) {
  const refresh = useRefreshAfterModel();
  return useMutation({
    mutationFn: async (body: PlantModelBody) =>
      plantModelAnswer.parse(await api.put<unknown>(`plants/${plantId}/model`, body)),
    onSuccess: refresh,
  });
}

/** POST plants/{id}/model/fit */
export function useFitPlantModel(plantId: number) {
  const refresh = useRefreshAfterModel();
  return useMutation({
    mutationFn: async (body: PlantModelFitBody): Promise<PlantModelFitAnswer> =>
      plantModelFitAnswer.parse(await api.post<unknown>(`plants/${plantId}/model/fit`, body)),
    onSuccess: (answer) => {
      if (answer.status === 'fitted') refresh();
    },
  });
}
