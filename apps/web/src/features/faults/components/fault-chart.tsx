import { Suspense } from 'react';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Spin from 'antd/es/spin';
import { useTranslation } from 'react-i18next';
import { TelemetryChart } from '../../../components';
import { errorMessageOf } from '../../../lib/api-errors';
import { usePreferences } from '../../../lib/preferences-store';
import { useFaultTelemetry } from '../api/fault-telemetry';

interface FaultChartProps {
  signalId: number;
  /** When the problem began (ISO 8601): the chart is centred on it and marks it. */
  detectedAt: string;
  /** The fault's plant's IANA zone: the chart reads its clock. */
  timeZone: string;
}

/** The fault's signal two hours either side of the alarm time, with a line at the alarm. */
export function FaultChart({ signalId, detectedAt, timeZone }: FaultChartProps) {
  const { t, i18n } = useTranslation();
  const dark = usePreferences((s) => s.theme) === 'dark';
  const telemetry = useFaultTelemetry(signalId, detectedAt);
  const data = telemetry.data;
  const empty = data !== undefined && data.series.every((s) => s.points.length === 0);

  return (
    <Card
      title={t('faults.page.chart')}
      data-testid="fault-chart-card"
      extra={data && !empty && t(`data.resolutions.${data.resolution}`)}
    >
      {telemetry.isError ? (
        <Alert
          type="error"
          showIcon
          title={errorMessageOf(telemetry.error, t)}
          data-testid="fault-chart-error"
        />
      ) : empty ? (
        <Empty description={t('faults.page.chartNoData')} data-testid="fault-chart-empty" />
      ) : (
        <Spin spinning={telemetry.isFetching}>
          <Suspense fallback={<div className="fault-chart" />}>
            {data ? (
              <TelemetryChart
                series={data.series}
                dark={dark}
                language={i18n.language}
                timeZone={timeZone}
                otherUnitsLabel={t('data.otherUnits')}
                markAt={Date.parse(detectedAt)}
                markLabel={t('faults.page.chartAlarmTime')}
                testId="fault-chart"
              />
            ) : (
              <div className="fault-chart" />
            )}
          </Suspense>
        </Spin>
      )}
    </Card>
  );
}
