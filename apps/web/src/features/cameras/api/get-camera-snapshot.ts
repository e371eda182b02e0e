import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchBinary } from '../../../lib/api-client';
import { cameraKeys } from './query-keys';

/**
 * GET cameras/{id}/snapshot: the image bytes. An <img src> could not carry the bearer token, so the
 * image is fetched here and shown from memory. Rejects with an ApiError (502 unreachable, 409 no
 * address: their problems carry translated keys).
 */
export async function getCameraSnapshot(id: number, signal?: AbortSignal): Promise<Blob> {
  const response = await fetchBinary(`cameras/${id}/snapshot`, {
    accept: 'image/jpeg, image/png, application/problem+json',
    noStore: true,
    ...(signal ? { signal } : {}),
  });
  return response.blob();
}

/** The image as a data: URL: it needs no revoking, so a replaced frame cannot leak or vanish early. */
function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('unreadable image'));
    reader.readAsDataURL(blob);
  });
}

/**
 * A camera's snapshot (as a data: URL), fetched again every `refreshMs` while it answers. After a failure it waits for
 * the user's retry: a camera that is down is not asked again and again by every open tile.
 */
export const cameraSnapshotQueryOptions = (id: number, refreshMs: number) =>
  queryOptions({
    queryKey: cameraKeys.snapshot(id),
    queryFn: async ({ signal }) => dataUrlOf(await getCameraSnapshot(id, signal)),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (query) => (query.state.status === 'error' ? false : refreshMs),
    // Each tile shows its own loading state; an unreachable camera answers only at the server's fixed
    // deadline (5 s, docs/security.md "Device networks"), which must not cover the whole page.
    meta: { pageOverlay: false },
  });

/** Hook of cameraSnapshotQueryOptions. */
export const useCameraSnapshot = (id: number, refreshMs: number) =>
  useQuery(cameraSnapshotQueryOptions(id, refreshMs));
