import { useTranslation } from 'react-i18next';
import type { ExcludedIrradiance } from '@solar/shared';
import { formatNumber } from '../../../lib/format';
import { ExcludedNote } from './excluded-note';
import { excludedIrradianceParts } from './excluded-energy';

/**
 * The hours of irradiance a period's insolation, PR and expected energy did not use, and why: the
 * data-quality flags on the plant's sensor (docs/kpi.md, "Irradiance the data-quality engine doubts").
 * Shown, like the excluded energy, only when something was left out.
 */
export function ExcludedIrradianceNote({
  excluded,
  testId,
}: {
  excluded: ExcludedIrradiance | undefined;
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  const parts = excludedIrradianceParts(excluded);
  if (!excluded || parts.length === 0) return null;
  const hours = (value: number) => formatNumber(value, i18n.language, 1);
  const reasons = parts
    .map((p) => `${t(`dataQuality.reasons.${p.reason}.name`)} ${hours(p.hours)} h`)
    .join('; ');
  return (
    <ExcludedNote
      testId={testId}
      attribute="data-excluded-hours"
      amount={excluded.total}
      message={t('plantView.kpi.excludedIrradiance', { hours: hours(excluded.total), reasons })}
    />
  );
}
