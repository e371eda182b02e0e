import { Suspense, useMemo, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import DatePicker from 'antd/es/date-picker';
import Empty from 'antd/es/empty';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  AGGREGATES,
  CSV_DELIMITERS,
  RESOLUTIONS,
  defaultCsvDelimiter,
  type Aggregate,
  type CsvDelimiter,
  type Resolution,
} from '@solar/shared';
import { TelemetryChart } from '../../components';
import { toOptions } from '../../lib/lookups';
import { errorMessageOf } from '../../lib/api-errors';
import { notify } from '../../lib/notify';
import { usePreferences } from '../../lib/preferences-store';
import { downloadExport, type ExportFormat } from './api/download-export';
import {
  renderSignalOption,
  SIGNAL_SEARCH,
  signalOption,
  useCatalogPlants,
  usePlantCatalog,
} from '../telemetry';
import { signalsOfDevices } from './data-signals';
import { useLatestValues } from './api/get-latest';
import { useTelemetry, type TelemetryRequest } from './api/get-telemetry';
import { LiveValuesTable } from './components/live-values-table';
import { FlagBandList, useFlagBands } from '../data-quality';
import { RANGE_PRESETS, fileSafe, rangeOf, type RangePreset } from './time-range';
import './data-page.css';
import { dateBounds } from '../../lib/date-bounds';
import { browserTimeZone, plantToday, zoneLabel } from '../../lib/plant-time';
import { extentOf } from '../../lib/plant-time-axis';
import { signalName } from '../../lib/signal-name';
import { PlantClockNote } from '../../lib/plant-time-view';

/**
 * /data: plant → devices → signals, a time range, resolution and aggregate; the series as a zoomable
 * chart, the signals' current values pushed live, and the series as CSV or XLSX.
 */
