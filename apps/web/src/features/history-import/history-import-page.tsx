import { useMemo, useRef, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Grid from 'antd/es/grid';
import Input from 'antd/es/input';
import Progress from 'antd/es/progress';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import ArrowLeftOutlined from '@ant-design/icons/ArrowLeftOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import {
  HISTORY_COLUMN_UNITS,
  HISTORY_DECIMAL_MARKS,
  HISTORY_IMPORT_MAX_BYTES,
  HISTORY_TIME_FORMATS,
  type HistoryColumnUnit,
  type HistoryImportMapping,
  type HistoryImportPreview,
  type HistoryTimeFormat,
} from '@solar/shared';
import { ApiError } from '../../lib/problem';
import { errorMessageOf } from '../../lib/api-errors';
import { knownKey } from '../../lib/i18n-keys';
import { formatNumber } from '../../lib/format';
import { formatInZone, formatPlantTime } from '../../lib/plant-time';
import { signalName } from '../../lib/signal-name';
import { useCan } from '../../lib/permissions';
import { useSignals } from '../signals';
import { choicesOf, type ColumnChoice } from './mapping-choices';
import { RecentImports } from './recent-imports';
import {
  fileAsBase64,
  useHistoryImport,
  usePreviewHistory,
  useRunHistory,
  useUploadHistory,
} from './api/history-import';

/** The problem's `errors` (line and column of a malformed cell, or a mapping field) as lines of text. */
function ProblemList({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error) return null;
  const errors = error instanceof ApiError ? (error.problem.errors ?? {}) : {};
  return (
    <Alert
      type="error"
      showIcon
      data-testid="history-import-error"
      message={errorMessageOf(error, t)}
      description={
        Object.keys(errors).length ? (
          <ul className="history-import-errors">
            {Object.entries(errors).map(([where, keys]) => (
              <li key={where}>
                <span className="mono">{where}</span>:{' '}
                {keys.map((k) => t(knownKey(k, 'validation.invalidValue'))).join(', ')}
              </li>
            ))}
          </ul>
        ) : undefined
      }
    />
  );
}

/**
 * History import of a plant (docs/history-import.md): upload a CSV or XLSX export, map its columns to the
 * plant's signals with time zone and units, preview with the quality report, run and follow the progress.
 */
