import { createContext, use, type MouseEvent, type ReactNode } from 'react';

/**
 * What the logged-out pages need from a router: go somewhere, the state the last navigation carried,
 * and the path's parameters. The console's router provides it (app/guards.tsx), and so does the light
 * logged-out entry (app/public-app.tsx), which keeps react-router off the /login bundle.
 */
export interface PageNav {
  navigate: (to: string, options?: { replace?: boolean; state?: unknown }) => void;
  /** `location.state` of the current entry (react-router keeps it as `history.state.usr`). */
  state: unknown;
  params: Readonly<Record<string, string | undefined>>;
}

export const PageNavContext = createContext<PageNav | null>(null);

/** The navigation of the router the page runs under. */
export function usePageNav(): PageNav {
  const nav = use(PageNavContext);
  if (!nav) throw new Error('usePageNav outside a PageNavContext');
  return nav;
}

interface NavLinkProps {
  to: string;
  children: ReactNode;
  'data-testid'?: string;
}

/** A link that navigates in the page (a modified or middle click still opens a new tab). */
export function NavLink({ to, children, 'data-testid': testId }: NavLinkProps) {
  const { navigate } = usePageNav();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={onClick} data-testid={testId}>
      {children}
    </a>
  );
}
