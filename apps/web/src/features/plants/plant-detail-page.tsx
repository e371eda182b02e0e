import { Suspense, useMemo, useState, type ReactNode } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Segmented from 'antd/es/segmented';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import type { UseQueryResult } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import type { PlantKpisAnswer } from '@solar/shared';
import { LoadingSpin, OptionChart, PlantDayPicker } from '../../components';
import { formatNumber } from '../../lib/format';
import { browserTimeZone, plantToday } from '../../lib/plant-time';
import { usePreferences } from '../../lib/preferences-store';
import { PlantAlarms } from '../alarms';
import { DataQualityCard } from '../data-quality';
import { PerformanceCard, usePlantSoilingPeriod } from '../performance';
import { usePlantCatalog } from '../telemetry';
import { usePlantKpis } from './api/get-kpis';
import { usePlantsOverview } from './api/get-overview';
import { usePlantPower } from './api/get-power';
import { usePlantChartLabels } from './components/chart-labels';
import {
  aboveExpectationKwh,
  energyPrOption,
  LOSS_STEPS,
  type LossStep,
  powerClockZone,
  powerOption,
  powerSeriesNames,
  waterfallOption,
  waterfallSteps,
} from './components/chart-options';
import { CoverageWarning } from './components/coverage-warning';
import { ExcludedEnergyNote } from './components/excluded-energy-note';
import { ExcludedIrradianceNote } from './components/excluded-irradiance-note';
import { KpiPerformanceTiles } from './components/kpi-performance-tiles';
import { DeviceList } from './components/device-list';
import { PlantStatus } from './components/status-tag';
import './plants.css';
import { monthName } from '../../lib/intl';
import { useCan } from '../../lib/permissions';
import { PHONE_QUERY, useMediaQuery } from '../../lib/media-query';

const YEARS_BACK = 5;

/** A real YYYY-MM-DD, else null. Whether it is past is the plant's today's call (see `day` below). */
function calendarDate(value: string | null): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const d = dayjs(value);
  return d.isValid() && d.format('YYYY-MM-DD') === value ? value : null;
}

/** A card's body for a query: spinner, error with retry, empty note, or the content. */
function QueryState({
  query,
  empty,
  testId,
  children,
}: {
  query: Pick<UseQueryResult, 'isLoading' | 'isError' | 'refetch'>;
  empty: boolean;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isLoading)
    return (
      <div className="chart-state" data-testid={`${testId}-loading`}>
        <LoadingSpin label={t('plantView.common.loading')} />
      </div>
    );
  if (query.isError)
    return (
      <Alert
        type="error"
        showIcon
        data-testid={`${testId}-error`}
        title={t('plantView.common.error')}
        action={<Button onClick={() => void query.refetch()}>{t('plantView.common.retry')}</Button>}
      />
    );
  if (empty) return <Empty description={t('plantView.common.noData')} data-testid={`${testId}-empty`} />;
  return <>{children}</>;
}

/** A KPI tile: label, value with unit, and an optional note. */
function Tile({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: string;
  note?: string;
  testId: string;
}) {
  return (
    <Card size="small" className="kpi-tile" data-testid={testId}>
      <div className="kpi-tile-label">{label}</div>
      <div className="kpi-tile-value">{value}</div>
      {note && <div className="kpi-tile-note">{note}</div>}
    </Card>
  );
}

/**
 * /santral-detay/{plant_id}: the chosen day's KPIs (IEC 61724-1), its power against the model, the month's
 * and year's energy with PR, the loss waterfall, the devices live and the plant's alarms.
 */
