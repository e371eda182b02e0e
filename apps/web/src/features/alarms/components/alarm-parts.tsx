import { useEffect, useState } from 'react';
import Tag from 'antd/es/tag';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ALARM_PRIORITY_KEYS, type AlarmPriority, type AlarmRecord, type AlarmState } from '@solar/shared';
import { isTranslationKey, knownKey } from '../../../lib/i18n-keys';
import { intlTag } from '../../../lib/intl';

/** Tag colour of each priority: 1 low, 2 medium, 3 high, 4 high and dangerous. */
export const PRIORITY_COLORS: Record<AlarmPriority, string> = {
  1: 'blue',
  2: 'gold',
  3: 'orange',
  4: 'red',
};

/** Tag colour of each status (1 active, 2 approved, 3 rejected, 4 cleared). */
export const STATUS_COLORS: Record<number, string> = {
  1: 'error',
  2: 'success',
  3: 'default',
  4: 'processing',
};

/** Tag colour of each ISA-18.2 state: red while active and unacknowledged, calmer as it is handled. */
export const STATE_COLORS: Record<AlarmState, string> = {
  active_unacknowledged: 'error',
  active_acknowledged: 'warning',
  cleared_unacknowledged: 'processing',
  cleared: 'default',
};

/** The alarm's ISA-18.2 state (active or cleared, acknowledged or not) as a tag. */
export function StateTag({ alarm }: { alarm: Pick<AlarmRecord, 'id' | 'state'> }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLORS[alarm.state]} data-testid={`alarm-state-${alarm.id}`} data-state={alarm.state}>
      {t(`alarms.state.${alarm.state}`)}
    </Tag>
  );
}

/** The colour-coded priority of an alarm. */
export function PriorityTag({ priority }: { priority: number }) {
  const { t } = useTranslation();
  const p = priority as AlarmPriority;
  return (
    <Tag color={PRIORITY_COLORS[p]} data-testid="alarm-priority" data-priority={priority}>
      {t(knownKey(ALARM_PRIORITY_KEYS[p], 'alarms.priority.low'))}
    </Tag>
  );
}

type AlarmMessage = Pick<AlarmRecord, 'message' | 'message_params'>;

/**
 * An alarm's text in `language` (the server sends an `alarms.msg.*` key and its params). Numbers are written
 * in the reader's notation ("4,2 kWh" in Turkish) and never grouped: a param may be a vendor's alarm code
 * or a string's number, which a thousands separator would misread ("2.032").
 */
export function alarmTextIn(t: TFunction, language: string): (alarm: AlarmMessage) => string {
  const number = new Intl.NumberFormat(intlTag(language), { maximumFractionDigits: 3, useGrouping: false });
  return (alarm) => {
    const params: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(alarm.message_params))
      params[k] = typeof v === 'number' ? number.format(v) : (v ?? '');
    return (isTranslationKey(alarm.message) ? t(alarm.message, params) : alarm.message)
      .replace(/\s+\)/g, ')')
      .replace(/\s{2,}/g, ' ');
  };
}

/** The alarm's text in the interface language (alarmTextIn). */
export function useAlarmText(): (alarm: AlarmMessage) => string {
  const { t, i18n } = useTranslation();
  return alarmTextIn(t, i18n.language);
}

/** The current time, renewed every `intervalMs` while `enabled` (live durations of active alarms). */
export function useNow(intervalMs: number, enabled = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!enabled) return undefined;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, enabled]);
  return now;
}

/**
 * When the alarm's span ended: it runs while the condition holds, acknowledged or not (ISA-18.2), and
 * ends when it clears.
 */
export function alarmEnd(alarm: Pick<AlarmRecord, 'cleared_at'>, now: number): number {
  return alarm.cleared_at === null ? now : Date.parse(alarm.cleared_at);
}

/** `hh:mm:ss`, with the days in front when there are any (the caller translates the day part). */
export function splitDuration(ms: number): { days: number; clock: string } {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const pad = (n: number) => String(n).padStart(2, '0');
  const clock = `${pad(Math.floor((total % 86_400) / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
  return { days, clock };
}

/** The alarm's duration; for an active alarm it keeps counting (`now` ticks). */
export function AlarmDuration({ alarm, now }: { alarm: AlarmRecord; now: number }) {
  const { t } = useTranslation();
  const { days, clock } = splitDuration(alarmEnd(alarm, now) - Date.parse(alarm.started_at));
  return (
    <span className="mono" data-testid={`alarm-duration-${alarm.id}`}>
      {days > 0 ? `${t('alarms.page.days', { count: days })} ${clock}` : clock}
    </span>
  );
}
