import { useEffect, useRef, useState, type ReactNode } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Drawer from 'antd/es/drawer';
import Input from 'antd/es/input';
import Popconfirm from 'antd/es/popconfirm';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import EditOutlined from '@ant-design/icons/EditOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import SearchOutlined from '@ant-design/icons/SearchOutlined';
import { useTranslation } from 'react-i18next';
import type { ActiveFilter } from '../lib/list-query';
import './management.css';

/** Search box: searches 300 ms after typing stops, at once on Enter or when cleared. */
function SearchBox({ resource, onSearch }: { resource: string; onSearch: (q: string) => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const latest = useRef(onSearch);
  useEffect(() => {
    latest.current = onSearch;
  });
  useEffect(() => {
    const timer = window.setTimeout(() => latest.current(value), 300);
    return () => window.clearTimeout(timer);
  }, [value]);
  return (
    <Input
      allowClear
      value={value}
      prefix={<SearchOutlined />}
      placeholder={t('management.searchPlaceholder')}
      onChange={(e) => setValue(e.target.value)}
      onPressEnter={() => onSearch(value)}
      className="management-search"
      data-testid={`${resource}-search`}
      aria-label={t('management.search')}
    />
  );
}

interface ManagementCardProps {
  /** Resource name used in test ids (`company-create`, `company-search`). */
  resource: string;
  onSearch: (q: string) => void;
  /** Filter controls shown beside the search box. */
  filters?: ReactNode;
  /** Shown only when the user may create. */
  onCreate?: (() => void) | undefined;
  createLabel: string;
  /** Further buttons beside the create button (an import). */
  actions?: ReactNode;
  /** Extra content above the toolbar (a back link, a heading). */
  header?: ReactNode;
  children: ReactNode;
}

/** The frame of a management page: search, filters and the create button above the table. */
export function ManagementCard({
  resource,
  onSearch,
  filters,
  onCreate,
  createLabel,
  actions,
  header,
  children,
}: ManagementCardProps) {
  const createButton = onCreate && (
    <Button type="primary" icon={<PlusOutlined />} onClick={onCreate} data-testid={`${resource}-create`}>
      {createLabel}
    </Button>
  );
  return (
    <Card className="management-card" data-testid={`${resource}-page`}>
      {header}
      <div className="management-toolbar">
        <Space wrap size={[8, 8]} className="management-filters">
          <SearchBox resource={resource} onSearch={onSearch} />
          {filters}
        </Space>
        {actions ? (
          <Space wrap size={[8, 8]}>
            {actions}
            {createButton}
          </Space>
        ) : (
          createButton
        )}
      </div>
      {children}
    </Card>
  );
}

/** The all / active / passive filter of a list. */
export function ActiveFilterSelect({
  resource,
  value,
  onChange,
}: {
  resource: string;
  value: ActiveFilter;
  onChange: (value: ActiveFilter) => void;
}) {
  const { t } = useTranslation();
  return (
    <Select<ActiveFilter>
      value={value}
      onChange={onChange}
      className="management-filter"
      aria-label={t('management.status')}
      data-testid={`${resource}-filter-active`}
      options={[
        { value: 'all', label: t('management.allStatuses') },
        { value: 'active', label: t('management.active') },
        { value: 'passive', label: t('management.passive') },
      ]}
    />
  );
}

/** Active / passive tag of a row. */
export function ActiveTag({ active }: { active: boolean }) {
  const { t } = useTranslation();
  return (
    <Tag color={active ? 'success' : 'default'}>{t(active ? 'management.active' : 'management.passive')}</Tag>
  );
}

interface RowActionsProps {
  resource: string;
  id: number;
  onEdit?: (() => void) | undefined;
  onDelete?: (() => void) | undefined;
  /** Extra buttons before edit and delete. */
  extra?: ReactNode;
}

/** Edit and delete (with confirmation) buttons of a row, each shown only when given. */
export function RowActions({ resource, id, onEdit, onDelete, extra }: RowActionsProps) {
  const { t } = useTranslation();
  return (
    <Space size={4}>
      {extra}
      {onEdit && (
        <Tooltip title={t('management.edit')}>
          <Button
            type="text"
            icon={<EditOutlined />}
            onClick={onEdit}
            aria-label={t('management.edit')}
            data-testid={`${resource}-edit-${id}`}
          />
        </Tooltip>
      )}
      {onDelete && (
        <Popconfirm
          title={t('management.deleteTitle')}
          description={t('management.deleteConfirm')}
          okText={t('management.delete')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true, 'data-testid': `${resource}-delete-confirm` }}
          onConfirm={onDelete}
        >
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('management.delete')}
            data-testid={`${resource}-delete-${id}`}
          />
        </Popconfirm>
      )}
    </Space>
  );
}

interface FormDrawerProps {
  resource: string;
  open: boolean;
  title: string;
  saving: boolean;
  onClose: () => void;
  onSave: () => void;
  width?: number;
  /** A translated reason the last save failed that no field shows. */
  error?: string | null;
  children: ReactNode;
}

/** A drawer holding a create/edit form, with cancel and save in its footer. */
export function FormDrawer({
  resource,
  open,
  title,
  saving,
  onClose,
  onSave,
  width,
  error,
  children,
}: FormDrawerProps) {
  const { t } = useTranslation();
  return (
    <Drawer
      open={open}
      title={title}
      onClose={onClose}
      size={width ?? 560}
      destroyOnHidden
      className="management-drawer"
      rootClassName="management-drawer-root"
      data-testid={`${resource}-drawer`}
      footer={
        <div className="management-drawer-footer">
          <Button onClick={onClose} data-testid={`${resource}-cancel`}>
            {t('common.cancel')}
          </Button>
          <Button type="primary" loading={saving} onClick={onSave} data-testid={`${resource}-save`}>
            {t('common.save')}
          </Button>
        </div>
      }
    >
      {error && (
        <Alert
          type="error"
          showIcon
          title={error}
          className="management-form-error"
          data-testid={`${resource}-error`}
        />
      )}
      {children}
    </Drawer>
  );
}
