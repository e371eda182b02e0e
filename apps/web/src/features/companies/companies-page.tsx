import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { Company } from '@solar/shared';
import { ActiveFilterSelect, ActiveTag, ManagementCard, RowActions } from '../../components';
import { useEditor } from '../../lib/editor-state';
import { isActiveParam, sortOrderOf } from '../../lib/list-query';
import { useListState } from '../../lib/list-state';
import { useCan } from '../../lib/permissions';
import { useCompanies } from './api/get-companies';
import { useDeleteCompany } from './api/delete-company';
import { CompanyForm } from './components/company-form';

/** /company-management: the companies (tenants) with search, paging, sorting and CRUD. */
export default function CompaniesPage() {
  const { t } = useTranslation();
  const can = useCan('company_management');
  const list = useListState('name', {});
  const { state } = list;
  const query = useCompanies({
    page: state.page,
    pageSize: state.pageSize,
    sort: state.sort,
    q: state.q || undefined,
    is_active: isActiveParam(state.active),
  });
  const remove = useDeleteCompany();
  const editor = useEditor<Company>();

  const sortable = (column: string) => ({ sorter: true, sortOrder: sortOrderOf(state.sort, column) });
  const columns: ColumnsType<Company> = [
    { key: 'name', dataIndex: 'name', title: t('companies.name'), ...sortable('name') },
    {
      key: 'tax_number',
      dataIndex: 'tax_number',
      title: t('companies.tax_number'),
      ...sortable('tax_number'),
    },
    { key: 'tax_office', dataIndex: 'tax_office', title: t('companies.tax_office'), responsive: ['lg'] },
    { key: 'phone', dataIndex: 'phone', title: t('companies.phone'), responsive: ['md'] },
    { key: 'email', dataIndex: 'email', title: t('companies.email'), responsive: ['md'] },
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
      render: (_, company) => (
        <RowActions
          resource="company"
          id={company.id}
          onEdit={can.update ? () => editor.openEdit(company) : undefined}
          onDelete={can.delete ? () => remove.mutate(company.id) : undefined}
        />
      ),
    },
  ];

  return (
    <ManagementCard
      resource="company"
      onSearch={list.setSearch}
      createLabel={t('companies.create')}
      onCreate={can.create ? editor.openCreate : undefined}
      filters={<ActiveFilterSelect resource="company" value={state.active} onChange={list.setActive} />}
    >
      <Table<Company>
        rowKey="id"
        data-testid="company-table"
        columns={columns}
        dataSource={query.data?.items}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        {...list.tableProps(query.data?.total)}
      />
      <CompanyForm key={editor.session} open={editor.open} company={editor.record} onClose={editor.close} />
    </ManagementCard>
  );
}
