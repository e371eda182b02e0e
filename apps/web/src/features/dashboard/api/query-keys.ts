import { alarmKeys } from '../../alarms';

/**
 * Query keys of the dashboard's own calls. Every key starts with `all`; widgets that show other
 * features' data use those features' keys, so the features' own invalidations reach them.
 */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  /** The user's saved layout. */
  layout: () => [...dashboardKeys.all, 'layout'] as const,
  /** The newest active alarms (of one plant, or null for the scope): under the alarm keys, so alarm decisions refresh them. */
  activeAlarms: (plantId: number | null) => [...alarmKeys.all, 'active', plantId] as const,
  /** Every active-alarm list of the dashboard, for invalidating them together. */
  allActiveAlarms: () => [...alarmKeys.all, 'active'] as const,
};
