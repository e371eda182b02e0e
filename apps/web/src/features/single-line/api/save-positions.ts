import { useMutation, useQueryClient } from '@tanstack/react-query';
import { topologyAnswer, type Topology, type TopologyPositionsBody } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { singleLineKeys } from './query-keys';

/** POST plants/{id}/topology/positions: merges dragged positions (null forgets one); answers the graph. */
export async function savePositions(plantId: number, body: TopologyPositionsBody): Promise<Topology> {
  return topologyAnswer.parse(await api.post<unknown>(`plants/${plantId}/topology/positions`, body));
}

/** Saves positions and puts the answered graph in the cache, so the diagram shows what was stored. */
export function useSavePositions(plantId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TopologyPositionsBody) => savePositions(plantId, body),
    onSuccess: (topology) => client.setQueryData(singleLineKeys.topology(plantId), topology),
  });
}
