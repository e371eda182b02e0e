import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import type { FaultStatus } from '@solar/shared';
import { PRIORITY_COLORS, STATUS_COLORS, priorityKey } from '../format';

/** The coloured tag of a fault status. */
export function StatusTag({ status }: { status: FaultStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLORS[status]} data-testid="fault-status-tag">
      {t(`faults.status.${status}`)}
    </Tag>
  );
}

/** The coloured tag of a priority (1 low … 4 high and dangerous). */
export function PriorityTag({ priority }: { priority: number }) {
  const { t } = useTranslation();
  return <Tag color={PRIORITY_COLORS[priority] ?? 'default'}>{t(priorityKey(priority))}</Tag>;
}
