import { ALARM_PRIORITY_KEYS, type AlarmPriority } from '@solar/shared';
import { knownKey, type TranslationKey } from '../../lib/i18n-keys';

/** The label key of an alarm or fault priority; an unknown priority reads as the highest. */
export const priorityKey = (priority: number): TranslationKey =>
  knownKey(ALARM_PRIORITY_KEYS[priority as AlarmPriority], 'alarms.priority.dangerous');
