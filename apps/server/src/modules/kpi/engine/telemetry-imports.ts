/**
 * The telemetry store's counter and calendar rules the KPI engine reuses, imported in one place so the
 * store's move (telemetry → telemetry-store) touches one line.
 */
export { counterDelta } from '../../../telemetry-store/aggregate';
export {
  bucketRun,
  datesThrough,
  datesUntil,
  dayStart,
  floorBucket,
  localDate,
  nextDate,
} from '../../../telemetry-store/buckets';
