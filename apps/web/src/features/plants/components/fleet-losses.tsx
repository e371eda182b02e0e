import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import DatePicker from 'antd/es/date-picker';
import Empty from 'antd/es/empty';
import Segmented from 'antd/es/segmented';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { KPI_PERIODS, LOSS_KINDS, type FleetLossItem, type KpiPeriod, type LossKind } from '@solar/shared';
import { LoadingSpin } from '../../../components';
import { dateBounds } from '../../../lib/date-bounds';
import { formatNumber } from '../../../lib/format';
import { nullOrder } from '../../../lib/null-order';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/media-query';
import { useFleetLosses } from '../api/get-fleet-losses';
import { CoverageValue, EnergyWithSource, Figure, LossHeading, LossValue, PrValue } from './plant-figures';

/** The date the API is asked for: the day itself, or the first day of the month or year holding it. */
const periodDate = (period: KpiPeriod, day: Dayjs) =>
  (period === 'day' ? day : day.startOf(period)).format('YYYY-MM-DD');

/** Sorts nulls last whichever the direction (antd reverses the comparator for descending). */
const byNumber =
  (value: (i: FleetLossItem) => number | null) =>
  (a: FleetLossItem, b: FleetLossItem, order?: 'ascend' | 'descend' | null) => {
    const x = value(a);
    const y = value(b);
    return nullOrder(x, y, order === 'descend') ?? x! - y!;
  };

/**
 * True when the period holds no data of the plant at all: its figures are then unknown, not zero
 * (expected 0 kWh and "no loss" would claim a perfect period).
 */
const noData = (i: FleetLossItem) => !i.coverage;

/**
 * The hours of irradiance the plant's figures left out because the data-quality checks doubt its sensor
 * (the plant page's number); a dash when none were.
 */
function ExcludedIrradianceValue({ item }: { item: FleetLossItem }) {
  const { i18n } = useTranslation();
  const hours = item.excluded_irradiance_hours.total;
  return (
    <span data-excluded-hours={hours}>{hours > 0 ? `${formatNumber(hours, i18n.language, 1)} h` : '–'}</span>
  );
}

/** The total loss, unknown without data (sorted last). */
const totalLoss = (i: FleetLossItem) => (noData(i) ? null : i.losses.total_kwh);

/** The plant's page at the period's day: its loss waterfall, power chart and alarms of that day. */
const periodLink = (item: FleetLossItem) => `/santral-detay/${item.plant_id}?date=${item.date}`;

/** kWh without its unit (the column header names it), or a dash when unknown. */
const Kwh = ({ value }: { value: number | null }) => <Figure value={value} />;

/** The largest loss's cause, linked to the plant's page for the period; none when nothing was lost. */
function TopCause({ item }: { item: FleetLossItem }) {
  const { t } = useTranslation();
  if (noData(item)) return <span className="fleet-loss-none">{t('plantView.fleetLoss.noData')}</span>;
  if (!item.top_loss) return <span className="fleet-loss-none">{t('plantView.fleetLoss.noLoss')}</span>;
  return (
    <Link
      to={periodLink(item)}
      data-testid="top-loss"
      aria-label={t('plantView.fleetLoss.openCause', {
        cause: t(`plantView.loss.${item.top_loss}`),
        name: item.name,
      })}
    >
      {t(`plantView.loss.${item.top_loss}`)}
    </Link>
  );
}

const lossOf = (kind: LossKind) => (i: FleetLossItem) => (noData(i) ? null : i.losses[`${kind}_kwh`]);
const expectedOf = (i: FleetLossItem) => (noData(i) ? null : i.expected_energy_kwh);

/**
 * The fleet's energy losses over a local day, month or year: per plant the expected and actual energy, the
 * loss by cause, availability, PR and how much of the period has data, largest loss first; the top cause
 * opens the plant's page for that period. The figures are the plant page's (GET plants/losses).
 */
