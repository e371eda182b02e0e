import '../lib/zod-config';
import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './providers';
import { createRouter } from './router';

/** The console: providers around the router. */
export function ConsoleApp() {
  const [router] = useState(createRouter);
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}
