import Tag from 'antd/es/tag';
import CheckCircleOutlined from '@ant-design/icons/CheckCircleOutlined';
import CloseCircleOutlined from '@ant-design/icons/CloseCircleOutlined';
import DisconnectOutlined from '@ant-design/icons/DisconnectOutlined';
import ExclamationCircleOutlined from '@ant-design/icons/ExclamationCircleOutlined';
import MoonOutlined from '@ant-design/icons/MoonOutlined';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { OperatingStatus } from '@solar/shared';

/** Colour and icon of each status; the text is always shown too, so colour is never the only cue. */
const LOOK: Record<OperatingStatus, { color: string; icon: ReactNode }> = {
  normal: { color: 'success', icon: <CheckCircleOutlined /> },
  warning: { color: 'warning', icon: <ExclamationCircleOutlined /> },
  fault: { color: 'error', icon: <CloseCircleOutlined /> },
  offline: { color: 'default', icon: <DisconnectOutlined /> },
  night: { color: 'geekblue', icon: <MoonOutlined /> },
};

/** Rank for sorting: the status that needs attention first comes first. */
export const STATUS_RANK: Record<OperatingStatus, number> = {
  fault: 0,
  offline: 1,
  warning: 2,
  night: 3,
  normal: 4,
};

/** A plant's or device's operating status as a coloured tag with an icon and its translated name. */
export function StatusTag({ status }: { status: OperatingStatus }) {
  const { t } = useTranslation();
  const look = LOOK[status];
  return (
    <Tag color={look.color} icon={look.icon} data-testid="status-tag" data-status={status}>
      {t(`plantView.status.${status}`)}
    </Tag>
  );
}
