import Select from 'antd/es/select';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { Field } from '@solar/shared';
import { ActiveFilterSelect, ActiveTag, ManagementCard, RowActions } from '../../components';
import { useCompanyOptions } from '../companies';
import { toOptions } from '../../lib/lookups';
import { useEditor } from '../../lib/editor-state';
import { isActiveParam, sortOrderOf } from '../../lib/list-query';
import { useListState } from '../../lib/list-state';
import { useCan } from '../../lib/permissions';
import { formatCoordinates } from '../../lib/format';
import { useFields } from './api/get-fields';
import { useDeleteField } from './api/delete-field';
import { FieldForm } from './components/field-form';

/** /field-management: the fields (sites) of the companies with search, filters, paging and CRUD. */
export default function FieldsPage() {
  const { t } = useTranslation();
  const can = useCan('field_management');
  const canSeeCompanies = useCan('company_management').view;
  const companies = useCompanyOptions(canSeeCompanies);
  const list = useListState<{ companyId: number | undefined }>('name', { companyId: undefined });
  const { state } = list;
  const query = useFields({
    page: state.page,
    pageSize: state.pageSize,
    sort: state.sort,
    q: state.q || undefined,
    is_active: isActiveParam(state.active),
    company_id: state.filters.companyId,
  });
  const remove = useDeleteField();
  const editor = useEditor<Field>();

  const sortable = (column: string) => ({ sorter: true, sortOrder: sortOrderOf(state.sort, column) });
  const columns: ColumnsType<Field> = [
    { key: 'name', dataIndex: 'name', title: t('fields.name'), ...sortable('name') },
    {
      key: 'company_name',
      dataIndex: 'company_name',
      title: t('fields.company'),
      ...sortable('company_name'),
    },
    { key: 'city', dataIndex: 'city', title: t('fields.city'), ...sortable('city') },
    {
      key: 'district',
      dataIndex: 'district',
      title: t('fields.district'),
      responsive: ['md'],
      ...sortable('district'),
    },
    {
      key: 'location',
      title: t('location.coordinates'),
      responsive: ['lg'],
      render: (_, field) => formatCoordinates(field.latitude, field.longitude),
    },
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
      render: (_, field) => (
        <RowActions
          resource="field"
          id={field.id}
          onEdit={can.update ? () => editor.openEdit(field) : undefined}
          onDelete={can.delete ? () => remove.mutate(field.id) : undefined}
        />
      ),
    },
  ];

  return (
    <ManagementCard
      resource="field"
      onSearch={list.setSearch}
      createLabel={t('fields.create')}
      onCreate={can.create ? editor.openCreate : undefined}
      filters={
        <>
          {canSeeCompanies && (
            <Select<number>
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('fields.allCompanies')}
              options={toOptions(companies.data)}
              value={state.filters.companyId}
              onChange={(v) => list.setFilter('companyId', v)}
              className="management-filter-wide"
              aria-label={t('fields.allCompanies')}
              data-testid="field-filter-company"
            />
          )}
          <ActiveFilterSelect resource="field" value={state.active} onChange={list.setActive} />
        </>
      }
    >
      <Table<Field>
        rowKey="id"
        data-testid="field-table"
        columns={columns}
        dataSource={query.data?.items}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        {...list.tableProps(query.data?.total)}
      />
      <FieldForm key={editor.session} open={editor.open} field={editor.record} onClose={editor.close} />
    </ManagementCard>
  );
}
