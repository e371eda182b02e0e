import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import type { OperatingStatus } from '@solar/shared';
import { prefixedKey } from '../../../lib/i18n-keys';

/** Tag colour of each operating status (the same derivation everywhere it is shown). */
export const OPERATING_STATUS_COLORS: Record<OperatingStatus, string> = {
  fault: 'error',
  offline: 'default',
  warning: 'warning',
  night: 'purple',
  normal: 'success',
};

/** The device's operating status as a coloured tag with its text. */
export function OperatingStatusTag({ status, testId }: { status: OperatingStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={OPERATING_STATUS_COLORS[status]} data-testid={testId} data-status={status}>
      {t(prefixedKey('devicePages.status', status))}
    </Tag>
  );
}
