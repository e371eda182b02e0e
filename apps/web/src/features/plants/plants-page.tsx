import { useMemo, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Segmented from 'antd/es/segmented';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { SortOrder } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { LoadingSpin } from '../../components';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { OPERATING_STATUSES, type OperatingStatus, type PlantOverviewItem } from '@solar/shared';
import { PHONE_QUERY, useMediaQuery } from '../../lib/media-query';
import { usePlantsOverview } from './api/get-overview';
import { nullOrder } from '../../lib/null-order';
import { useLiveOverview } from './components/live-overview';
import { FleetLosses } from './components/fleet-losses';
import { AlarmCounts, EnergyWithSource, PowerBar, PrValue, YieldValue } from './components/plant-figures';
import { PlantStatus, STATUS_RANK } from './components/status-tag';
import './plants.css';

type SortKey = 'name' | 'status' | 'power' | 'energy' | 'pr' | 'yield' | 'alarms';
const SORT_KEYS: readonly SortKey[] = ['status', 'name', 'power', 'energy', 'pr', 'yield', 'alarms'];

/** Sort values; nulls sort last whichever the direction. */
const SORT_VALUE: Record<SortKey, (p: PlantOverviewItem) => number | string | null> = {
  name: (p) => p.name,
  status: (p) => STATUS_RANK[p.status],
  power: (p) => p.ac_capacity_percent ?? p.ac_power_kw,
  energy: (p) => p.energy_today_kwh,
  pr: (p) => p.pr_yesterday,
  yield: (p) => p.specific_yield_today_kwh_kwp,
  alarms: (p) => p.active_alarms.high * 1e6 + p.active_alarms.dangerous * 1e9 + p.active_alarms.total,
};

function sortPlants(
  items: readonly PlantOverviewItem[],
  key: SortKey,
  order: 'ascend' | 'descend',
  locale: string,
) {
  const value = SORT_VALUE[key];
  const sign = order === 'ascend' ? 1 : -1;
  return [...items].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    // The direction's sign applies to known values only, so nulls need no negating here.
    const nulls = nullOrder(x, y, false);
    if (nulls !== undefined) return nulls;
    const c = typeof x === 'string' ? x.localeCompare(String(y), locale) : x! - Number(y);
    return c * sign || a.name.localeCompare(b.name, locale);
  });
}

/**
 * /santraller: the plants in scope, live (status, power against capacity, today's energy and yield,
 * yesterday's PR, active alarms) or by energy lost over a chosen period (`?view=losses`).
 */
export default function PlantsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'losses' ? 'losses' : 'live';
  return (
    <div className="plants-page" data-testid="plants-page">
      <Segmented
        aria-label={t('plantView.fleetLoss.views')}
        data-testid="plants-view"
        className="plants-view"
        value={view}
        onChange={(v) => setParams(v === 'losses' ? { view: 'losses' } : {}, { replace: true })}
        options={[
          { value: 'live', label: t('plantView.fleetLoss.viewLive') },
          { value: 'losses', label: t('plantView.fleetLoss.viewLosses') },
        ]}
      />
      {view === 'losses' ? <FleetLosses /> : <LivePlants />}
    </div>
  );
}

