import { Suspense, useMemo } from 'react';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Spin from 'antd/es/spin';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { ReportAnswer } from '@solar/shared';
import { BarChart } from '../../../components';
import { formatNumber } from '../../../lib/format';
import type { TranslationKey } from '../../../lib/i18n-keys';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/media-query';
import { priorityKey } from '../../alarms';
import { CoverageValue, EnergyWithSource, LossHeading, LossValue } from '../../plants';
import { previewOf, type PreviewCell, type PreviewColumn, type PreviewRow } from '../preview-model';
import type { EnergySource } from '@solar/shared';

/** A missing figure, as the fleet loss view and the report files write it. */
const DASH = '–';

function cellText(column: PreviewColumn, value: PreviewCell | undefined, language: string): string {
  if (typeof value !== 'number') return value ?? DASH;
  if (column.percent) return `${formatNumber(value * 100, language, 1)} %`;
  return formatNumber(value, language, column.digits ?? 2);
}

const numberOrNull = (value: PreviewCell | undefined) => (typeof value === 'number' ? value : null);

/** A cell: a plain number or text, or the fleet loss view's own figure where the column asks for it. */
function PreviewValue({ column, row }: { column: PreviewColumn; row: PreviewRow }) {
  const { t, i18n } = useTranslation();
  const value = row[column.key];
  switch (column.show) {
    case 'loss':
      return <LossValue kwh={numberOrNull(value)} />;
    case 'coverage':
      return <CoverageValue coverage={numberOrNull(value)} />;
    case 'energy':
      return (
        <EnergyWithSource
          value={numberOrNull(value)}
          source={row.energy_source as EnergySource}
          unit={null}
        />
      );
    case 'key':
      return <>{typeof value === 'string' ? t(value as TranslationKey) : DASH}</>;
    default:
      return <>{cellText(column, value, i18n.language)}</>;
  }
}

/** The report as a chart and a table, in the interface language (the files use the report language). */
export function ReportPreview({ report, dark }: { report: ReportAnswer; dark: boolean }) {
  const { t, i18n } = useTranslation();
  const model = useMemo(
    () =>
      previewOf(
        report,
        t('reportPage.total'),
        (id) => t(priorityKey(id)),
        t('reportPage.degradation.wholePlant'),
      ),
    [report, t],
  );
  const phone = useMediaQuery(PHONE_QUERY);
  // As the fleet loss view: the first column (the plant) stays pinned while the figures scroll sideways,
  // and headings wrap between words, so that the fleet report's sixteen columns fit at 1440 px and a phone.
  const columns: ColumnsType<PreviewRow> = model.columns.map((c, i) => ({
    key: c.key,
    title: <LossHeading>{c.unit ? `${t(c.title)} (${c.unit})` : t(c.title)}</LossHeading>,
    align: i === 0 || c.show === 'key' ? 'left' : 'right',
    ...(i === 0 ? { fixed: 'left' as const, width: phone ? 120 : 190 } : {}),
    render: (_, row) => <PreviewValue column={c} row={row} />,
  }));

  if (model.rows.length === 0 && model.chart.bars.length === 0) {
    return <Empty description={t('reportPage.noRows')} data-testid="report-preview-empty" />;
  }
  return (
    <div className="report-preview" data-testid="report-preview">
      {model.chart.bars.length > 0 && (
        <Card size="small" title={t(model.chart.title)}>
          <Suspense fallback={<Spin />}>
            <BarChart
              bars={model.chart.bars}
              dark={dark}
              language={i18n.language}
              unit={model.chart.unit}
              testId="report-chart"
            />
          </Suspense>
        </Card>
      )}
      <Card
        size="small"
        title={t(report.type === 'alarms' ? 'reportPage.topDevices' : 'reportPage.tableTitle')}
      >
        <Table<PreviewRow>
          rowKey="rowKey"
          size="small"
          className="report-table"
          data-testid="report-table"
          columns={columns}
          dataSource={model.rows}
          scroll={{ x: 'max-content' }}
          pagination={model.rows.length > 50 ? { pageSize: 50 } : false}
          rowClassName={(row) => (row.rowKey === 'total' ? 'report-total-row' : '')}
          locale={{ emptyText: t('reportPage.noRows') }}
        />
      </Card>
    </div>
  );
}
