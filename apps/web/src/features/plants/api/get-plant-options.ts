import { queryOptions, useQuery } from '@tanstack/react-query';
import { plantList, type Plant } from '@solar/shared';
import { fetchOptionList } from '../../../lib/lookups';
import { plantKeys } from './query-keys';

/** Which plants an option list holds: those of one field or company, or all in reach. */
export interface PlantOptionsFilter {
  fieldId?: number | null;
  companyId?: number | null;
}

/** Plants for parent selects (needs plant_management view). */
export const plantOptionsQueryOptions = (filter: PlantOptionsFilter) =>
  queryOptions({
    queryKey: plantKeys.options(filter.fieldId ?? null, filter.companyId ?? null),
    queryFn: () =>
      fetchOptionList<Plant>('plants', plantList, { field_id: filter.fieldId, company_id: filter.companyId }),
  });

/** Hook of plantOptionsQueryOptions; idle while `enabled` is false. */
export const usePlantOptions = (filter: PlantOptionsFilter, enabled = true) =>
  useQuery({ ...plantOptionsQueryOptions(filter), enabled });
