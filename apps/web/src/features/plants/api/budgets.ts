import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  budgetImportAnswer,
  plantBudgetAnswer,
  type BudgetImportAnswer,
  type BudgetImportBody,
  type PlantBudgetAnswer,
  type PlantBudgetBody,
} from '@solar/shared';
import { api } from '../../../lib/api-client';
import { plantKeys } from './query-keys';

/** GET plants/{id}/budgets?year=: the year's monthly budget (months without one are absent). */
export async function getPlantBudget(
  plantId: number,
  year: number,
  signal?: AbortSignal,
): Promise<PlantBudgetAnswer> {
  return plantBudgetAnswer.parse(
    await api.get<unknown>(`plants/${plantId}/budgets?year=${year}`, { signal }),
  );
}

/** A plant's budget of a year (needs plant_management view). */
export const plantBudgetQueryOptions = (plantId: number, year: number) =>
  queryOptions({
    queryKey: plantKeys.budget(plantId, year),
    queryFn: ({ signal }) => getPlantBudget(plantId, year, signal),
  });

/** Hook of plantBudgetQueryOptions; idle without a plant (a plant being created). */
export const usePlantBudget = (plantId: number | null, year: number) =>
  useQuery({ ...plantBudgetQueryOptions(plantId ?? 0, year), enabled: plantId !== null });

/** POST plants/{id}/budgets: replaces the year's months. */
export async function savePlantBudget(plantId: number, body: PlantBudgetBody): Promise<PlantBudgetAnswer> {
  return plantBudgetAnswer.parse(await api.post<unknown>(`plants/${plantId}/budgets`, body));
}

/** POST budgets/import: a CSV or XLSX file of many plants' budgets; one bad row imports nothing. */
export async function importBudgets(body: BudgetImportBody): Promise<BudgetImportAnswer> {
  return budgetImportAnswer.parse(await api.post<unknown>('budgets/import', body));
}

/** Imports a budget file and refreshes everything under the plant keys (budgets and the KPIs against them). */
export function useImportBudgets() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importBudgets,
    onSuccess: () => void client.invalidateQueries({ queryKey: plantKeys.all }),
  });
}

/** Saves a plant's edited budget years one after another, then refreshes the plant keys (KPIs against them). */
export function useSavePlantBudgets() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ plantId, years }: { plantId: number; years: PlantBudgetBody[] }) => {
      for (const body of years) await savePlantBudget(plantId, body);
    },
    onSettled: () => void client.invalidateQueries({ queryKey: plantKeys.all }),
  });
}
