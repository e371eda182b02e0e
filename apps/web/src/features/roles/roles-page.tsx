import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { ALL_PERMISSIONS, type Role } from '@solar/shared';
import { ManagementCard, RowActions } from '../../components';
import { useEditor } from '../../lib/editor-state';
import { sortOrderOf } from '../../lib/list-query';
import { useListState } from '../../lib/list-state';
import { useCan } from '../../lib/permissions';
import { useRoles } from './api/get-roles';
import { useDeleteRole } from './api/delete-role';
import { RoleForm } from './components/role-form';

/** /role-management: the roles with their permission grids. */
export default function RolesPage() {
  const { t } = useTranslation();
  const can = useCan('role_management');
  const list = useListState('name', {});
  const { state } = list;
  const query = useRoles({
    page: state.page,
    pageSize: state.pageSize,
    sort: state.sort,
    q: state.q || undefined,
  });
  const remove = useDeleteRole();
  const editor = useEditor<Role>();

  const sortable = (column: string) => ({ sorter: true, sortOrder: sortOrderOf(state.sort, column) });
  const columns: ColumnsType<Role> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('roles.name'),
      render: (name: string, role) => (
        <>
          {name} {role.is_admin && <Tag color="gold">{t('roles.admin')}</Tag>}
        </>
      ),
      ...sortable('name'),
    },
    { key: 'description', dataIndex: 'description', title: t('roles.description'), responsive: ['md'] },
    {
      key: 'permissions',
      title: t('roles.permissions'),
      render: (_, role) =>
        t('roles.permissionCount', { count: role.permissions.length, total: ALL_PERMISSIONS.length }),
    },
    { key: 'user_count', dataIndex: 'user_count', title: t('roles.userCount'), align: 'right' },
    {
      key: 'actions',
      fixed: 'right',
      title: t('management.actions'),
      align: 'right',
      render: (_, role) => (
        <RowActions
          resource="role"
          id={role.id}
          onEdit={can.update ? () => editor.openEdit(role) : undefined}
          onDelete={can.delete && !role.is_admin ? () => remove.mutate(role.id) : undefined}
        />
      ),
    },
  ];

  return (
    <ManagementCard
      resource="role"
      onSearch={list.setSearch}
      createLabel={t('roles.create')}
      onCreate={can.create ? editor.openCreate : undefined}
    >
      <Table<Role>
        rowKey="id"
        data-testid="role-table"
        columns={columns}
        dataSource={query.data?.items}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        {...list.tableProps(query.data?.total)}
      />
      <RoleForm key={editor.session} open={editor.open} role={editor.record} onClose={editor.close} />
    </ManagementCard>
  );
}
