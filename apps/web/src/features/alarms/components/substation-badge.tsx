import { useCallback } from 'react';
import Badge from 'antd/es/badge';
import Button from 'antd/es/button';
import notification from 'antd/es/notification';
import Tooltip from 'antd/es/tooltip';
import AlertOutlined from '@ant-design/icons/AlertOutlined';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ALARM_PRIORITY, type AlarmEvent } from '@solar/shared';
import { useCan } from '../../../lib/permissions';
import { useAlarmEvents } from '../api/alarm-events';
import { useSubstationAlarms } from '../api/get-substation-alarms';
import { useAlarmText } from './alarm-parts';
import { priorityKey } from '../priority-key';

/** Priorities that raise a toast: high, and high and dangerous. */
const TOAST_MIN_PRIORITY = ALARM_PRIORITY.high;
const TOAST_SECONDS = 10;

function HeaderAlarms() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const substation = useSubstationAlarms(true);
  const [notifications, holder] = notification.useNotification({ placement: 'bottomRight', maxCount: 5 });
  const text = useAlarmText();

  const onEvent = useCallback(
    (event: AlarmEvent) => {
      const { alarm } = event;
      if (event.kind !== 'raised' || alarm.priority_id < TOAST_MIN_PRIORITY) return;
      const open =
        alarm.priority_id >= ALARM_PRIORITY.dangerous ? notifications.error : notifications.warning;
      // Silent and non-blocking: a corner toast per new alarm, keyed so a repeated push shows once.
      open({
        key: `alarm-${alarm.id}`,
        duration: TOAST_SECONDS,
        message: `${t(priorityKey(alarm.priority_id))} · ${alarm.plant_name}`,
        description: (
          <span data-testid={`alarm-toast-${alarm.id}`}>
            {alarm.device_name ? `${alarm.device_name}: ` : ''}
            {text(alarm)}
          </span>
        ),
        btn: (
          <Button
            size="small"
            type="link"
            onClick={() => {
              notifications.destroy(`alarm-${alarm.id}`);
              void navigate('/alarms');
            }}
          >
            {t('alarms.page.show')}
          </Button>
        ),
      });
    },
    [notifications, navigate, t, text],
  );
  useAlarmEvents(onEvent);

  const count = substation.data?.length ?? 0;
  return (
    <>
      {holder}
      <Tooltip title={t('alarms.page.substationBadge', { count })}>
        <Button
          type="text"
          aria-label={t('alarms.page.substationBadge', { count })}
          onClick={() => void navigate('/alarms')}
          data-testid="substation-badge"
          data-count={count}
        >
          <Badge count={count} size="small" overflowCount={99}>
            <AlertOutlined />
          </Badge>
        </Button>
      </Tooltip>
    </>
  );
}

/**
 * Header notice of alarms for users who may view them: a badge with the count of active substation
 * alarms (polled every 3 minutes) and a sound-free toast for each new high or dangerous alarm pushed live.
 */
export function SubstationBadge() {
  const canView = useCan('alarm').view;
  return canView ? <HeaderAlarms /> : null;
}
