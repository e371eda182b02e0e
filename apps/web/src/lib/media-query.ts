import { useSyncExternalStore } from 'react';

/** Ant Design's `md` breakpoint: narrower than this is a phone, where the menu becomes a drawer. */
export const PHONE_QUERY = '(max-width: 767.98px)';
/** Ant Design's `lg` breakpoint: narrower than this (a portrait tablet) the side menu starts collapsed. */
export const TABLET_QUERY = '(max-width: 991.98px)';

/** Whether a CSS media query matches, following resizes and rotations (matchMedia, no polling). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
  );
}
