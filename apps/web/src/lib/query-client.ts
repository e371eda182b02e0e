import { QueryClient } from '@tanstack/react-query';

/** Spec §9: no retries, no refetch on focus, zero stale time and zero cache time. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0, gcTime: 0 },
      mutations: { retry: false },
    },
  });
}

/** The console's query client. */
export const queryClient = createQueryClient();