export default function DataPage() {
  const { t, i18n } = useTranslation();
  const dark = usePreferences((s) => s.theme) === 'dark';
  const [plantId, setPlantId] = useState<number>();
  const [deviceIds, setDeviceIds] = useState<number[]>([]);
  const [signalIds, setSignalIds] = useState<number[]>([]);
  const [preset, setPreset] = useState<RangePreset>('today');
  const [custom, setCustom] = useState<[Dayjs, Dayjs] | null>(null);
  const [resolution, setResolution] = useState<Resolution>('auto');
  const [agg, setAgg] = useState<Aggregate>('avg');
  /** Bumped by "refresh": running ranges end at the moment they were asked for. */
  const [asked, setAsked] = useState(() => Date.now());
  const [downloading, setDownloading] = useState<ExportFormat | null>(null);
  // Turkish, German and Macedonian Excel expect `;` with a decimal comma; the user may choose otherwise.
  const [delimiter, setDelimiter] = useState<CsvDelimiter>(() => defaultCsvDelimiter(i18n.language));

  // The catalog needs only dashboard view: the management lists would refuse an operator.
  const plants = useCatalogPlants();
  const devices = usePlantCatalog(plantId);
  const signals = useMemo(() => signalsOfDevices(devices.data ?? [], deviceIds), [devices.data, deviceIds]);
  const chosen = useMemo(
    () => signalIds.flatMap((id) => signals.filter((s) => s.id === id)),
    [signalIds, signals],
  );
  const latest = useLatestValues(deviceIds.filter((id) => chosen.some((s) => s.device_id === id)));
  const plant = plants.data?.find((p) => p.id === plantId);
  // Every time of the page is on the chosen plant's clock (lib/plant-time.ts), its days the plant's days.
  const timeZone = plant?.time_zone ?? browserTimeZone();
  const range = useMemo(
    () =>
      rangeOf(
        preset,
        asked,
        timeZone,
        custom && [custom[0].format('YYYY-MM-DD'), custom[1].format('YYYY-MM-DD')],
      ),
    [preset, custom, asked, timeZone],
  );
  const request: TelemetryRequest = useMemo(
    () => ({ signalIds: chosen.map((s) => s.id), from: range.from, to: range.to, resolution, agg }),
    [chosen, range, resolution, agg],
  );
  const telemetry = useTelemetry(request);
  // The data-quality flags of the charted signals over the range, shaded on their series.
  const flagged = useMemo(
    () => chosen.map((s) => ({ id: s.id, label: `${s.device_name} · ${signalName(s)}` })),
    // signalName reads the interface language: a new language names the signals again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [chosen, i18n.language],
  );
  const flags = useFlagBands(plantId, timeZone, range, flagged);
  const chartZone = telemetry.data ? zoneLabel(timeZone, extentOf(telemetry.data.series)) : null;

  const download = async (format: ExportFormat) => {
    setDownloading(format);
    try {
      const days = `${plantToday(timeZone, range.from)}_${plantToday(timeZone, range.to - 1)}`;
      const name = `${fileSafe(plant?.name ?? '')}_${days}`;
      await downloadExport(request, format, name, delimiter);
    } catch (error) {
      notify.error(errorMessageOf(error, t));
    } finally {
      setDownloading(null);
    }
  };

  const signalOptions = deviceIds.map((deviceId) => ({
    label: devices.data?.find((d) => d.id === deviceId)?.name ?? String(deviceId),
    title: String(deviceId),
    options: signals.filter((s) => s.device_id === deviceId).map(signalOption),
  }));

  const noSignals = chosen.length === 0;
  return (
    <div className="data-page" data-testid="data-page">
      <Card size="small" className="data-filters">
        <Space wrap size={[12, 12]}>
          <Select<number>
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('data.plant')}
            options={toOptions(plants.data)}
            loading={plants.isLoading}
            value={plantId}
            onChange={(id) => {
              setPlantId(id);
              setDeviceIds([]);
              setSignalIds([]);
            }}
            className="data-select"
            aria-label={t('data.plant')}
            data-testid="data-plant"
          />
          <Select<number[]>
            mode="multiple"
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            maxTagCount="responsive"
            placeholder={t('data.devices')}
            options={toOptions(devices.data)}
            loading={devices.isLoading && !!plantId}
            disabled={!plantId}
            value={deviceIds}
            onChange={(ids) => {
              setDeviceIds(ids);
              setSignalIds((current) =>
                current.filter((id) => signals.some((s) => s.id === id && ids.includes(s.device_id))),
              );
            }}
            className="data-select-wide"
            aria-label={t('data.devices')}
            data-testid="data-devices"
          />
          <Select<number[]>
            mode="multiple"
            allowClear
            showSearch={SIGNAL_SEARCH}
            maxTagCount="responsive"
            placeholder={t('data.signals')}
            options={signalOptions}
            optionRender={renderSignalOption}
            loading={devices.isLoading && !!plantId}
            disabled={!deviceIds.length}
            value={signalIds}
            onChange={setSignalIds}
            className="data-select-wide"
            aria-label={t('data.signals')}
            data-testid="data-signals"
          />
        </Space>
        <Space wrap size={[12, 12]} className="data-filters-row">
          <Select<RangePreset>
            options={RANGE_PRESETS.map((p) => ({ value: p, label: t(`data.ranges.${p}`) }))}
            value={preset}
            onChange={(p) => {
              setPreset(p);
              setAsked(Date.now());
            }}
            className="data-select"
            aria-label={t('data.range')}
            data-testid="data-range"
          />
          {preset === 'custom' && (
            <DatePicker.RangePicker
              {...dateBounds}
              value={custom}
              onChange={(v) => setCustom(v?.[0] && v[1] ? [v[0], v[1]] : null)}
              disabledDate={(d) => d.format('YYYY-MM-DD') > plantToday(timeZone)}
              allowClear={false}
              aria-label={t('data.range')}
              data-testid="data-custom-range"
            />
          )}
          <Select<Resolution>
            options={RESOLUTIONS.map((r) => ({ value: r, label: t(`data.resolutions.${r}`) }))}
            value={resolution}
            onChange={setResolution}
            className="data-select-narrow"
            data-testid="data-resolution"
            aria-label={t('data.resolution')}
          />
          <Select<Aggregate>
            options={AGGREGATES.map((a) => ({ value: a, label: t(`data.aggregates.${a}`) }))}
            value={agg}
            onChange={setAgg}
            disabled={resolution === 'raw'}
            className="data-select-narrow"
            data-testid="data-aggregate"
            aria-label={t('data.aggregate')}
          />
          <Button onClick={() => setAsked(Date.now())} disabled={noSignals} data-testid="data-refresh">
            {t('data.refresh')}
          </Button>
          <Select<CsvDelimiter>
            options={CSV_DELIMITERS.map((d) => ({ value: d, label: t(`data.delimiters.${d}`) }))}
            value={delimiter}
            onChange={setDelimiter}
            className="data-select-narrow"
            data-testid="data-delimiter"
            aria-label={t('data.delimiter')}
          />
          <Button
            icon={<DownloadOutlined />}
            disabled={noSignals}
            loading={downloading === 'csv'}
            onClick={() => void download('csv')}
            data-testid="data-download-csv"
          >
            {t('data.downloadCsv')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            disabled={noSignals}
            loading={downloading === 'xlsx'}
            onClick={() => void download('xlsx')}
            data-testid="data-download-xlsx"
          >
            {t('data.downloadXlsx')}
          </Button>
        </Space>
      </Card>

      <Card
        size="small"
        title={t('data.chart')}
        className="data-card"
        extra={
          telemetry.data && (
            <Space size={12} wrap>
              <PlantClockNote zone={chartZone} testId="data-chart-zone" />
              <span>{t(`data.resolutions.${telemetry.data.resolution}`)}</span>
            </Space>
          )
        }
      >
        {telemetry.isError && (
          <Alert type="error" showIcon title={errorMessageOf(telemetry.error, t)} data-testid="data-error" />
        )}
        {noSignals ? (
          <Empty description={t('data.chooseSignals')} data-testid="data-empty" />
        ) : telemetry.data && telemetry.data.series.every((s) => s.points.length === 0) ? (
          <Empty description={t('data.noData')} data-testid="data-no-data" />
        ) : (
          <Spin spinning={telemetry.isFetching}>
            {/* The chart loads lazily while the selects are already usable. */}
            <Suspense fallback={<div className="data-chart" />}>
              {telemetry.data && (
                <TelemetryChart
                  series={telemetry.data.series}
                  dark={dark}
                  language={i18n.language}
                  timeZone={timeZone}
                  otherUnitsLabel={t('data.otherUnits')}
                  bands={flags.chartBands}
                  testId="data-chart"
                />
              )}
            </Suspense>
            {!telemetry.data && <div className="data-chart" />}
            <FlagBandList bands={flags.bands} labels={flags.labels} />
          </Spin>
        )}
      </Card>

      <Card size="small" title={t('data.currentValues')} className="data-card">
        <LiveValuesTable signals={chosen} latest={latest} timeZone={timeZone} />
      </Card>
    </div>
  );
}
