import './flag-bands.css';
import { useMemo } from 'react';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ChartBand } from '../../../components';
import { prefixedKey } from '../../../lib/i18n-keys';
import { plantToday } from '../../../lib/plant-time';
import { useDataQuality } from '../api/get-data-quality';
import { flagBands, flagDays, type FlagBand } from '../chart-bands';
import { periodText } from '../model';

/** How much data a band's flag concerns, in words: "12 readings", "5 missing". */
function amountText(band: FlagBand, t: TFunction): string {
  const { readings, missing } = band.flag;
  const parts = [
    ...(readings > 0 ? [t('dataQuality.readings', { count: readings })] : []),
    ...(missing > 0 ? [t('dataQuality.missing', { count: missing })] : []),
  ];
  return parts.join(', ') || '—';
}

/** A band's name, read by the tooltip and by a screen reader: signal, reason, amount, period, status. */
export function bandLabel(
  band: FlagBand,
  signal: string,
  timeZone: string,
  t: TFunction,
  language: string,
): string {
  return t(band.status === 'accepted' ? 'dataQuality.bandAccepted' : 'dataQuality.band', {
    signal,
    reason: t(prefixedKey('dataQuality.reasons', `${band.flag.reason}.name`)),
    amount: amountText(band, t),
    period: periodText(band.flag, timeZone, language),
  });
}

/**
 * The flags of a plant over a chart's range [from, to) on the charted signals, as bands for the chart
 * with their labels; nothing while no plant or signal is chosen.
 */
export function useFlagBands(
  plantId: number | undefined,
  timeZone: string,
  range: { from: number; to: number },
  signals: readonly { id: number; label: string }[],
): { bands: FlagBand[]; chartBands: ChartBand[]; labels: Map<number, string> } {
  const { t, i18n } = useTranslation();
  const [first, last] = flagDays(plantToday(timeZone, range.from), plantToday(timeZone, range.to - 1));
  const query = useDataQuality({ plantId: plantId ?? 0 }, first, last, !!plantId && signals.length > 0);
  const flags = query.data?.flags;
  return useMemo(() => {
    const bands = flagBands(
      flags ?? [],
      signals.map((s) => s.id),
      range,
    );
    const labels = new Map(
      bands.map((b) => [
        b.flagId,
        bandLabel(b, signals.find((s) => s.id === b.signalId)?.label ?? '', timeZone, t, i18n.language),
      ]),
    );
    const chartBands = bands.map((b) => ({
      signalId: b.signalId,
      from: b.from,
      to: b.to,
      label: labels.get(b.flagId) ?? '',
      muted: b.status !== 'open',
    }));
    return { bands, chartBands, labels };
  }, [flags, signals, range, timeZone, t, i18n.language]);
}

/**
 * Under a chart with flag bands: a line that says what the shading means, and each band as text (the
 * canvas says nothing to a screen reader), its reason explained on hover.
 */
export function FlagBandList({
  bands,
  labels,
}: {
  bands: readonly FlagBand[];
  labels: ReadonlyMap<number, string>;
}) {
  const { t } = useTranslation();
  if (bands.length === 0) return null;
  return (
    <div className="flag-bands" data-testid="flag-bands">
      <Typography.Text type="secondary" data-testid="flag-bands-legend">
        <span className="flag-band-swatch" aria-hidden /> {t('dataQuality.bandLegend')}
        {bands.some((b) => b.status !== 'open') && (
          <>
            {' '}
            <span className="flag-band-swatch flag-band-swatch-muted" aria-hidden />{' '}
            {t('dataQuality.bandLegendAccepted')}
          </>
        )}
      </Typography.Text>
      <ul className="flag-band-list" aria-label={t('dataQuality.bandList')}>
        {bands.map((b) => (
          <li
            key={b.flagId}
            data-testid={`flag-band-${b.flagId}`}
            data-signal-id={b.signalId}
            data-reason={b.flag.reason}
            data-status={b.status}
            data-from={b.from}
            data-to={b.to}
          >
            <Tooltip title={t(prefixedKey('dataQuality.reasons', `${b.flag.reason}.explanation`))}>
              <span
                className={
                  b.status === 'open' ? 'flag-band-swatch' : 'flag-band-swatch flag-band-swatch-muted'
                }
                aria-hidden
              />
              <span tabIndex={0}>{labels.get(b.flagId)}</span>
            </Tooltip>
          </li>
        ))}
      </ul>
    </div>
  );
}