export function FleetLosses() {
  const { t } = useTranslation();
  const phone = useMediaQuery(PHONE_QUERY);
  const [period, setPeriod] = useState<KpiPeriod>('day');
  const [day, setDay] = useState(() => dayjs().subtract(1, 'day'));
  const losses = useFleetLosses(period, periodDate(period, day));
  const items = losses.data?.items ?? [];

  const columns: ColumnsType<FleetLossItem> = [
    {
      key: 'name',
      title: t('plantView.list.name'),
      width: 190,
      fixed: 'left',
      sorter: (a, b) => a.name.localeCompare(b.name),
      render: (_, i) => (
        <div>
          <Link to={periodLink(i)} data-testid="fleet-loss-plant">
            {i.name}
          </Link>
          <div className="plant-company">{i.company_name}</div>
        </div>
      ),
    },
    {
      key: 'expected',
      title: <LossHeading>{t('plantView.fleetLoss.expected')}</LossHeading>,
      align: 'right',
      sorter: byNumber(expectedOf),
      render: (_, i) => <Kwh value={expectedOf(i)} />,
    },
    {
      key: 'actual',
      title: <LossHeading>{t('plantView.fleetLoss.actual')}</LossHeading>,
      align: 'right',
      sorter: byNumber((i) => i.energy_kwh),
      render: (_, i) => <EnergyWithSource value={i.energy_kwh} source={i.energy_source} unit={null} />,
    },
    {
      key: 'loss',
      title: <LossHeading>{t('plantView.fleetLoss.loss')}</LossHeading>,
      align: 'right',
      defaultSortOrder: 'descend',
      sorter: byNumber(totalLoss),
      render: (_, i) => <LossValue kwh={totalLoss(i)} />,
    },
    {
      key: 'top',
      title: <LossHeading>{t('plantView.fleetLoss.topCause')}</LossHeading>,
      width: 130,
      render: (_, i) => <TopCause item={i} />,
    },
    ...LOSS_KINDS.map((kind) => ({
      key: kind,
      title: <LossHeading>{t(`plantView.loss.${kind}`)}</LossHeading>,
      align: 'right' as const,
      sorter: byNumber(lossOf(kind)),
      render: (_: unknown, i: FleetLossItem) => <LossValue kwh={lossOf(kind)(i)} />,
    })),
    {
      key: 'availability',
      title: <LossHeading>{t('plantView.kpi.availability')}</LossHeading>,
      align: 'right',
      sorter: byNumber((i) => i.availability.time_based),
      render: (_, i) => <PrValue value={i.availability.time_based} />,
    },
    {
      key: 'pr',
      title: <LossHeading>{t('plantView.fleetLoss.pr')}</LossHeading>,
      align: 'right',
      sorter: byNumber((i) => i.pr),
      render: (_, i) => <PrValue value={i.pr} />,
    },
    {
      key: 'data',
      title: <LossHeading>{t('plantView.fleetLoss.data')}</LossHeading>,
      align: 'right',
      sorter: byNumber((i) => i.coverage),
      render: (_, i) => <CoverageValue coverage={i.coverage} />,
    },
    {
      key: 'excludedIrradiance',
      title: <LossHeading>{t('plantView.fleetLoss.excludedIrradiance')}</LossHeading>,
      align: 'right',
      sorter: byNumber((i) => i.excluded_irradiance_hours.total),
      render: (_, i) => <ExcludedIrradianceValue item={i} />,
    },
  ];

  const controls = (
    <Space wrap className="plants-filters">
      <Segmented
        aria-label={t('plantView.fleetLoss.period')}
        data-testid="fleet-loss-period"
        value={period}
        onChange={(v) => setPeriod(v)}
        options={KPI_PERIODS.map((p) => ({ value: p, label: t(`plantView.fleetLoss.periods.${p}`) }))}
      />
      <DatePicker
        {...dateBounds}
        aria-label={t('plantView.fleetLoss.date')}
        data-testid="fleet-loss-date"
        allowClear={false}
        picker={period === 'day' ? 'date' : period}
        value={day}
        disabledDate={(d) => d.isAfter(dayjs(), 'day')}
        onChange={(d) => d && setDay(d)}
      />
    </Space>
  );

  if (losses.isError)
    return (
      <Alert
        type="error"
        showIcon
        data-testid="fleet-loss-error"
        title={t('plantView.fleetLoss.error')}
        action={<Button onClick={() => void losses.refetch()}>{t('plantView.common.retry')}</Button>}
      />
    );

  const ranked = [...items].sort((a, b) => byNumber(totalLoss)(a, b, 'descend') * -1);
  return (
    <div data-testid="fleet-losses">
      {controls}
      <p className="fleet-loss-caption">{t('plantView.fleetLoss.caption')}</p>
      {phone ? (
        losses.isLoading ? (
          <LoadingSpin label={t('plantView.common.loading')} />
        ) : ranked.length === 0 ? (
          <Empty description={t('plantView.list.empty')} />
        ) : (
          <ul className="plant-cards" data-testid="fleet-loss-cards">
            {ranked.map((i) => (
              <li key={i.plant_id}>
                <Card
                  size="small"
                  data-testid={`fleet-loss-row-${i.plant_id}`}
                  title={<Link to={periodLink(i)}>{i.name}</Link>}
                  extra={<LossValue kwh={totalLoss(i)} />}
                >
                  <div className="plant-card-company">{i.company_name}</div>
                  <dl className="plant-card-figures">
                    <dt>{t('plantView.fleetLoss.topCause')}</dt>
                    <dd>
                      <TopCause item={i} />
                    </dd>
                    <dt>{t('plantView.fleetLoss.expected')}</dt>
                    <dd>
                      <Kwh value={expectedOf(i)} />
                    </dd>
                    <dt>{t('plantView.fleetLoss.actual')}</dt>
                    <dd>
                      <Kwh value={i.energy_kwh} />
                    </dd>
                    <dt>{t('plantView.kpi.availability')}</dt>
                    <dd>
                      <PrValue value={i.availability.time_based} />
                    </dd>
                    <dt>{t('plantView.fleetLoss.pr')}</dt>
                    <dd>
                      <PrValue value={i.pr} />
                    </dd>
                    <dt>{t('plantView.fleetLoss.data')}</dt>
                    <dd>
                      <CoverageValue coverage={i.coverage} />
                    </dd>
                    <dt>{t('plantView.fleetLoss.excludedIrradiance')}</dt>
                    <dd>
                      <ExcludedIrradianceValue item={i} />
                    </dd>
                  </dl>
                </Card>
              </li>
            ))}
          </ul>
        )
      ) : (
        <Table<FleetLossItem>
          data-testid="fleet-loss-table"
          rowKey="plant_id"
          size="small"
          className="fleet-loss-table"
          loading={losses.isLoading}
          dataSource={items}
          pagination={false}
          locale={{ emptyText: t('plantView.list.empty') }}
          onRow={(i) => ({ 'data-testid': `fleet-loss-row-${i.plant_id}` }) as object}
          columns={columns}
          scroll={{ x: 'max-content' }}
        />
      )}
    </div>
  );
}
