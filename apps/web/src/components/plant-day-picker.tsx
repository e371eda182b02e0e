import DatePicker from 'antd/es/date-picker';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateBounds } from '../lib/date-bounds';
import { plantToday } from '../lib/plant-time';

export interface PlantDayPickerProps {
  /** The plant's IANA zone: its calendar, not the browser's, decides which day is today. */
  timeZone: string;
  /** The chosen day, YYYY-MM-DD on the plant's calendar. */
  value: string;
  onChange: (day: string) => void;
  ariaLabel?: string;
  testId: string;
}

/**
 * A day picker whose days stand for the plant's: the last day it offers is the plant's today, and its
 * "Today" link picks that day. Ant Design's own "Today" button means the browser's today, a day off for a
 * reader west or east of the plant around midnight (docs/architecture.md, "Plant time").
 */
export function PlantDayPicker({ timeZone, value, onChange, ariaLabel, testId }: PlantDayPickerProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const today = plantToday(timeZone);
  return (
    <DatePicker
      {...dateBounds}
      aria-label={ariaLabel}
      data-testid={testId}
      allowClear={false}
      showNow={false}
      open={open}
      onOpenChange={setOpen}
      value={dayjs(value)}
      disabledDate={(d: Dayjs) => d.format('YYYY-MM-DD') > plantToday(timeZone)}
      onChange={(d: Dayjs | null) => d && onChange(d.format('YYYY-MM-DD'))}
      renderExtraFooter={() => (
        <a
          className="plant-day-picker-today"
          data-testid={`${testId}-today`}
          onClick={() => {
            onChange(today);
            setOpen(false);
          }}
        >
          {t('common.plantToday')}
        </a>
      )}
    />
  );
}
