import { useMemo } from 'react';
import type { CatalogPlant } from '@solar/shared';
import { useCatalogPlants } from '../../telemetry';

/** The plants the user reaches (name, time zone) by id, from the telemetry catalog (dashboard view suffices). */
export function useCatalogPlantMap(): Map<number, CatalogPlant> {
  const plants = useCatalogPlants();
  return useMemo(() => new Map((plants.data ?? []).map((p) => [p.id, p])), [plants.data]);
}

/** `Title · Plant name`, or the title alone while the plant is unknown. */
export function withPlant(title: string, plant: CatalogPlant | undefined): string {
  return plant ? `${title} · ${plant.name}` : title;
}
