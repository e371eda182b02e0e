import Select from 'antd/es/select';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { Plant } from '@solar/shared';
import { ActiveFilterSelect, ActiveTag, ManagementCard, RowActions } from '../../components';
import { formatNumber } from '../../lib/format';
import { useCompanyOptions } from '../companies';
import { useFieldOptions } from '../fields';
import { toOptions } from '../../lib/lookups';
import { useEditor } from '../../lib/editor-state';
import { isActiveParam, sortOrderOf } from '../../lib/list-query';
import { useListState } from '../../lib/list-state';
import { useCan } from '../../lib/permissions';
import { usePlants } from './api/get-plants';
import { useDeletePlant } from './api/delete-plant';
import { BudgetImport } from './components/budget-import';
import { PlantForm } from './components/plant-form';

interface Filters {
  companyId: number | undefined;
  fieldId: number | undefined;
}

/** /plant-management: the plants (santraller) with search, company/field filters, paging and CRUD. */
export default function PlantManagementPage() {
  const { t, i18n } = useTranslation();
  const can = useCan('plant_management');
  const canSeeCompanies = useCan('company_management').view;
  const canSeeFields = useCan('field_management').view;
  const list = useListState<Filters>('name', { companyId: undefined, fieldId: undefined });
  const { state } = list;
  const companies = useCompanyOptions(canSeeCompanies);
  const fields = useFieldOptions(state.filters.companyId, canSeeFields);
  const query = usePlants({
    page: state.page,
    pageSize: state.pageSize,
    sort: state.sort,
    q: state.q || undefined,
    is_active: isActiveParam(state.active),
    company_id: state.filters.companyId,
    field_id: state.filters.fieldId,
  });
  const remove = useDeletePlant();
  const editor = useEditor<Plant>();
  const num = (v: number | null) => formatNumber(v, i18n.language);

  const sortable = (column: string) => ({ sorter: true, sortOrder: sortOrderOf(state.sort, column) });
  const columns: ColumnsType<Plant> = [
    { key: 'name', dataIndex: 'name', title: t('plants.name'), ...sortable('name') },
    { key: 'field_name', dataIndex: 'field_name', title: t('plants.field'), ...sortable('field_name') },
    {
      key: 'company_name',
      dataIndex: 'company_name',
      title: t('plants.company'),
      responsive: ['lg'],
      ...sortable('company_name'),
    },
    {
      key: 'dc_capacity_kwp',
      dataIndex: 'dc_capacity_kwp',
      title: t('plants.dc_capacity_kwp'),
      align: 'right',
      render: num,
      ...sortable('dc_capacity_kwp'),
    },
    {
      key: 'ac_capacity_kw',
      dataIndex: 'ac_capacity_kw',
      title: t('plants.ac_capacity_kw'),
      align: 'right',
      render: num,
      responsive: ['md'],
      ...sortable('ac_capacity_kw'),
    },
    {
      key: 'commissioning_date',
      dataIndex: 'commissioning_date',
      title: t('plants.commissioning_date'),
      responsive: ['lg'],
      ...sortable('commissioning_date'),
    },
    { key: 'time_zone', dataIndex: 'time_zone', title: t('plants.time_zone'), responsive: ['xl'] },
    {
      key: 'is_active',
      dataIndex: 'is_active',
      title: t('management.status'),
      render: (active: boolean) => <ActiveTag active={active} />,
      ...sortable('is_active'),
    },
    {
      key: 'actions',
      fixed: 'right',
      title: t('management.actions'),
      align: 'right',
      render: (_, plant) => (
        <RowActions
          resource="plant"
          id={plant.id}
          onEdit={can.update ? () => editor.openEdit(plant) : undefined}
          onDelete={can.delete ? () => remove.mutate(plant.id) : undefined}
        />
      ),
    },
  ];

  return (
    <ManagementCard
      resource="plant"
      onSearch={list.setSearch}
      createLabel={t('plants.create')}
      onCreate={can.create ? editor.openCreate : undefined}
      actions={can.update && <BudgetImport plantIds={(query.data?.items ?? []).map((p) => p.id)} />}
      filters={
        <>
          {canSeeCompanies && (
            <Select<number>
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('fields.allCompanies')}
              options={toOptions(companies.data)}
              value={state.filters.companyId}
              onChange={(v) => {
                list.setFilter('companyId', v);
                list.setFilter('fieldId', undefined);
              }}
              className="management-filter-wide"
              aria-label={t('fields.allCompanies')}
              data-testid="plant-filter-company"
            />
          )}
          {canSeeFields && (
            <Select<number>
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('plants.allFields')}
              options={toOptions(fields.data)}
              value={state.filters.fieldId}
              onChange={(v) => list.setFilter('fieldId', v)}
              className="management-filter-wide"
              aria-label={t('plants.allFields')}
              data-testid="plant-filter-field"
            />
          )}
          <ActiveFilterSelect resource="plant" value={state.active} onChange={list.setActive} />
        </>
      }
    >
      <Table<Plant>
        rowKey="id"
        data-testid="plant-table"
        columns={columns}
        dataSource={query.data?.items}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        {...list.tableProps(query.data?.total)}
      />
      <PlantForm key={editor.session} open={editor.open} plant={editor.record} onClose={editor.close} />
    </ManagementCard>
  );
}
