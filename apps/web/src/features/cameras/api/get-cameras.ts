import { useQueries } from '@tanstack/react-query';
import type { CatalogPlant } from '@solar/shared';
import { catalogQueryOptions, useCatalogPlants } from '../../telemetry';

export interface CameraEntry {
  id: number;
  name: string;
  plant: CatalogPlant;
}

export interface PlantCameras {
  plant: CatalogPlant;
  cameras: CameraEntry[];
}

/**
 * Every camera in scope, grouped by plant (plants by name, cameras by name). The telemetry catalog needs
 * only dashboard view, like the camera pages, so an operator without device management sees them too.
 */
export function useCameras(): { data: PlantCameras[] | undefined; error: unknown; isPending: boolean } {
  const plants = useCatalogPlants();
  const catalogs = useQueries({
    queries: (plants.data ?? []).map((p) => catalogQueryOptions(p.id)),
  });
  if (plants.error) return { data: undefined, error: plants.error, isPending: false };
  const failed = catalogs.find((c) => c.error);
  if (failed) return { data: undefined, error: failed.error, isPending: false };
  if (!plants.data || catalogs.some((c) => !c.data)) return { data: undefined, error: null, isPending: true };
  const data = plants.data
    .map((plant, i) => ({
      plant,
      cameras: (catalogs[i]?.data?.devices ?? [])
        .filter((d) => d.type === 'camera')
        .map((d) => ({ id: d.id, name: d.name, plant })),
    }))
    .filter((group) => group.cameras.length > 0);
  return { data, error: null, isPending: false };
}
