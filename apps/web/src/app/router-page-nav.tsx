import { useMemo, type ReactNode } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { PageNavContext, type PageNav } from '../lib/page-nav';

/** Gives the logged-out pages their navigation from react-router when they run inside the console. */
export function RouterPageNav({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const state: unknown = useLocation().state;
  const params = useParams();
  const nav = useMemo<PageNav>(
    () => ({ navigate: (to, options) => void navigate(to, options), state, params }),
    [navigate, state, params],
  );
  return <PageNavContext value={nav}>{children}</PageNavContext>;
}
