import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Spin from 'antd/es/spin';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceStringsAnswer } from '@solar/shared';
import { errorMessageOf } from '../../../lib/api-errors';
import { formatNumber } from '../../../lib/format';
import { formatInZone, formatPlantTime, zoneLabel } from '../../../lib/plant-time';
import { PlantClockNote } from '../../../lib/plant-time-view';
import { useDeviceStrings } from '../api/get-device-strings';
import { ratioColour } from './string-colours';

const pct = (ratio: number) => Math.round(ratio * 100);

/**
 * The inverter's strings over its plant's day as a heat map (docs/string-health.md): a row per string, a
 * column per 15 minutes on the plant's clock, the colour its current's ratio to its siblings' median. It is
 * a real table: a screen reader reads each cell's label (string, time, ratio and current), the keyboard
 * scrolls it (the region is focusable), and a missing value is shown as missing, never as 0.
 */
export function StringHeatMap({ deviceId, date, dark }: { deviceId: number; date: string; dark: boolean }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const query = useDeviceStrings(deviceId, date);
  const data = query.data;
  const title = t('devicePages.strings.title');
  if (query.error)
    return (
      <Card title={title} className="device-card">
        <Alert type="error" showIcon title={errorMessageOf(query.error, t)} />
      </Card>
    );
  if (!data)
    return (
      <Card title={title} className="device-card">
        <Spin />
      </Card>
    );
  const instants = data.intervals.map((i) => Date.parse(i));
  const zone = zoneLabel(data.time_zone, instants.length ? [instants[0]!, instants.at(-1)!] : []);
  return (
    <Card
      title={title}
      className="device-card"
      data-testid="string-heat-map-card"
      extra={<PlantClockNote zone={zone} testId="string-heat-map-zone" />}
    >
      {data.strings.length === 0 ? (
        <Empty description={t('devicePages.strings.none')} data-testid="string-heat-map-empty" />
      ) : (
        <HeatMap data={data} instants={instants} dark={dark} language={language} />
      )}
    </Card>
  );
}

/** The first interval in which any string has a reading; -1 when none has. */
function firstColumnWithData(data: DeviceStringsAnswer): number {
  const firsts = data.strings.map((s) => s.current_a.findIndex((c) => c !== null)).filter((i) => i >= 0);
  return firsts.length ? Math.min(...firsts) : -1;
}

