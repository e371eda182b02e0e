import { useTranslation } from 'react-i18next';
import type { EnergySource } from '@solar/shared';
import type { PowerLabels } from './chart-options';

/**
 * The names the plant charts give their series, one set for the plant page and the dashboard: the power
 * chart names the meter and the inverters' sum apart; an energy series names where its energy comes from.
 */
export function usePlantChartLabels(): {
  power: PowerLabels;
  energyOf: (source: EnergySource) => string;
  pr: string;
} {
  const { t } = useTranslation();
  return {
    power: {
      inverterSum: t('plantView.chart.inverterSum'),
      meter: t('plantView.chart.meter'),
      expected: t('plantView.chart.expected'),
      poa: t('plantView.chart.poa'),
    },
    energyOf: (source) => t(`plantView.chart.energyBy.${source}`),
    pr: t('plantView.chart.prLine'),
  };
}
