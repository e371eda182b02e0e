import { useMemo, useState } from 'react';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { User } from '@solar/shared';
import { ActiveFilterSelect, ActiveTag, ManagementCard, RowActions } from '../../components';
import { useCompanyOptions } from '../companies';
import { useEditor } from '../../lib/editor-state';
import type { ActiveFilter } from '../../lib/list-query';
import { useCan } from '../../lib/permissions';
import { useUsers } from './api/get-users';
import { UserForm } from './components/user-form';

const fullName = (u: User) => `${u.name} ${u.surname}`;

/**
 * /user-management: GET Users answers a plain list, so search, the active filter (active users by
 * default, spec §7), sorting and paging happen here.
 */
export default function UsersPage() {
  const { t, i18n } = useTranslation();
  const can = useCan('user_management');
  const query = useUsers();
  const companies = useCompanyOptions(useCan('company_management').view);
  const editor = useEditor<User>();
  const [q, setQ] = useState('');
  const [active, setActive] = useState<ActiveFilter>('active');
  const [page, setPage] = useState({ current: 1, pageSize: 20 });

  const companyNames = useMemo(
    () => new Map((companies.data ?? []).map((c) => [c.id, c.name])),
    [companies.data],
  );
  const companyOf = (u: User) =>
    u.company_id === null ? t('users.allCompanies') : (companyNames.get(u.company_id) ?? `#${u.company_id}`);
  const knownRoles = useMemo(
    () => [
      ...new Map((query.data ?? []).map((u) => [u.roleId, { id: u.roleId, name: u.role_name }])).values(),
    ],
    [query.data],
  );

  const rows = useMemo(() => {
    const needle = q.trim().toLocaleLowerCase(i18n.language.replace('_', '-'));
    return (query.data ?? []).filter(
      (u) =>
        (active === 'all' || u.is_active === (active === 'active')) &&
        (!needle ||
          [fullName(u), u.email, u.username, u.role_name].some((v) =>
            v.toLocaleLowerCase(i18n.language.replace('_', '-')).includes(needle),
          )),
    );
  }, [query.data, q, active, i18n.language]);

  const compare = (a: string, b: string) => a.localeCompare(b, i18n.language.replace('_', '-'));
  const columns: ColumnsType<User> = [
    {
      key: 'name',
      title: t('users.fullName'),
      render: (_, u) => fullName(u),
      sorter: (a, b) => compare(fullName(a), fullName(b)),
      defaultSortOrder: 'ascend',
    },
    {
      key: 'email',
      dataIndex: 'email',
      title: t('users.email'),
      sorter: (a, b) => compare(a.email, b.email),
    },
    {
      key: 'role',
      dataIndex: 'role_name',
      title: t('users.role'),
      sorter: (a, b) => compare(a.role_name, b.role_name),
    },
    {
      key: 'company',
      title: t('users.company'),
      responsive: ['md'],
      render: (_, u) => companyOf(u),
      sorter: (a, b) => compare(companyOf(a), companyOf(b)),
    },
    {
      key: 'is_active',
      dataIndex: 'is_active',
      title: t('management.status'),
      render: (v: boolean) => <ActiveTag active={v} />,
      sorter: (a, b) => Number(b.is_active) - Number(a.is_active),
    },
    {
      key: 'actions',
      fixed: 'right',
      title: t('management.actions'),
      align: 'right',
      render: (_, u) => (
        <RowActions resource="user" id={u.id} onEdit={can.update ? () => editor.openEdit(u) : undefined} />
      ),
    },
  ];

  return (
    <ManagementCard
      resource="user"
      onSearch={(value) => {
        setQ(value);
        setPage((p) => ({ ...p, current: 1 }));
      }}
      createLabel={t('users.create')}
      onCreate={can.create ? editor.openCreate : undefined}
      filters={
        <ActiveFilterSelect
          resource="user"
          value={active}
          onChange={(v) => {
            setActive(v);
            setPage((p) => ({ ...p, current: 1 }));
          }}
        />
      }
    >
      <Table<User>
        rowKey="id"
        data-testid="user-table"
        columns={columns}
        dataSource={rows}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        pagination={{
          ...page,
          showSizeChanger: true,
          showTotal: (total) => t('management.total', { total }),
          onChange: (current, pageSize) => setPage({ current, pageSize }),
        }}
      />
      <UserForm
        key={editor.session}
        open={editor.open}
        user={editor.record}
        knownRoles={knownRoles}
        onClose={editor.close}
      />
    </ManagementCard>
  );
}
