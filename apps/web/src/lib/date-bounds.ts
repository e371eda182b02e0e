import dayjs from 'dayjs';
import { DATE_MAX, DATE_MIN } from '@solar/shared';

/**
 * The days the API accepts (packages/shared/src/dates.ts, docs/security.md "Dates and ranges"): spread
 * into every date picker, so that none offers a day the server refuses.
 */
export const dateBounds = { minDate: dayjs(DATE_MIN), maxDate: dayjs(DATE_MAX).endOf('day') };
