import Alert from 'antd/es/alert';
import { useTranslation } from 'react-i18next';
import { isLowCoverage } from '@solar/shared';
import { formatNumber } from '../../../lib/format';

/**
 * The warning a period's figures carry when less of it has data than KPI_COVERAGE_WARNING_BELOW: it says
 * how much, so three days of a month are not read as the month.
 */
export function CoverageWarning({ coverage, testId }: { coverage: number | null; testId: string }) {
  const { t, i18n } = useTranslation();
  if (!isLowCoverage(coverage)) return null;
  const percent = coverage! * 100;
  // A sliver of data is not none: below what one decimal shows, say "< 0.1" rather than "0".
  const shown =
    percent > 0 && percent < 0.05
      ? `< ${formatNumber(0.1, i18n.language, 1)}`
      : formatNumber(percent, i18n.language, 1);
  return (
    <Alert
      type="warning"
      showIcon
      className="coverage-warning"
      data-testid={testId}
      data-coverage={coverage ?? ''}
      message={t('plantView.kpi.coverageLow', { percent: shown })}
    />
  );
}
