import { Suspense, useMemo, useState } from 'react';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Descriptions from 'antd/es/descriptions';
import Empty from 'antd/es/empty';
import Row from 'antd/es/row';
import Spin from 'antd/es/spin';
import Statistic from 'antd/es/statistic';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { InverterSummaryAnswer, TelemetrySeries } from '@solar/shared';
import { BarChart, NotFoundPage, PlantDayPicker, TelemetryChart } from '../../components';
import { errorMessageOf } from '../../lib/api-errors';
import { formatNumber } from '../../lib/format';
import { isTranslationKey } from '../../lib/i18n-keys';
import { usePreferences } from '../../lib/preferences-store';
import { ApiError } from '../../lib/problem';
import { DeviceAlarmsTable } from '../alarms';
import { useCatalogPlants, usePlantCatalog } from '../telemetry';
import { useInverterDay } from './api/get-inverter-day';
import { useInverterSummary } from './api/get-inverter-summary';
import { OperatingStatusTag } from './components/status-tag';
import { StringHeatMap } from './components/string-heat-map';
import { dayRange } from './day-range';
import './inverters.css';
import { zoneLabel } from '../../lib/plant-time';
import { PlantClockNote, PlantTime } from '../../lib/plant-time-view';
import { DataQualityCard } from '../data-quality';

type Mppt = InverterSummaryAnswer['mppts'][number];

/** Below this DC power (kW) the AC/DC ratio is noise (dawn, dusk), so the efficiency line has a gap. */
const MIN_DC_KW_FOR_EFFICIENCY = 0.05;

/** The efficiency series (%), AC / DC at the timestamps both series have. */
function efficiencySeries(ac: TelemetrySeries, dc: TelemetrySeries, name: string): TelemetrySeries {
  const dcAt = new Map(dc.points.map(([ts, v]) => [ts, v]));
  return {
    ...ac,
    signal_id: -1,
    key: 'efficiency',
    name,
    unit: '%',
    is_counter: false,
    points: ac.points.map(([ts, v]) => {
      const d = dcAt.get(ts);
      return [ts, v !== null && d != null && d > MIN_DC_KW_FOR_EFFICIENCY ? (v / d) * 100 : null];
    }),
  };
}

const value = (v: number | null, language: string, digits = 2) =>
  v === null ? '—' : formatNumber(v, language, digits);

/**
 * /inverter-detay/{inverter_id}: the inverter's status and live values, the chosen day's AC/DC power and
 * efficiency, its MPPTs, energy, specific yield against the plant's other inverters and its alarm history.
 */