function HeatMap({
  data,
  instants,
  dark,
  language,
}: {
  data: DeviceStringsAnswer;
  instants: number[];
  dark: boolean;
  language: string;
}) {
  const { t } = useTranslation();
  const times = instants.map((ms) => formatInZone(ms, data.time_zone, language, 'time'));
  const perHour = Math.round(60 / data.interval_minutes);
  const scrollRef = useRef<HTMLDivElement>(null);
  const firstData = firstColumnWithData(data);
  // On a phone the map scrolls inside its card: it opens an hour before the day's first reading instead
  // of at midnight, once it first overflows (a phone, or a window made narrower).
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || firstData <= 0) return undefined;
    const place = () => {
      if (el.scrollWidth <= el.clientWidth) return false;
      const column = el.querySelectorAll<HTMLElement>('thead th')[Math.max(0, firstData - perHour)];
      const rowHeader = el.querySelector<HTMLElement>('tbody th');
      if (column) el.scrollLeft = column.offsetLeft - (rowHeader?.offsetWidth ?? 0);
      return true;
    };
    if (place()) return undefined;
    const observer = new ResizeObserver(() => {
      if (place()) observer.disconnect();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [firstData, perHour]);
  return (
    <div className={`string-heat-map${dark ? ' string-heat-map-dark' : ''}`}>
      <div
        ref={scrollRef}
        className="string-heat-map-scroll"
        role="region"
        aria-label={t('devicePages.strings.title')}
        tabIndex={0}
        data-testid="string-heat-map-scroll"
      >
        <table className="string-heat-map-table" data-testid="string-heat-map">
          <caption className="string-heat-map-caption">{t('devicePages.strings.caption')}</caption>
          <thead>
            <tr>
              <td />
              {times.map((time, i) => (
                <th key={instants[i]} scope="col" className="string-heat-map-time">
                  {/* Every hour labelled; the other columns keep their time for assistive technology. */}
                  <span className={i % perHour === 0 ? 'string-heat-map-label' : 'string-heat-map-hidden'}>
                    {time}
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.strings.map((s) => (
              <tr key={s.n} data-string={s.n}>
                <th scope="row" className="string-heat-map-row">
                  {t('devicePages.strings.string', { n: s.n })}
                </th>
                {s.ratio.map((ratio, i) => {
                  const current = s.current_a[i] ?? null;
                  const label =
                    current === null
                      ? t('devicePages.strings.cellMissing', { n: s.n, time: times[i] })
                      : ratio === null
                        ? t('devicePages.strings.cellNotJudged', {
                            n: s.n,
                            time: times[i],
                            current: formatNumber(current, language, 2),
                          })
                        : t('devicePages.strings.cell', {
                            n: s.n,
                            time: times[i],
                            ratio: pct(ratio),
                            current: formatNumber(current, language, 2),
                          });
                  const state = current === null ? 'missing' : ratio === null ? 'not-judged' : 'judged';
                  return (
                    <td
                      key={instants[i]}
                      className={`string-heat-map-cell string-heat-map-${state}`}
                      style={ratio === null ? undefined : { background: ratioColour(ratio, dark) }}
                      title={label}
                      aria-label={label}
                      data-state={state}
                    />
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Legend dark={dark} threshold={data.ratio_threshold} minutes={data.sustain_minutes} />
      <Faults data={data} language={language} />
      <PlantComparison data={data} language={language} />
    </div>
  );
}

function Legend({ dark, threshold, minutes }: { dark: boolean; threshold: number; minutes: number }) {
  const { t } = useTranslation();
  // The colour stops changing under half the median (ratioColour): the first swatch is "≤ 50 %".
  const stops = [0.5, 0.625, 0.75, 0.875, 1];
  return (
    <div className="string-heat-map-legend" data-testid="string-heat-map-legend">
      <span>{t('devicePages.strings.legendRatio')}</span>
      <span className="string-heat-map-scale" aria-hidden="true">
        {stops.map((r) => (
          <span key={r} className="string-heat-map-swatch" style={{ background: ratioColour(r, dark) }}>
            {r === stops[0] ? '≤ ' : ''}
            {pct(r)} %
          </span>
        ))}
      </span>
      <span className="string-heat-map-key">
        <span className="string-heat-map-swatch string-heat-map-not-judged" aria-hidden="true" />
        {t('devicePages.strings.legendNotJudged')}
      </span>
      <span className="string-heat-map-key">
        <span className="string-heat-map-swatch string-heat-map-missing" aria-hidden="true" />
        {t('devicePages.strings.legendMissing')}
      </span>
      <span>{t('devicePages.strings.threshold', { ratio: pct(threshold), minutes })}</span>
    </div>
  );
}

/**
 * A list of string faults, or a line saying there are none: the faults against the inverter's own median
 * and those against the plant's strings read alike, only their wording differs.
 */
function FaultList({
  faults,
  messageKey,
  noneKey,
  data,
  language,
}: {
  faults: DeviceStringsAnswer['faults'];
  messageKey: 'devicePages.strings.fault' | 'devicePages.strings.plantFault';
  noneKey: 'devicePages.strings.noFaults' | 'devicePages.strings.noPlantFaults';
  data: DeviceStringsAnswer;
  language: string;
}) {
  const { t } = useTranslation();
  if (faults.length === 0) return <p>{t(noneKey)}</p>;
  return (
    <ul>
      {faults.map((f) => (
        <li key={`${f.n}-${f.from}`} data-string={f.n}>
          {t(messageKey, {
            n: f.n,
            from: formatPlantTime(f.from, data.time_zone, language, 'dateTime'),
            to: f.to
              ? formatPlantTime(f.to, data.time_zone, language, 'dateTime')
              : t('devicePages.strings.ongoing'),
            ratio: pct(f.ratio),
          })}
          {f.energy_lost_kwh !== null &&
            `; ${t('devicePages.strings.energyLost', { energy: formatNumber(f.energy_lost_kwh, language, 1) })}`}
        </li>
      ))}
    </ul>
  );
}

function Faults({ data, language }: { data: DeviceStringsAnswer; language: string }) {
  const { t } = useTranslation();
  return (
    <div className="string-heat-map-faults" data-testid="string-faults">
      <h4>{t('devicePages.strings.faults')}</h4>
      <FaultList
        faults={data.faults}
        messageKey="devicePages.strings.fault"
        noneKey="devicePages.strings.noFaults"
        data={data}
        language={language}
      />
    </div>
  );
}

/** The mean of the inverter's judged ratios to the plant's median over the day; null when none was judged. */
function meanPlantRatio(data: DeviceStringsAnswer): number | null {
  const judged = data.strings.flatMap((s) => s.plant_ratio.filter((r): r is number => r !== null));
  return judged.length ? judged.reduce((a, b) => a + b, 0) / judged.length : null;
}

/**
 * The strings against the plant's strings of the same configuration (docs/string-health.md, "Plant-wide
 * median"): what the heat map's own-median colours cannot show, an inverter whose strings are all low.
 */
function PlantComparison({ data, language }: { data: DeviceStringsAnswer; language: string }) {
  const { t } = useTranslation();
  const peers = data.plant_peers;
  const ratio = meanPlantRatio(data);
  return (
    <div className="string-heat-map-faults" data-testid="string-plant-comparison">
      <h4>{t('devicePages.strings.plantTitle')}</h4>
      {peers === null ? (
        <p>{t('devicePages.strings.plantNone')}</p>
      ) : (
        <>
          <p data-testid="string-plant-peers">
            {ratio === null
              ? t('devicePages.strings.plantPeersNotJudged', { ...peers })
              : t('devicePages.strings.plantPeers', { ...peers, ratio: pct(ratio) })}
          </p>
          <FaultList
            faults={data.plant_faults}
            messageKey="devicePages.strings.plantFault"
            noneKey="devicePages.strings.noPlantFaults"
            data={data}
            language={language}
          />
        </>
      )}
    </div>
  );
}
