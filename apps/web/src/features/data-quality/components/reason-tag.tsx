import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { useTranslation } from 'react-i18next';
import type { DataQualityFlag } from '@solar/shared';
import { prefixedKey } from '../../../lib/i18n-keys';
import { reasonColor } from '../model';

/** A flag's reason, translated, with its explanation on hover. */
export function ReasonTag({
  flag,
}: {
  flag: Pick<DataQualityFlag, 'reason' | 'accepted_at' | 'informational'>;
}) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t(prefixedKey('dataQuality.reasons', `${flag.reason}.explanation`))}>
      <Tag color={reasonColor(flag)} data-testid={`reason-${flag.reason}`}>
        {t(prefixedKey('dataQuality.reasons', `${flag.reason}.name`))}
      </Tag>
    </Tooltip>
  );
}