export default function InverterDetailPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const dark = usePreferences((s) => s.theme) === 'dark';
  const id = Number(useParams().inverterId);
  const valid = Number.isInteger(id) && id > 0;
  const [date, setDate] = useState<string | null>(null);
  const summary = useInverterSummary(id, date);
  const data = summary.data;
  const plants = useCatalogPlants(!!data);
  const devices = usePlantCatalog(data?.plant_id);

  const signals = useMemo(() => {
    const device = devices.data?.find((d) => d.id === id);
    const of = (key: string) => device?.signals.find((s) => s.key === key)?.id;
    return { ac: of('ac_power'), dc: of('dc_power') };
  }, [devices.data, id]);
  const range = data ? dayRange(data.date, data.time_zone) : { from: 0, to: 0 };
  const day = useInverterDay({
    signalIds: [signals.ac, signals.dc].filter((s): s is number => s !== undefined),
    ...range,
  });

  const series = useMemo(() => {
    const list = day.data?.series ?? [];
    const ac = list.find((s) => s.signal_id === signals.ac);
    const dc = list.find((s) => s.signal_id === signals.dc);
    const named = list.map((s) => ({
      ...s,
      name: s.signal_id === signals.ac ? t('devicePages.acPower') : t('devicePages.dcPower'),
    }));
    return ac && dc ? [...named, efficiencySeries(ac, dc, t('devicePages.efficiency'))] : named;
  }, [day.data, signals, t]);

  const bars = useMemo(
    () =>
      (data?.plant_inverters ?? []).map((inv) => ({
        label: inv.name,
        value: inv.specific_yield_kwh_kwp,
        highlighted: inv.device_id === id,
      })),
    [data, id],
  );

  if (!valid) return <NotFoundPage />;
  // The route exists; only this inverter is unknown or out of scope (as the plant detail answers it).
  if (summary.error instanceof ApiError && summary.error.status === 404)
    return <Empty description={t('errors.notFound')} data-testid="inverter-not-found" />;
  if (summary.error && !data)
    return (
      <Alert type="error" showIcon title={errorMessageOf(summary.error, t)} data-testid="inverter-error" />
    );
  if (!data) return <Spin className="device-page-spin" data-testid="inverter-loading" />;

  const plantName = plants.data?.find((p) => p.id === data.plant_id)?.name;
  const stateText =
    data.status_text_key && isTranslationKey(data.status_text_key) ? t(data.status_text_key) : null;
  const lastData = data.last_data_at ? (
    <PlantTime at={data.last_data_at} zone={data.time_zone} testId="inverter-last-data" />
  ) : (
    t('devicePages.noData')
  );
  // The day chart runs on the plant's clock over the plant's day; named when the reader's clock differs.
  const chartZone = zoneLabel(data.time_zone, [range.from, range.to - 1]);
  const mpptColumns = [
    { key: 'index', title: t('devicePages.mppt'), render: (_: unknown, m: Mppt) => `MPPT ${m.index}` },
    {
      key: 'v',
      title: t('devicePages.voltage'),
      align: 'right' as const,
      render: (_: unknown, m: Mppt) => value(m.dc_voltage_v, language, 1),
    },
    {
      key: 'a',
      title: t('devicePages.current'),
      align: 'right' as const,
      render: (_: unknown, m: Mppt) => value(m.dc_current_a, language),
    },
    {
      key: 'kw',
      title: t('devicePages.power'),
      align: 'right' as const,
      render: (_: unknown, m: Mppt) => value(m.dc_power_kw, language),
    },
  ];

  return (
    <div className="device-page" data-testid="inverter-page" data-inverter-id={id}>
      <Card className="device-header">
        <div className="device-header-title">
          <h2 data-testid="inverter-name">{data.name}</h2>
          <OperatingStatusTag status={data.status} testId="inverter-status" />
          {stateText && (
            <Tag data-testid="inverter-state-text" data-code={data.status_code ?? ''}>
              {stateText}
            </Tag>
          )}
        </div>
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, lg: 4 }}
          items={[
            {
              key: 'plant',
              label: t('devicePages.plant'),
              children: (
                <Link to={`/santral-detay/${data.plant_id}`}>{plantName ?? `#${data.plant_id}`}</Link>
              ),
            },
            { key: 'last', label: t('devicePages.lastData'), children: lastData },
            {
              key: 'rated',
              label: t('devicePages.ratedPower'),
              children: `${value(data.rated_power_kw, language, 1)} kW`,
            },
            {
              key: 'code',
              label: t('devicePages.statusCode'),
              children: stateText ? `${stateText} (${data.status_code ?? '—'})` : '—',
            },
          ]}
        />
        <label className="device-day">
          <span>{t('devicePages.day')}</span>
          <PlantDayPicker
            timeZone={data.time_zone}
            testId="inverter-day"
            value={data.date}
            onChange={setDate}
          />
        </label>
      </Card>

      <Row gutter={[16, 16]} className="device-stats" data-testid="inverter-stats">
        {(
          [
            ['acPower', data.ac_power_kw, 'kW', 2],
            ['dcPower', data.dc_power_kw, 'kW', 2],
            ['efficiency', data.efficiency === null ? null : data.efficiency * 100, '%', 1],
            ['temperature', data.temperature_c, '°C', 1],
            ['energyDay', data.energy_kwh, 'kWh', 1],
            ['lifetimeEnergy', data.lifetime_energy_kwh, 'kWh', 0],
            ['specificYield', data.specific_yield_kwh_kwp, 'kWh/kWp', 2],
            ['dcVoltage', data.dc_voltage_v, 'V', 1],
          ] as const
        ).map(([key, v, unit, digits]) => (
          <Col xs={12} md={6} key={key}>
            <Card size="small">
              <Statistic
                title={t(`devicePages.${key}`)}
                value={value(v, language, digits)}
                suffix={v === null ? undefined : unit}
                data-testid={`inverter-stat-${key}`}
              />
            </Card>
          </Col>
        ))}
      </Row>

      <Card
        title={t('devicePages.dayChart')}
        className="device-card"
        extra={<PlantClockNote zone={chartZone} testId="inverter-chart-zone" />}
      >
        {day.error ? (
          <Alert type="error" showIcon title={errorMessageOf(day.error, t)} />
        ) : series.length === 0 || series.every((s) => s.points.length === 0) ? (
          day.isFetching || devices.isPending ? (
            <Spin />
          ) : (
            <Empty description={t('devicePages.noDayData')} data-testid="inverter-chart-empty" />
          )
        ) : (
          <Suspense fallback={<Spin />}>
            <TelemetryChart
              series={series}
              dark={dark}
              language={language}
              timeZone={data.time_zone}
              otherUnitsLabel={t('data.otherUnits')}
              testId="inverter-power-chart"
            />
          </Suspense>
        )}
      </Card>

      <StringHeatMap deviceId={id} date={data.date} dark={dark} />

      <Row gutter={[16, 16]}>
        {data.mppts.length > 0 && (
          <Col xs={24} lg={12}>
            <Card title={t('devicePages.mppts')} className="device-card">
              <Table<Mppt>
                data-testid="inverter-mppts"
                size="small"
                rowKey="index"
                pagination={false}
                dataSource={data.mppts}
                columns={mpptColumns}
                scroll={{ x: 'max-content' }}
              />
            </Card>
          </Col>
        )}
        <Col xs={24} lg={data.mppts.length > 0 ? 12 : 24}>
          <Card title={t('devicePages.comparison')} className="device-card">
            {bars.every((b) => b.value === null) ? (
              <Empty description={t('devicePages.noData')} data-testid="inverter-comparison-empty" />
            ) : (
              <Suspense fallback={<Spin />}>
                <BarChart
                  bars={bars}
                  dark={dark}
                  language={language}
                  unit="kWh/kWp"
                  testId="inverter-comparison"
                />
              </Suspense>
            )}
          </Card>
        </Col>
      </Row>

      <Card title={t('devicePages.alarmHistory')} className="device-card">
        <DeviceAlarmsTable deviceId={id} />
      </Card>

      <DataQualityCard subject={{ deviceId: id }} day={data.date} className="device-card" />
    </div>
  );
}
