import '../lib/zod-config';
import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { queryClient } from '../lib/query-client';
import { Providers } from './providers';
import { createRouter } from './router';

/** The console: providers and the query client around the router. */
export function ConsoleApp() {
  const [router] = useState(createRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </QueryClientProvider>
  );
}
