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
import { useActiveAlarmCounts } from '../api/get-active-alarm-counts';
import { useSubstationAlarms } from '../api/get-substation-alarms';
import { useAlarmText } from './alarm-parts';
import { priorityKey } from '../priority-key';

/** Priorities that raise a toast: high, and high and dangerous. */
const TOAST_MIN_PRIORITY = ALARM_PRIORITY.high;
const TOAST_SECONDS = 10;

function HeaderAlarms() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const counts = useActiveAlarmCounts(true);
  const substation = useSubstationAlarms(true);
  const [notifications, holder] = notification.useNotification({ placement: 'bottomRight', maxCount: 5 });
  const text = useAlarmText();

  const onEvent = useCallback(
    (event: AlarmEvent) => {
      const { alarm } = event;
      // The badge counts what /alarms counts: every change of an alarm may change it.
      void counts.refetch();
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
    [notifications, navigate, t, text, counts],
  );
  useAlarmEvents(onEvent);

  const active = counts.data ?? { low: 0, medium: 0, high: 0, dangerous: 0, total: 0 };
  const title = t('alarms.page.activeBadge', active);
  const substationCount = substation.data?.length ?? 0;
  return (
    <>
      {holder}
      <Tooltip
        title={
          <span data-testid="alarm-badge-tooltip">
            {title}
            {substationCount > 0 && (
              <>
                <br />
                {t('alarms.page.substationBadge', { count: substationCount })}
              </>
            )}
          </span>
        }
      >
        <Button
          type="text"
          aria-label={title}
          onClick={() => void navigate('/alarms')}
          data-testid="alarm-badge"
          data-count={counts.data ? active.total : undefined}
        >
          <Badge
            count={active.total}
            size="small"
            overflowCount={99}
            color={active.dangerous + active.high > 0 ? undefined : 'gold'}
          >
            <AlertOutlined />
          </Badge>
        </Button>
      </Tooltip>
    </>
  );
}

/**
 * Header notice of alarms for users who may view them: a badge with every alarm active in the user's
 * scope (the count /alarms shows; red while a high or dangerous one is among them), its tooltip by
 * priority and the substation alarms (polled every 3 minutes), and a sound-free toast for each new high or
 * dangerous alarm pushed live.
 */
export function AlarmBadge() {
  const canView = useCan('alarm').view;
  return canView ? <HeaderAlarms /> : null;
}
