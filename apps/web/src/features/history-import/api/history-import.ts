import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  historyImportJob,
  historyImportList,
  historyImportPreview,
  type HistoryImportJob,
  type HistoryImportMapping,
  type HistoryImportPreview,
  type HistoryImportUploadBody,
} from '@solar/shared';
import { api } from '../../../lib/api-client';

/** Query keys of the feature: other features invalidate through these, never a literal. */
export const historyImportKeys = {
  all: ['history-imports'] as const,
  list: (plantId: number) => [...historyImportKeys.all, 'plant', plantId] as const,
  job: (id: number) => [...historyImportKeys.all, 'job', id] as const,
};

/** GET plants/{id}/history-imports, polled every 2 s while one of them is queued or running. */
export const historyImportsQueryOptions = (plantId: number) =>
  queryOptions({
    queryKey: historyImportKeys.list(plantId),
    queryFn: async () => historyImportList.parse(await api.get<unknown>(`plants/${plantId}/history-imports`)),
    refetchInterval: (query) =>
      query.state.data?.items.some((job) => job.state === 'queued' || job.state === 'running') ? 2000 : false,
  });

export const useHistoryImports = (plantId: number) => useQuery(historyImportsQueryOptions(plantId));

const running = (job: HistoryImportJob | undefined) => job?.state === 'queued' || job?.state === 'running';

/** GET history-imports/{id}, polled every second while the import is queued or running. */
export const historyImportQueryOptions = (id: number) =>
  queryOptions({
    queryKey: historyImportKeys.job(id),
    queryFn: async () => historyImportJob.parse(await api.get<unknown>(`history-imports/${id}`)),
    refetchInterval: (query) => (running(query.state.data) ? 1000 : false),
  });

export const useHistoryImport = (id: number | undefined) =>
  useQuery({ ...historyImportQueryOptions(id ?? 0), enabled: id !== undefined });

/** The file as base64, read in the browser (the body is JSON, as the budget import's). */
export async function fileAsBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK)
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

/** POST plants/{id}/history-imports */
export function useUploadHistory(plantId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: HistoryImportUploadBody) =>
      historyImportJob.parse(await api.post<unknown>(`plants/${plantId}/history-imports`, body)),
    onSuccess: (job) => {
      client.setQueryData(historyImportKeys.job(job.id), job);
      void client.invalidateQueries({ queryKey: historyImportKeys.list(plantId) });
    },
  });
}

/** POST history-imports/{id}/preview */
export function usePreviewHistory() {
  return useMutation({
    mutationFn: async ({
      id,
      mapping,
    }: {
      id: number;
      mapping: HistoryImportMapping;
    }): Promise<HistoryImportPreview> =>
      historyImportPreview.parse(await api.post<unknown>(`history-imports/${id}/preview`, mapping)),
  });
}

/** POST history-imports/{id}/run */
export function useRunHistory(plantId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, mapping }: { id: number; mapping: HistoryImportMapping }) =>
      historyImportJob.parse(await api.post<unknown>(`history-imports/${id}/run`, mapping)),
    onSuccess: (job) => {
      client.setQueryData(historyImportKeys.job(job.id), job);
      void client.invalidateQueries({ queryKey: historyImportKeys.list(plantId) });
    },
  });
}
