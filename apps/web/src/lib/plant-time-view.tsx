import { useTranslation } from 'react-i18next';
import { formatPlantTime, type PlantTimeStyle } from './plant-time';

/**
 * An instant on the plant's clock, labelled with the plant's zone when the reader's clock differs
 * (lib/plant-time.ts): the one way a plant's time is shown in a table cell, a card or a popup.
 */
export function PlantTime({
  at,
  zone,
  style = 'dateTime',
  testId,
}: {
  at: string | number | null | undefined;
  zone: string;
  style?: PlantTimeStyle;
  testId?: string;
}) {
  const { i18n } = useTranslation();
  const text = formatPlantTime(at, zone, i18n.language, style);
  // The clock time and the zone's name each stay whole; a narrow cell breaks the line between them.
  const zoneAt = text.lastIndexOf(' (');
  return (
    <span className="mono" data-testid={testId} data-zone={zone}>
      {zoneAt < 0 ? (
        <span className="nowrap">{text || '–'}</span>
      ) : (
        <>
          <span className="nowrap">{text.slice(0, zoneAt)}</span>{' '}
          <span className="nowrap">{text.slice(zoneAt + 1)}</span>
        </>
      )}
    </span>
  );
}

/**
 * "Plant time: Europe/Skopje" beside a chart whose axis runs on the plant's clock, when the reader's
 * clock differs (`zone` from plantClockAxis, null otherwise: then nothing is shown).
 */
export function PlantClockNote({ zone, testId }: { zone: string | null; testId?: string }) {
  const { t } = useTranslation();
  if (!zone) return null;
  return (
    <span className="plant-clock-note" data-testid={testId}>
      {t('common.plantClock', { zone })}
    </span>
  );
}
