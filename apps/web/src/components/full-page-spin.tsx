import { useTranslation } from 'react-i18next';

/**
 * A centered spinner over the page (session restore, lazy pages loading). Pure CSS so that it adds
 * nothing to the first load; the content-area overlay uses Ant Design's Spin.
 */
export function FullPageSpin() {
  const { t } = useTranslation();
  return (
    <div className="full-page-spin" data-testid="full-page-spin" role="status" aria-live="polite">
      <span className="full-page-spin-dot" aria-hidden="true" />
      <span className="full-page-spin-text">{t('app.loading')}</span>
    </div>
  );
}