export default function PlantDetailPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const dark = usePreferences((s) => s.theme) === 'dark';
  const phone = useMediaQuery(PHONE_QUERY);
  const plantId = Number(useParams().plantId);
  // `?date=` opens a past day (the fleet loss view links a plant's period here); today otherwise.
  const [params] = useSearchParams();
  const [requestedDay, setDay] = useState<string | null>(() => calendarDate(params.get('date')));
  const [chosenYear, setYear] = useState<number | null>(null);
  const [lossPeriod, setLossPeriod] = useState<'day' | 'month'>('day');

  const overview = usePlantsOverview();
  const plant = overview.data?.find((p) => p.plant_id === plantId);
  // "Today" is the plant's: its date, month and year turn at its midnight, not the browser's. Until its zone
  // is known the browser's stands in; the server answers a request without a date with the plant's today.
  const timeZone = plant?.time_zone ?? browserTimeZone();
  const today = plantToday(timeZone);
  const day = requestedDay !== null && requestedDay < today ? requestedDay : null;
  const currentYear = Number(today.slice(0, 4));
  const year = chosenYear ?? currentYear;
  const dayKpis = usePlantKpis(plantId, 'day', day);
  const monthKpis = usePlantKpis(plantId, 'month', day);
  const yearKpis = usePlantKpis(plantId, 'year', chosenYear === null ? null : `${chosenYear}-01-01`);
  const power = usePlantPower(plantId, day);
  const catalog = usePlantCatalog(plantId);
  // Links only to pages the user may open: a link the router would bounce elsewhere is a broken promise.
  const canSeeSingleLine = useCan('single_line').view;
  const canSeeCameras = useCan('dashboard').view;
  const cameras = canSeeCameras ? (catalog.data ?? []).filter((d) => d.type === 'camera') : [];

  const num = (v: number | null | undefined, digits = 1) =>
    v === null || v === undefined ? '–' : formatNumber(v, language, digits);
  const pct = (v: number | null | undefined) => (v === null || v === undefined ? '–' : `${num(v * 100)} %`);
  const labels = usePlantChartLabels();
  // The energy bars are the KPIs' energy; their series and the card name its source (meter or inverters).
  const energyLabels = (k: PlantKpisAnswer) => ({ energy: labels.energyOf(k.energy_source), pr: labels.pr });

  const powerChart = useMemo(
    () => (power.data ? powerOption(power.data, labels.power, language) : null),
    // labels are derived from the language
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [power.data, language],
  );
  const powerZone = power.data ? powerClockZone(power.data) : null;
  const powerLabel = power.data
    ? `${t('plantView.chart.powerTitle')}: ${powerSeriesNames(power.data, labels.power).join(', ')}`
    : t('plantView.chart.powerTitle');
  const monthChart = useMemo(() => {
    if (!monthKpis.data) return null;
    const categories = monthKpis.data.rows.map((r) => String(Number(r.key.slice(8, 10))));
    return energyPrOption(monthKpis.data, categories, energyLabels(monthKpis.data), language);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [monthKpis.data, language]);
  const yearChart = useMemo(() => {
    if (!yearKpis.data) return null;
    const categories = yearKpis.data.rows.map((r) =>
      monthName(Number(r.key.slice(5, 7)) - 1, language, 'short'),
    );
    return energyPrOption(yearKpis.data, categories, energyLabels(yearKpis.data), language);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [yearKpis.data, language]);

  const lossKpis = lossPeriod === 'day' ? dayKpis : monthKpis;
  const modelCaption = (k: PlantKpisAnswer) =>
    t('plantView.loss.model', {
      gref: num(k.model.g_ref_w_m2, 0),
      tref: num(k.model.t_ref_c, 0),
      p0: num(k.model.dc_capacity_kwp),
      gamma: num(k.model.temperature_coefficient_per_k, 4),
      losses: num(k.model.system_loss_fraction * 100),
      ac: num(k.model.ac_capacity_kw),
      threshold: num(k.model.daylight_threshold_w_m2, 0),
    });
  // The loss view's period as local dates: the chosen day, or its month.
  const lossDay = day ?? today;
  const lossFrom = lossPeriod === 'day' ? lossDay : `${lossDay.slice(0, 7)}-01`;
  const lossTo = lossPeriod === 'day' ? lossDay : monthEnd(lossDay);
  const soiling = usePlantSoilingPeriod(plantId, lossFrom, lossTo);
  const soilingKwh = soiling.data?.status === 'ok' ? soiling.data.loss_kwh : null;
  // No waterfall without an actual energy: a period without data is unknown, not a loss of everything.
  const lossSteps = useMemo(() => {
    const k = lossKpis.data;
    if (!k || k.energy_kwh === null || !k.coverage) return null;
    return waterfallSteps(k.expected_energy_kwh, k.energy_kwh, k.losses, soilingKwh);
  }, [lossKpis.data, soilingKwh]);
  const lossChart = useMemo(() => {
    if (!lossSteps) return null;
    const steps = Object.fromEntries(
      [...LOSS_STEPS, 'soiling' as const].map((s) => [s, t(`plantView.loss.${s}`)]),
    ) as Record<LossStep, string>;
    return waterfallOption(
      lossSteps,
      {
        expected: t('plantView.loss.expected'),
        actual: t('plantView.loss.actual'),
        above: t('plantView.loss.aboveExpectation'),
        steps,
      },
      language,
      phone,
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lossSteps, language, phone]);
  const aboveKwh = lossSteps ? aboveExpectationKwh(lossSteps) : 0;

  const shownMonth = (monthKpis.data?.date ?? day ?? today).slice(0, 7);
  const monthTitle = `${monthName(Number(shownMonth.slice(5, 7)) - 1, language, 'long')} ${shownMonth.slice(0, 4)}`;
  /** The energy source of a chart's period, under its title and in its accessible label. */
  const sourceNote = (k: PlantKpisAnswer | undefined, testId: string) =>
    k && (
      <p className="chart-source" data-testid={testId}>
        {t(`plantView.kpi.source.${k.energy_source}`)}
      </p>
    );
  const withSource = (title: string, k: PlantKpisAnswer | undefined) =>
    k ? `${title} (${t(`plantView.kpi.source.${k.energy_source}`)})` : title;
  const k = dayKpis.data;
  const chart = (node: ReactNode) => (
    <Suspense
      fallback={
        <div className="chart-state">
          <LoadingSpin label={t('plantView.common.loading')} />
        </div>
      }
    >
      {node}
    </Suspense>
  );

  if (!Number.isInteger(plantId) || (overview.isSuccess && !plant))
    return <Empty description={t('plantView.detail.notFound')} data-testid="plant-not-found" />;

  return (
    <div className="plant-detail" data-testid="plant-detail">
      <div className="plant-detail-head">
        <Space wrap align="center">
          <Link to="/santraller">← {t('plantView.detail.back')}</Link>
          <h2 className="plant-detail-name" data-testid="plant-name">
            {plant?.name ?? ''}
          </h2>
          {plant && <PlantStatus plant={plant} />}
        </Space>
        <Space wrap>
          <PlantDayPicker
            timeZone={timeZone}
            ariaLabel={t('plantView.detail.day')}
            testId="plant-day"
            value={day ?? today}
            // Today is the live view: no day in the address.
            onChange={(d) => setDay(d < today ? d : null)}
          />
          {canSeeSingleLine && (
            <Link to={`/single-line?plant=${plantId}`} data-testid="plant-single-line">
              {t('plantView.detail.singleLine')}
            </Link>
          )}
          {cameras.map((c) => (
            <Link key={c.id} to={`/kamera-detay/${c.id}`} data-testid="plant-camera-link">
              {t('plantView.detail.cameras')}: {c.name}
            </Link>
          ))}
        </Space>
      </div>

      <QueryState query={dayKpis} empty={false} testId="plant-kpis">
        {k && <CoverageWarning coverage={k.coverage} testId="kpi-coverage-warning" />}
        {k && <ExcludedEnergyNote excluded={k.excluded_energy_kwh} testId="kpi-excluded-energy" />}
        {k && (
          <ExcludedIrradianceNote excluded={k.excluded_irradiance_hours} testId="kpi-excluded-irradiance" />
        )}
        {k && (
          <div className="kpi-tiles" data-testid="plant-kpi-tiles">
            <Tile
              testId="kpi-energy"
              label={t('plantView.kpi.energy')}
              value={`${num(k.energy_kwh)} kWh`}
              note={t(`plantView.kpi.source.${k.energy_source}`)}
            />
            <Tile
              testId="kpi-yield"
              label={t('plantView.kpi.specificYield')}
              value={`${num(k.specific_yield_kwh_kwp, 2)} kWh/kWp`}
            />
            <Tile testId="kpi-pr" label={t('plantView.kpi.pr')} value={pct(k.pr)} />
            <Tile
              testId="kpi-pr-tc"
              label={t('plantView.kpi.prTc')}
              value={pct(k.pr_temperature_corrected)}
            />
            <Tile
              testId="kpi-availability"
              label={t('plantView.kpi.availability')}
              value={pct(k.availability.time_based)}
            />
            <Tile testId="kpi-co2" label={t('plantView.kpi.co2')} value={`${num(k.co2_avoided_kg)} kg`} />
            <Tile
              testId="kpi-irradiation"
              label={t('plantView.kpi.irradiation')}
              // Without any irradiance reading the engine's sum is 0: missing, not a dark day.
              value={k.irradiance_source === 'none' ? '–' : `${num(k.irradiation_kwh_m2, 2)} kWh/m²`}
            />
            <Tile testId="kpi-coverage" label={t('plantView.kpi.coverage')} value={pct(k.coverage)} />
            <KpiPerformanceTiles performance={k.performance} />
          </div>
        )}
      </QueryState>

      <div className="plant-detail-grid">
        <Card
          title={t('plantView.chart.powerTitle')}
          className="plant-card-wide"
          extra={
            powerZone && (
              <span data-testid="power-chart-zone">
                {t('plantView.chart.plantClock', { zone: powerZone })}
              </span>
            )
          }
        >
          <QueryState query={power} empty={!power.data?.points.length} testId="power-chart">
            {powerChart &&
              chart(
                <OptionChart
                  option={powerChart}
                  dark={dark}
                  testId="power-chart"
                  label={powerLabel}
                  points={power.data?.points.length ?? 0}
                />,
              )}
          </QueryState>
        </Card>

        <Card title={t('plantView.chart.monthTitle', { month: monthTitle })}>
          <QueryState query={monthKpis} empty={!monthKpis.data?.rows.length} testId="month-chart">
            {monthKpis.data && (
              <CoverageWarning coverage={monthKpis.data.coverage} testId="month-coverage-warning" />
            )}
            {monthKpis.data && (
              <ExcludedEnergyNote
                excluded={monthKpis.data.excluded_energy_kwh}
                testId="month-excluded-energy"
              />
            )}
            {monthKpis.data && (
              <ExcludedIrradianceNote
                excluded={monthKpis.data.excluded_irradiance_hours}
                testId="month-excluded-irradiance"
              />
            )}
            {sourceNote(monthKpis.data, 'month-energy-source')}
            {monthChart &&
              chart(
                <OptionChart
                  option={monthChart}
                  dark={dark}
                  testId="month-chart"
                  label={withSource(t('plantView.chart.monthTitle', { month: monthTitle }), monthKpis.data)}
                  points={monthKpis.data?.rows.length ?? 0}
                />,
              )}
          </QueryState>
        </Card>

        <Card
          title={<span data-testid="year-title">{t('plantView.chart.yearTitle', { year })}</span>}
          extra={
            <Select
              aria-label={t('plantView.detail.year')}
              data-testid="plant-year"
              value={year}
              onChange={setYear}
              options={Array.from({ length: YEARS_BACK + 1 }, (_, i) => currentYear - i).map((y) => ({
                value: y,
                label: String(y),
              }))}
            />
          }
        >
          <QueryState query={yearKpis} empty={!yearKpis.data?.rows.length} testId="year-chart">
            {yearKpis.data && (
              <CoverageWarning coverage={yearKpis.data.coverage} testId="year-coverage-warning" />
            )}
            {yearKpis.data && (
              <ExcludedEnergyNote
                excluded={yearKpis.data.excluded_energy_kwh}
                testId="year-excluded-energy"
              />
            )}
            {yearKpis.data && (
              <ExcludedIrradianceNote
                excluded={yearKpis.data.excluded_irradiance_hours}
                testId="year-excluded-irradiance"
              />
            )}
            {sourceNote(yearKpis.data, 'year-energy-source')}
            {yearChart &&
              chart(
                <OptionChart
                  option={yearChart}
                  dark={dark}
                  testId="year-chart"
                  label={withSource(t('plantView.chart.yearTitle', { year }), yearKpis.data)}
                  points={yearKpis.data?.rows.length ?? 0}
                />,
              )}
          </QueryState>
        </Card>

        <Card
          title={t('plantView.loss.title')}
          extra={
            <Segmented
              data-testid="loss-period"
              value={lossPeriod}
              onChange={(v) => setLossPeriod(v === 'month' ? 'month' : 'day')}
              options={[
                { value: 'day', label: t('plantView.loss.periodDay') },
                { value: 'month', label: t('plantView.loss.periodMonth') },
              ]}
            />
          }
        >
          <QueryState query={lossKpis} empty={!lossSteps} testId="loss-chart">
            {lossChart &&
              chart(
                <OptionChart
                  option={lossChart}
                  dark={dark}
                  testId="loss-chart"
                  label={t('plantView.loss.title')}
                  points={lossSteps?.length ?? 0}
                  renderer="svg"
                />,
              )}
            {aboveKwh > 0 && (
              <p className="loss-above-note" data-testid="loss-above-note">
                {t('plantView.loss.aboveNote', { value: num(aboveKwh) })}
              </p>
            )}
            {soiling.data && (
              <p className="loss-soiling-note" data-testid="loss-soiling">
                {soiling.data.status === 'ok'
                  ? t('plantView.loss.soilingValue', {
                      value: num(soiling.data.loss_kwh),
                      low: num(soiling.data.loss_kwh_low),
                      high: num(soiling.data.loss_kwh_high),
                      level: num(soiling.data.confidence_level * 100, 0),
                      days: num(soiling.data.days_estimated, 0),
                      total: num(soiling.data.usable_days, 0),
                    })
                  : t('plantView.loss.soilingNone', {
                      reason: t(`plantView.loss.soilingReason.${soiling.data.status}`),
                    })}
              </p>
            )}
            {lossKpis.data && (
              <p className="loss-caption" data-testid="loss-caption">
                {modelCaption(lossKpis.data)}
              </p>
            )}
          </QueryState>
        </Card>

        <PerformanceCard plantId={plantId} />

        <Card title={t('plantView.devices.title')} className="plant-card-wide">
          <DeviceList plantId={plantId} />
        </Card>

        <Card title={t('plantView.alarms.title')} className="plant-card-wide">
          <PlantAlarms plantId={plantId} />
        </Card>

        <DataQualityCard subject={{ plantId }} day={day} className="plant-card-wide" />
      </div>
    </div>
  );
}

/** The last local date of a date's month. */
function monthEnd(date: string): string {
  const [y, m] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${date.slice(0, 7)}-${String(days).padStart(2, '0')}`;
}
