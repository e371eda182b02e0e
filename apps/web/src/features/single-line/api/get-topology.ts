import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { topologyAnswer, type Topology } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { layoutTopology, shapeOf } from '../layout/elk-graph';
import { singleLineKeys } from './query-keys';

/** GET plants/{id}/topology: the plant's single-line graph with saved positions. */
export async function getTopology(plantId: number, signal?: AbortSignal): Promise<Topology> {
  return topologyAnswer.parse(await api.get<unknown>(`plants/${plantId}/topology`, { signal }));
}

/** The automatic layout of a graph, computed once per shape (saved positions do not change it). */
export const autoLayoutQueryOptions = (topology: Topology) =>
  queryOptions({
    queryKey: singleLineKeys.layout(topology.plant_id, shapeOf(topology)),
    queryFn: () => layoutTopology(topology),
    staleTime: Infinity,
  });

/**
 * The chosen plant's topology, idle until a plant is chosen. Its answer is laid out before it is handed
 * on, so the page goes from loading to drawn in one step instead of flashing between two loads.
 */
export function useTopology(plantId: number | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: singleLineKeys.topology(plantId ?? 0),
    queryFn: async ({ signal }) => {
      const topology = await getTopology(plantId!, signal);
      await client.fetchQuery(autoLayoutQueryOptions(topology));
      return topology;
    },
    enabled: plantId !== null,
  });
}

/** The automatic layout of the topology (already in the cache once useTopology answered). */
export const useAutoLayout = (topology: Topology | undefined) =>
  useQuery({
    ...autoLayoutQueryOptions(topology ?? { plant_id: 0, plant_name: '', nodes: [], edges: [] }),
    enabled: topology !== undefined,
  });
