import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import type { AlarmRow } from '../alarm-groups';

/** Where the alarm stands in its event: the cause of the alarms under it, or one that followed another. */
export function AlarmGroupTag({ alarm }: { alarm: AlarmRow }) {
  const { t } = useTranslation();
  if (alarm.children)
    return (
      <Tag
        color="purple"
        className="alarm-group-tag"
        data-testid={`alarm-consequences-${alarm.id}`}
        data-count={alarm.children.length}
      >
        {t('alarms.page.consequenceCount', { n: alarm.children.length })}
      </Tag>
    );
  if (alarm.cause_alarm_id === null) return null;
  return (
    <Tag
      className="alarm-group-tag"
      data-testid={`alarm-consequence-${alarm.id}`}
      data-cause={alarm.cause_alarm_id}
    >
      {t('alarms.page.consequence')}
    </Tag>
  );
}
