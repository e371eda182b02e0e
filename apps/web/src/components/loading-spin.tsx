import Spin from 'antd/es/spin';
import { useTranslation } from 'react-i18next';

/**
 * Ant Design's spinner with a name screen readers announce. The name needs a role: on Spin's plain div an
 * `aria-label` is prohibited (axe `aria-prohibited-attr`) and read by nobody, so a `status` wraps it.
 */
export function LoadingSpin({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="loading-spin" role="status" aria-label={label ?? t('app.loading')}>
      <Spin />
    </div>
  );
}
