import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import DatePicker from 'antd/es/date-picker';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import Typography from 'antd/es/typography';
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  CSV_DELIMITERS,
  LOCALES,
  REPORT_FORMATS,
  REPORT_TYPES,
  defaultCsvDelimiter,
  type CsvDelimiter,
  type Locale,
  type ReportFormat,
  type ReportType,
} from '@solar/shared';
import { errorMessageOf } from '../../lib/api-errors';
import { notify } from '../../lib/notify';
import { usePreferences } from '../../lib/preferences-store';
import { useCatalogPlants } from '../telemetry';
import { downloadReport } from './api/download-report';
import { useReport } from './api/get-report';
import type { ReportRequest } from './api/report-request';
import { ReportPreview } from './components/report-preview';
import { SchedulesCard } from './components/schedules-card';
import { RANGE_PRESETS, presetRange } from './report-range';
import './reports-page.css';
import { dateBounds } from '../../lib/date-bounds';

const asLocale = (language: string): Locale =>
  (LOCALES as readonly string[]).includes(language) ? (language as Locale) : 'tr_TR';

/**
 * /report: a report type, a period, plants in scope and a language; a preview as a chart and a table
 * (GET reports/{type} as JSON), the same report downloaded in every format (CSV with a delimiter choice),
 * and the user's scheduled reports by mail.
 */
export default function ReportsPage() {
  const { t, i18n } = useTranslation();
  const dark = usePreferences((s) => s.theme) === 'dark';
  const plants = useCatalogPlants();
  const [type, setType] = useState<ReportType>('production');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => presetRange('lastMonth', dayjs()));
  const [plantIds, setPlantIds] = useState<number[]>([]);
  const [lang, setLang] = useState<Locale>(() => asLocale(i18n.language));
  const [delimiter, setDelimiter] = useState<CsvDelimiter>(() =>
    defaultCsvDelimiter(asLocale(i18n.language)),
  );
  const [asked, setAsked] = useState<ReportRequest | null>(null);
  const [downloading, setDownloading] = useState<ReportFormat | null>(null);
  const preview = useReport(asked);

  const request: ReportRequest = {
    type,
    plantIds,
    from: range[0].format('YYYY-MM-DD'),
    to: range[1].format('YYYY-MM-DD'),
    lang,
  };
  const noPlants = plantIds.length === 0;

  const download = async (format: ReportFormat) => {
    setDownloading(format);
    try {
      await downloadReport(request, format, delimiter);
    } catch (error) {
      notify.error(errorMessageOf(error, t));
    } finally {
      setDownloading(null);
    }
  };

  return (
    <div className="reports-page" data-testid="report-page">
      <Card data-testid="report-form">
        <div className="report-filters">
          <div className="report-field">
            <Typography.Text type="secondary">{t('reportPage.type')}</Typography.Text>
            <Select<ReportType>
              value={type}
              onChange={setType}
              options={REPORT_TYPES.map((r) => ({ value: r, label: t(`reportPage.types.${r}`) }))}
              aria-label={t('reportPage.type')}
              data-testid="report-type"
            />
          </div>
          <div className="report-field">
            <Typography.Text type="secondary">{t('reportPage.period')}</Typography.Text>
            <DatePicker.RangePicker
              {...dateBounds}
              value={range}
              onChange={(v) => {
                if (v?.[0] && v[1]) setRange([v[0], v[1]]);
              }}
              presets={RANGE_PRESETS.map((p) => ({
                label: t(`reportPage.ranges.${p}`),
                value: presetRange(p, dayjs()),
              }))}
              disabledDate={(d) => d.isAfter(dayjs(), 'day')}
              allowClear={false}
              aria-label={t('reportPage.period')}
              data-testid="report-range"
            />
          </div>
          <div className="report-field report-field-wide">
            <Typography.Text type="secondary">{t('reportPage.plants')}</Typography.Text>
            <Select<number[]>
              mode="multiple"
              value={plantIds}
              onChange={setPlantIds}
              showSearch={{ optionFilterProp: 'label' }}
              options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
              loading={plants.isLoading}
              placeholder={t('reportPage.plantsPlaceholder')}
              aria-label={t('reportPage.plants')}
              data-testid="report-plants"
            />
          </div>
          <div className="report-field">
            <Typography.Text type="secondary">{t('reportPage.language')}</Typography.Text>
            <Select<Locale>
              value={lang}
              onChange={(l) => {
                setLang(l);
                setDelimiter(defaultCsvDelimiter(l));
              }}
              options={LOCALES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
              aria-label={t('reportPage.language')}
              data-testid="report-lang"
            />
          </div>
        </div>
        <Space wrap size={[8, 8]} className="report-actions">
          <Button
            type="primary"
            disabled={noPlants}
            loading={preview.isFetching}
            onClick={() => setAsked({ ...request })}
            data-testid="report-preview-button"
          >
            {t('reportPage.preview')}
          </Button>
          {REPORT_FORMATS.map((format) => (
            <Button
              key={format}
              icon={<DownloadOutlined />}
              disabled={noPlants}
              loading={downloading === format}
              onClick={() => void download(format)}
              data-testid={`report-download-${format}`}
            >
              {t(`reportPage.formats.${format}`)}
            </Button>
          ))}
          <Select<CsvDelimiter>
            value={delimiter}
            onChange={setDelimiter}
            options={CSV_DELIMITERS.map((d) => ({ value: d, label: t(`reportPage.delimiters.${d}`) }))}
            aria-label={t('reportPage.csvDelimiter')}
            className="report-delimiter"
            data-testid="report-csv-delimiter"
          />
        </Space>
      </Card>

      <Card title={t('reportPage.previewTitle')} data-testid="report-preview-card">
        {preview.isError ? (
          <Alert type="error" showIcon title={errorMessageOf(preview.error, t)} data-testid="report-error" />
        ) : preview.data ? (
          <Spin spinning={preview.isFetching}>
            <ReportPreview report={preview.data} dark={dark} />
          </Spin>
        ) : preview.isFetching ? (
          <Spin />
        ) : (
          <Typography.Text type="secondary" data-testid="report-choose">
            {t('reportPage.choose')}
          </Typography.Text>
        )}
      </Card>

      <SchedulesCard draft={{ report_type: type, plant_ids: plantIds }} />
    </div>
  );
}
