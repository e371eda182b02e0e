import Tag from 'antd/es/tag';
import CheckCircleOutlined from '@ant-design/icons/CheckCircleOutlined';
import CloseCircleOutlined from '@ant-design/icons/CloseCircleOutlined';
import DisconnectOutlined from '@ant-design/icons/DisconnectOutlined';
import ExclamationCircleOutlined from '@ant-design/icons/ExclamationCircleOutlined';
import MoonOutlined from '@ant-design/icons/MoonOutlined';
import QuestionCircleOutlined from '@ant-design/icons/QuestionCircleOutlined';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { OperatingStatus, PlantOverviewItem } from '@solar/shared';
import { formatNumber } from '../../../lib/format';

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

/**
 * A plant's or device's operating status as a coloured tag with an icon and its translated name; null is a
 * device whose link is not known yet (a camera never probed), shown as such rather than as offline.
 */
export function StatusTag({ status }: { status: OperatingStatus | null }) {
  const { t } = useTranslation();
  if (status === null)
    return (
      <Tag icon={<QuestionCircleOutlined />} data-testid="status-tag" data-status="unknown">
        {t('plantView.status.unknown')}
      </Tag>
    );
  const look = LOOK[status];
  return (
    <Tag color={look.color} icon={look.icon} data-testid="status-tag" data-status={status}>
      {t(`plantView.status.${status}`)}
    </Tag>
  );
}

/**
 * A plant's status tag, and under it why a plant without alarms is a warning: it makes far less of its
 * capacity than a plant of the same field (the server's rule, modules/kpi/engine/status.ts).
 */
export function PlantStatus({ plant }: { plant: PlantOverviewItem }) {
  const { t, i18n } = useTranslation();
  const below = plant.below_neighbour;
  return (
    <div className="plant-status">
      <StatusTag status={plant.status} />
      {below && (
        <div className="plant-status-note" data-testid="plant-status-note">
          {t('plantView.status.belowNeighbour', {
            percent: formatNumber(plant.ac_capacity_percent ?? 0, i18n.language, 0),
            name: below.name,
            neighbourPercent: formatNumber(below.ac_capacity_percent, i18n.language, 0),
          })}
        </div>
      )}
    </div>
  );
}
