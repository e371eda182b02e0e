import Spin from 'antd/es/spin';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLoading } from '../lib/loading-store';

/**
 * Covers its positioned parent (the content area) with a large spinner while the global loading flag
 * is on or any query or mutation runs (spec §2), except queries that show their own progress.
 */
export function LoadingOverlay() {
  const { t } = useTranslation();
  // Queries that show their own progress opt out with `meta: { pageOverlay: false }` (camera snapshots).
  const fetching = useIsFetching({ predicate: (query) => query.meta?.pageOverlay !== false });
  const mutating = useIsMutating();
  const flag = useLoading((s) => s.loading);
  if (!flag && fetching === 0 && mutating === 0) return null;
  return (
    <div className="loading-overlay" data-testid="loading-overlay" role="status" aria-live="polite">
      <Spin size="large" description={t('app.loading')} />
    </div>
  );
}
