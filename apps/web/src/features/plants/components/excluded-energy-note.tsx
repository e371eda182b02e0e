import { useTranslation } from 'react-i18next';
import type { ExcludedEnergy } from '@solar/shared';
import { formatNumber } from '../../../lib/format';
import { ExcludedNote } from './excluded-note';
import { excludedEnergyParts } from './excluded-energy';

/**
 * What a period's KPIs did not count as production, and why (docs/kpi.md, "Excluded energy"): a counter
 * jump, a day above what the plant can deliver, a replayed day. Shown only when something was excluded.
 */
export function ExcludedEnergyNote({
  excluded,
  testId,
}: {
  excluded: ExcludedEnergy | undefined;
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  const parts = excludedEnergyParts(excluded);
  if (!excluded || parts.length === 0) return null;
  const kwh = (value: number) => formatNumber(value, i18n.language, 1);
  const reasons = parts
    .map((p) => t(`plantView.kpi.excludedReason.${p.reason}`, { energy: kwh(p.energyKwh) }))
    .join('; ');
  return (
    <ExcludedNote
      testId={testId}
      attribute="data-excluded-kwh"
      amount={excluded.total}
      message={t('plantView.kpi.excludedEnergy', { energy: kwh(excluded.total), reasons })}
    />
  );
}
