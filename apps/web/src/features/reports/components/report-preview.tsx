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
import { priorityKey } from '../../alarms';
import { previewOf, type PreviewCell, type PreviewColumn, type PreviewRow } from '../preview-model';

function cellText(column: PreviewColumn, value: PreviewCell | undefined, language: string): string {
  if (typeof value !== 'number') return value ?? '—';
  if (column.percent) return `${formatNumber(value * 100, language, 1)} %`;
  return formatNumber(value, language, column.digits ?? 2);
}

/** The report as a chart and a table, in the interface language (the files use the report language). */
export function ReportPreview({ report, dark }: { report: ReportAnswer; dark: boolean }) {
  const { t, i18n } = useTranslation();
  const model = useMemo(
    () => previewOf(report, t('reportPage.total'), (id) => t(priorityKey(id))),
    [report, t],
  );
  const columns: ColumnsType<PreviewRow> = model.columns.map((c) => ({
    key: c.key,
    title: c.unit ? `${t(c.title)} (${c.unit})` : t(c.title),
    align: c.key === model.columns[0]?.key ? 'left' : 'right',
    render: (_, row) => cellText(c, row[c.key], i18n.language),
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