/** Every plant with its live figures; a table on wide screens, cards on a phone, kept live over SSE. */
function LivePlants() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const phone = useMediaQuery(PHONE_QUERY);
  const overview = usePlantsOverview();
  const [status, setStatus] = useState<OperatingStatus | 'all'>('all');
  const [company, setCompany] = useState<number | 'all'>('all');
  const [sortKey, setSortKey] = useState<SortKey>('status');
  const [sortOrder, setSortOrder] = useState<'ascend' | 'descend'>('ascend');
  // Collation only (Intl's sort order has its own data, unlike dates and numbers: lib/intl.ts).
  const locale = i18n.language.replace('_', '-');

  const items = useMemo(() => overview.data ?? [], [overview.data]);
  useLiveOverview(useMemo(() => items.map((p) => p.plant_id), [items]));

  const companies = useMemo(() => {
    const byId = new Map(items.map((p) => [p.company_id, p.company_name]));
    return [...byId].sort((a, b) => a[1].localeCompare(b[1], locale));
  }, [items, locale]);
  const shown = useMemo(
    () =>
      sortPlants(
        items.filter(
          (p) => (status === 'all' || p.status === status) && (company === 'all' || p.company_id === company),
        ),
        sortKey,
        sortOrder,
        locale,
      ),
    [items, status, company, sortKey, sortOrder, locale],
  );
  const open = (p: PlantOverviewItem) => void navigate(`/santral-detay/${p.plant_id}`);
  const order = (key: SortKey): SortOrder => (sortKey === key ? sortOrder : null);

  const filters = (
    <Space wrap className="plants-filters">
      <Select
        aria-label={t('plantView.list.filterStatus')}
        data-testid="plants-status-filter"
        value={status}
        onChange={setStatus}
        style={{ minWidth: 180 }}
        options={[
          { value: 'all', label: t('plantView.list.allStatuses') },
          ...OPERATING_STATUSES.map((s) => ({ value: s, label: t(`plantView.status.${s}`) })),
        ]}
      />
      <Select
        aria-label={t('plantView.list.filterCompany')}
        data-testid="plants-company-filter"
        value={company}
        onChange={setCompany}
        style={{ minWidth: 200 }}
        options={[
          { value: 'all' as const, label: t('plantView.list.allCompanies') },
          ...companies.map(([id, name]) => ({ value: id, label: name })),
        ]}
      />
      {phone && (
        <Select
          aria-label={t('plantView.list.sortBy')}
          data-testid="plants-sort"
          value={`${sortKey}:${sortOrder}`}
          onChange={(v: string) => {
            const [k, o] = v.split(':') as [SortKey, 'ascend' | 'descend'];
            setSortKey(k);
            setSortOrder(o);
          }}
          style={{ minWidth: 200 }}
          options={SORT_KEYS.flatMap((k) =>
            (['ascend', 'descend'] as const).map((o) => ({
              value: `${k}:${o}`,
              label: `${t(`plantView.list.${k === 'pr' ? 'prYesterday' : k === 'yield' ? 'yieldToday' : k === 'energy' ? 'energyToday' : k}`)} ${o === 'ascend' ? '↑' : '↓'}`,
            })),
          )}
        />
      )}
      <span className="plants-count" data-testid="plants-count">
        {t('plantView.list.count', { count: shown.length })}
      </span>
    </Space>
  );

  if (overview.isError)
    return (
      <Alert
        type="error"
        showIcon
        data-testid="plants-error"
        title={t('plantView.list.error')}
        action={<Button onClick={() => void overview.refetch()}>{t('plantView.common.retry')}</Button>}
      />
    );

  return (
    <div data-testid="plants-live">
      {filters}
      {phone ? (
        overview.isLoading ? (
          <LoadingSpin label={t('plantView.common.loading')} />
        ) : shown.length === 0 ? (
          <Empty description={t('plantView.list.empty')} data-testid="plants-empty" />
        ) : (
          <ul className="plant-cards" data-testid="plants-cards">
            {shown.map((p) => (
              <li key={p.plant_id}>
                <Card
                  size="small"
                  hoverable
                  data-testid={`plant-row-${p.plant_id}`}
                  onClick={() => open(p)}
                  title={
                    <Link to={`/santral-detay/${p.plant_id}`} onClick={(e) => e.stopPropagation()}>
                      {p.name}
                    </Link>
                  }
                  extra={<PlantStatus plant={p} />}
                >
                  <div className="plant-card-company">{p.company_name}</div>
                  <PowerBar plant={p} />
                  <dl className="plant-card-figures">
                    <dt>{t('plantView.list.energyToday')}</dt>
                    <dd>
                      <EnergyWithSource value={p.energy_today_kwh} source={p.energy_source} />
                    </dd>
                    <dt>{t('plantView.list.prYesterday')}</dt>
                    <dd>
                      <PrValue value={p.pr_yesterday} />
                    </dd>
                    <dt>{t('plantView.list.yieldToday')}</dt>
                    <dd>
                      <YieldValue value={p.specific_yield_today_kwh_kwp} />
                    </dd>
                    <dt>{t('plantView.list.alarms')}</dt>
                    <dd>
                      <AlarmCounts counts={p.active_alarms} />
                    </dd>
                  </dl>
                </Card>
              </li>
            ))}
          </ul>
        )
      ) : (
        <Table<PlantOverviewItem>
          data-testid="plants-table"
          rowKey="plant_id"
          size="middle"
          loading={overview.isLoading}
          dataSource={shown}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('plantView.list.empty') }}
          onRow={(p) => ({
            onClick: () => open(p),
            'data-testid': `plant-row-${p.plant_id}`,
            className: 'plant-row',
          })}
          onChange={(_, __, sorter) => {
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            if (s?.columnKey && s.order) {
              setSortKey(s.columnKey as SortKey);
              setSortOrder(s.order);
            } else {
              setSortKey('status');
              setSortOrder('ascend');
            }
          }}
          columns={[
            {
              key: 'name',
              title: t('plantView.list.name'),
              sorter: true,
              sortOrder: order('name'),
              render: (_, p) => (
                <div>
                  <Link
                    to={`/santral-detay/${p.plant_id}`}
                    onClick={(e) => e.stopPropagation()}
                    data-testid="plant-link"
                  >
                    {p.name}
                  </Link>
                  <div className="plant-company">{p.company_name}</div>
                </div>
              ),
            },
            {
              key: 'status',
              title: t('plantView.list.status'),
              sorter: true,
              sortOrder: order('status'),
              render: (_, p) => <PlantStatus plant={p} />,
            },
            {
              key: 'power',
              title: t('plantView.list.power'),
              sorter: true,
              sortOrder: order('power'),
              render: (_, p) => <PowerBar plant={p} />,
            },
            {
              key: 'energy',
              title: t('plantView.list.energyToday'),
              sorter: true,
              sortOrder: order('energy'),
              align: 'right',
              render: (_, p) => <EnergyWithSource value={p.energy_today_kwh} source={p.energy_source} />,
            },
            {
              key: 'pr',
              title: t('plantView.list.prYesterday'),
              sorter: true,
              sortOrder: order('pr'),
              align: 'right',
              render: (_, p) => <PrValue value={p.pr_yesterday} />,
            },
            {
              key: 'yield',
              title: t('plantView.list.yieldToday'),
              sorter: true,
              sortOrder: order('yield'),
              align: 'right',
              render: (_, p) => <YieldValue value={p.specific_yield_today_kwh_kwp} />,
            },
            {
              key: 'alarms',
              title: t('plantView.list.alarms'),
              sorter: true,
              sortOrder: order('alarms'),
              render: (_, p) => <AlarmCounts counts={p.active_alarms} />,
            },
          ]}
        />
      )}
    </div>
  );
}
