import Tag from 'antd/es/tag';
import theme from 'antd/es/theme';
import { useTranslation } from 'react-i18next';
import { isLowCoverage, type EnergySource, type PlantOverviewItem } from '@solar/shared';
import { formatNumber } from '../../../lib/format';
import { priorityKey } from '../../alarms';
import './plant-figures.css';

const DASH = '–';

/** A number with its unit in the interface language, or a dash when there is none. */
export function Figure({
  value,
  unit,
  digits = 1,
}: {
  value: number | null;
  unit?: string;
  digits?: number;
}) {
  const { i18n } = useTranslation();
  const number = value === null ? null : formatNumber(value, i18n.language, digits);
  return <span className="figure">{number === null ? DASH : unit ? `${number} ${unit}` : number}</span>;
}

/**
 * A plant's energy with the source it was counted from (the meter, else the inverters' sum) on a line
 * under it, as on the plant page: the same figure everywhere says where it comes from.
 */
export function EnergyWithSource({
  value,
  source,
  unit = 'kWh',
}: {
  value: number | null;
  source: EnergySource;
  /** Null where a column header names the unit. */
  unit?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <div>
      <Figure value={value} unit={unit ?? undefined} />
      <div className="plant-company energy-source" data-testid="energy-source">
        {t(`plantView.kpi.source.${source}`)}
      </div>
    </div>
  );
}
export const YieldValue = ({ value }: { value: number | null }) => (
  <Figure value={value} unit="kWh/kWp" digits={2} />
);
/** A ratio 0…1 (PR, availability) as a percentage. */
export const PrValue = ({ value }: { value: number | null }) => (
  <Figure value={value === null ? null : value * 100} unit="%" />
);

/** A table's column heading that wraps between words, at most about two short words wide. */
export function LossHeading({ children }: { children: string }) {
  return <span className="fleet-loss-heading">{children}</span>;
}

/**
 * A loss in kWh without its unit (the column header names it); a negative one is energy above what the
 * model expected, said in words rather than shown as a negative loss (the tag's short text, the full
 * sentence for screen readers and on hover). Unknown (no data in the period) is a dash.
 */
export function LossValue({ kwh }: { kwh: number | null }) {
  const { t, i18n } = useTranslation();
  if (kwh === null || kwh >= 0) return <Figure value={kwh} />;
  const value = formatNumber(-kwh, i18n.language, 1);
  const full = t('plantView.fleetLoss.above', { value });
  return (
    <Tag color="green" className="fleet-loss-above" data-testid="loss-above" title={full}>
      <span aria-hidden="true">{t('plantView.fleetLoss.aboveShort', { value })}</span>
      <span className="sr-only">{full}</span>
    </Tag>
  );
}

/** The share of a period that has data, marked when under the threshold every screen uses. */
export function CoverageValue({ coverage }: { coverage: number | null }) {
  const { t } = useTranslation();
  if (!isLowCoverage(coverage)) return <PrValue value={coverage} />;
  return (
    <Tag color="warning" title={t('plantView.fleetLoss.lowCoverage')} data-testid="low-coverage">
      <PrValue value={coverage} />
      <span className="sr-only"> {t('plantView.fleetLoss.lowCoverage')}</span>
    </Tag>
  );
}

/** Live AC power with a bar of its share of the AC capacity (the text says the same, the bar only helps). */
export function PowerBar({ plant }: { plant: PlantOverviewItem }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const percent = plant.ac_capacity_percent;
  const width = Math.max(0, Math.min(100, percent ?? 0));
  return (
    <div className="power-bar" data-testid="plant-power" data-power-kw={plant.ac_power_kw ?? ''}>
      <div className="power-bar-value">
        <Figure value={plant.ac_power_kw} unit="kW" />
        {percent !== null && plant.ac_capacity_kw !== null && (
          <span className="power-bar-capacity">
            {t('plantView.list.capacity', {
              percent: formatNumber(percent, i18n.language, 0),
              capacity: formatNumber(plant.ac_capacity_kw, i18n.language, 0),
            })}
          </span>
        )}
      </div>
      <div className="power-bar-track" aria-hidden="true" style={{ background: token.colorFillSecondary }}>
        <div className="power-bar-fill" style={{ width: `${width}%`, background: token.colorPrimary }} />
      </div>
    </div>
  );
}

const PRIORITY_COLOURS = { dangerous: 'magenta', high: 'red', medium: 'orange', low: 'blue' } as const;
const PRIORITY_IDS = { low: 1, medium: 2, high: 3, dangerous: 4 } as const;

/** Active alarm counts by priority, highest first; each tag names its priority in words. */
export function AlarmCounts({ counts }: { counts: PlantOverviewItem['active_alarms'] }) {
  const { t } = useTranslation();
  const parts = (['dangerous', 'high', 'medium', 'low'] as const).filter((p) => counts[p] > 0);
  if (parts.length === 0) return <span className="figure-muted">{t('plantView.list.noAlarms')}</span>;
  return (
    <span className="alarm-counts" data-testid="plant-alarm-counts" data-total={counts.total}>
      {parts.map((p) => (
        <Tag key={p} color={PRIORITY_COLOURS[p]}>
          {t(priorityKey(PRIORITY_IDS[p]))}: {counts[p]}
        </Tag>
      ))}
    </span>
  );
}