export default function HistoryImportPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const plantId = Number(useParams().plantId);
  const can = useCan('device_management');
  // On a phone the summaries put each label above its value: side by side, a label took half of 390 px
  // and the time range wrapped into four lines.
  const phone = Grid.useBreakpoint().md === false;
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadHistory(plantId);
  const preview = usePreviewHistory();
  const run = useRunHistory(plantId);
  const [jobId, setJobId] = useState<number>();
  const job = useHistoryImport(jobId);
  const [choices, setChoices] = useState<ColumnChoice[]>([]);
  const [timeZone, setTimeZone] = useState('');
  const [timeFormat, setTimeFormat] = useState<HistoryTimeFormat>();
  const [decimal, setDecimal] = useState<'.' | ','>();
  const [localError, setLocalError] = useState<string | null>(null);
  const signals = useSignals({ page: 1, pageSize: 200, sort: 'key', plant_id: plantId });
  const signalOptions = useMemo(
    () =>
      (signals.data?.items ?? []).map((s) => ({
        value: s.id,
        label: `${s.device_name ?? ''} · ${signalName(s)}${s.unit ? ` (${s.unit})` : ''}`,
      })),
    [signals.data],
  );

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setLocalError(null);
    preview.reset();
    run.reset();
    if (file.size > HISTORY_IMPORT_MAX_BYTES) return setLocalError(t('validation.fileTooLarge'));
    const format = /\.xlsx$/i.test(file.name) ? 'xlsx' : 'csv';
    const uploaded = await upload
      .mutateAsync({ file_name: file.name.slice(0, 200), format, content_base64: await fileAsBase64(file) })
      .catch(() => undefined);
    if (!uploaded) return;
    setJobId(uploaded.id);
    setChoices(choicesOf(uploaded));
    setTimeFormat(uploaded.detection.time_format);
    setDecimal(uploaded.detection.decimal_mark);
  };

  const mapping = (): HistoryImportMapping => ({
    time_zone: timeZone.trim() || undefined,
    time_format: timeFormat,
    decimal_mark: decimal,
    columns: choices
      .filter((c) => c.signalId !== undefined)
      .map((c) => ({
        sheet: c.sheet,
        column: c.column,
        signal_id: c.signalId!,
        unit: c.unit,
        energy: c.energy,
      })),
  });
  const setChoice = (key: string, patch: Partial<ColumnChoice>) =>
    setChoices((list) => list.map((c) => (c.key === key ? { ...c, ...patch } : c)));

  const current = job.data;
  const detection = current?.detection;
  const mappedCount = choices.filter((c) => c.signalId !== undefined).length;
  const busy = current?.state === 'queued' || current?.state === 'running';

  const mappingColumns: ColumnsType<ColumnChoice> = [
    { key: 'sheet', dataIndex: 'sheet', title: t('historyImport.sheet') },
    {
      key: 'column',
      title: t('historyImport.column'),
      render: (_, c) => (
        <span>
          <span className="mono">{c.letter}</span> {c.name}
        </span>
      ),
    },
    {
      key: 'signal',
      title: t('historyImport.signal'),
      render: (_, c) => (
        <Select<number>
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ minWidth: 260 }}
          placeholder={t('historyImport.notImported')}
          options={signalOptions}
          value={c.signalId}
          onChange={(v) => setChoice(c.key, { signalId: v })}
          aria-label={t('historyImport.signal')}
          data-testid={`history-signal-${c.key}`}
        />
      ),
    },
    {
      key: 'unit',
      title: t('historyImport.unit'),
      render: (_, c) => (
        <Select<HistoryColumnUnit>
          style={{ minWidth: 110 }}
          options={HISTORY_COLUMN_UNITS.map((u) => ({
            value: u,
            label: u === 'as_is' ? t('historyImport.unitAsIs') : u,
          }))}
          value={c.unit}
          onChange={(v) =>
            setChoice(c.key, { unit: v, energy: v.endsWith('h') ? (c.energy ?? 'counter') : null })
          }
          aria-label={t('historyImport.unit')}
        />
      ),
    },
    {
      key: 'energy',
      title: t('historyImport.energyKind'),
      render: (_, c) =>
        c.unit.endsWith('h') ? (
          <Select<'counter' | 'interval'>
            style={{ minWidth: 150 }}
            options={[
              { value: 'counter', label: t('historyImport.energyCounter') },
              { value: 'interval', label: t('historyImport.energyInterval') },
            ]}
            value={c.energy ?? 'counter'}
            onChange={(v) => setChoice(c.key, { energy: v })}
            aria-label={t('historyImport.energyKind')}
          />
        ) : null,
    },
  ];

  const previewData = preview.data;
  // Times in the zone the file was read in (the plant's unless chosen), named when the browser's differs.
  const previewZone = previewData?.time_zone ?? 'UTC';
  const previewColumns: ColumnsType<HistoryImportPreview['signals'][number]> = [
    { key: 'device', dataIndex: 'device_name', title: t('historyImport.device') },
    {
      key: 'signal',
      dataIndex: 'signal_key',
      title: t('historyImport.signal'),
      // The name in the reader's language, as the mapping's picker shows it; the key when not listed.
      render: (key: string, row) => {
        const signal = signals.data?.items.find((x) => x.id === row.signal_id);
        return signal ? signalName(signal) : key;
      },
    },
    {
      key: 'points',
      dataIndex: 'points',
      title: t('historyImport.points'),
      align: 'right',
      render: (v: number) => formatNumber(v, i18n.language, 0),
    },
    {
      key: 'range',
      title: t('historyImport.range'),
      // A time per line, neither broken: in a narrow column a range wrapped at every dash.
      render: (_, s) =>
        s.from ? (
          <span className="nowrap">
            {formatInZone(s.from, previewZone, i18n.language)} –<br />
            {formatPlantTime(s.to, previewZone, i18n.language)}
          </span>
        ) : (
          '—'
        ),
    },
    {
      key: 'quality',
      title: t('historyImport.quality'),
      render: (_, s) =>
        s.quality.length ? (
          <Space size={4} wrap>
            {s.quality.map((q) => (
              <Tag key={q.reason} color={q.reason === 'gap' ? 'orange' : 'red'}>
                {t(knownKey(`historyImport.reasons.${q.reason}`, 'historyImport.reasons.other'))}: {q.flags}
              </Tag>
            ))}
          </Space>
        ) : (
          <Tag color="green">{t('historyImport.clean')}</Tag>
        ),
    },
  ];

  return (
    <Card
      title={
        <Space>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            onClick={() => void navigate('/device-management')}
            aria-label={t('historyImport.back')}
          />
          {t('pages.historyImport')}
        </Space>
      }
      data-testid="history-import-page"
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t('historyImport.intro')}</Typography.Paragraph>
        <input
          ref={input}
          type="file"
          accept=".csv,.txt,.xlsx"
          hidden
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            void onFile(file);
          }}
          data-testid="history-file"
        />
        <Button
          icon={<UploadOutlined />}
          loading={upload.isPending}
          disabled={!can.create || busy}
          onClick={() => input.current?.click()}
          data-testid="history-upload"
        >
          {t('historyImport.chooseFile')}
        </Button>
        {localError && <Alert type="error" showIcon message={localError} />}
        <ProblemList error={upload.error} />

        {detection && (
          <>
            <Descriptions
              size="small"
              bordered
              column={{ xs: 1, md: 2 }}
              layout={phone ? 'vertical' : 'horizontal'}
              data-testid="history-detection"
            >
              <Descriptions.Item label={t('historyImport.file')}>{current.file_name}</Descriptions.Item>
              <Descriptions.Item label={t('historyImport.rows')}>
                {formatNumber(
                  detection.sheets.reduce((a, s) => a + s.rows, 0),
                  i18n.language,
                  0,
                )}
              </Descriptions.Item>
              <Descriptions.Item label={t('historyImport.delimiter')}>
                <span className="mono">
                  {detection.delimiter === '\t' ? 'TAB' : (detection.delimiter ?? '—')}
                </span>
              </Descriptions.Item>
              <Descriptions.Item label={t('historyImport.headerLine')}>
                {detection.sheets.map((s) => s.header_line).join(', ')}
              </Descriptions.Item>
            </Descriptions>
            <Space wrap>
              <Select<HistoryTimeFormat>
                style={{ minWidth: 220 }}
                options={HISTORY_TIME_FORMATS.map((f) => ({
                  value: f,
                  label: t(`historyImport.timeFormats.${f}`),
                }))}
                value={timeFormat}
                onChange={setTimeFormat}
                aria-label={t('historyImport.timeFormat')}
              />
              <Select<'.' | ','>
                style={{ minWidth: 160 }}
                options={HISTORY_DECIMAL_MARKS.map((d) => ({
                  value: d,
                  label: d === ',' ? t('historyImport.decimalComma') : t('historyImport.decimalPoint'),
                }))}
                value={decimal}
                onChange={setDecimal}
                aria-label={t('historyImport.decimalMark')}
              />
              <Input
                style={{ width: 240 }}
                placeholder={t('historyImport.timeZonePlant')}
                value={timeZone}
                disabled={detection.time_has_offset}
                onChange={(e) => setTimeZone(e.target.value)}
                aria-label={t('historyImport.timeZone')}
                data-testid="history-time-zone"
              />
            </Space>
            <Table<ColumnChoice>
              rowKey="key"
              size="small"
              pagination={false}
              columns={mappingColumns}
              dataSource={choices}
              scroll={{ x: true }}
              data-testid="history-mapping"
            />
            <Space wrap>
              <Button
                disabled={!mappedCount || !can.update}
                loading={preview.isPending}
                onClick={() => preview.mutate({ id: current.id, mapping: mapping() })}
                data-testid="history-preview"
              >
                {t('historyImport.preview')}
              </Button>
              <Button
                type="primary"
                disabled={!previewData || !can.update || busy}
                loading={run.isPending}
                onClick={() => run.mutate({ id: current.id, mapping: mapping() })}
                data-testid="history-run"
              >
                {t('historyImport.run')}
              </Button>
            </Space>
            <ProblemList error={preview.error ?? run.error} />
          </>
        )}

        {previewData && (
          <>
            <Descriptions
              size="small"
              bordered
              column={{ xs: 1, md: 3 }}
              layout={phone ? 'vertical' : 'horizontal'}
              data-testid="history-preview-summary"
            >
              <Descriptions.Item label={t('historyImport.points')}>
                {formatNumber(previewData.points, i18n.language, 0)}
              </Descriptions.Item>
              <Descriptions.Item label={t('historyImport.range')}>
                {previewData.from ? formatInZone(previewData.from, previewZone, i18n.language) : '—'} –{' '}
                {formatPlantTime(previewData.to, previewZone, i18n.language) || '—'}
              </Descriptions.Item>
              <Descriptions.Item label={t('historyImport.rollupOnly')}>
                {formatNumber(previewData.points_rollup_only, i18n.language, 0)}
              </Descriptions.Item>
            </Descriptions>
            <Table
              rowKey="signal_id"
              size="small"
              pagination={false}
              columns={previewColumns}
              dataSource={previewData.signals}
              scroll={{ x: 'max-content' }}
              data-testid="history-preview-table"
            />
          </>
        )}

        {current && current.state !== 'uploaded' && (
          <Card size="small" title={t('historyImport.progress')} data-testid="history-progress">
            <Progress
              percent={
                current.points_total ? Math.floor((100 * current.points_done) / current.points_total) : 0
              }
              status={
                current.state === 'failed' ? 'exception' : current.state === 'done' ? 'success' : 'active'
              }
            />
            <Typography.Text data-testid="history-state">
              {t(`historyImport.states.${current.state}`)} ·{' '}
              {t('historyImport.newPoints', { count: current.points_new })} ·{' '}
              {t('historyImport.existingPoints', { count: current.points_existing })}
            </Typography.Text>
            {current.errors.map((e) => (
              <Alert key={e} type="error" showIcon message={t(knownKey(e, 'common.failure'))} />
            ))}
          </Card>
        )}

        <RecentImports plantId={plantId} />
      </Space>
    </Card>
  );
}
