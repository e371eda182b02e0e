import { useLayoutEffect } from 'react';
import { useLoading } from '../../../lib/loading-store';

/**
 * Keeps the global loading overlay on while `active`: across the hand-over from one query to the next
 * (plants → topology and layout), so the overlay does not drop for a frame between them.
 */
export function useHoldLoading(active: boolean): void {
  useLayoutEffect(() => {
    if (!active) return undefined;
    const { setLoading } = useLoading.getState();
    setLoading(true);
    return () => setLoading(false);
  }, [active]);
}
