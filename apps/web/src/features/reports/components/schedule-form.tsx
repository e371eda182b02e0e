import Checkbox from 'antd/es/checkbox';
import Col from 'antd/es/col';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import TimePicker from 'antd/es/time-picker';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  REPORT_FREQUENCIES,
  REPORT_TYPES,
  SCHEDULED_REPORT_FORMATS,
  reportScheduleBody,
  type ReportFrequency,
  type ReportSchedule,
  type ReportScheduleBody,
  type ReportType,
  type ScheduledReportFormat,
  zoneOfPlants,
} from '@solar/shared';
import { EntityFormDrawer, Form, useEntityForm } from '../../../components';
import { weekdayName } from '../../../lib/intl';
import { schemaRule } from '../../../lib/schema-rule';
import { useCatalogPlants } from '../../telemetry';
import { useSaveReportSchedule } from '../api/save-report-schedule';

interface Values {
  report_type: ReportType;
  plant_ids: number[];
  formats: ScheduledReportFormat[];
  frequency: ReportFrequency;
  local_time: Dayjs | null;
  weekday: number;
  is_paused: boolean;
}

const shape = reportScheduleBody.shape;

/** What a new subscription starts from: the report being previewed, when there is one. */
export interface ScheduleDraft {
  report_type: ReportType;
  plant_ids: number[];
}

interface ScheduleFormProps {
  open: boolean;
  schedule: ReportSchedule | null;
  draft: ScheduleDraft;
  onClose: () => void;
}

/**
 * Create/edit drawer of a report subscription: the report and its plants, the attachments, daily / weekly
 * on a weekday / monthly on the 1st at a local time (in the plants' time zone), and paused or not.
 */
export function ScheduleForm({ open, schedule, draft, onClose }: ScheduleFormProps) {
  const { t, i18n } = useTranslation();
  const entity = useEntityForm<Values>();
  const { form } = entity;
  const save = useSaveReportSchedule();
  const plants = useCatalogPlants();
  const frequency = Form.useWatch('frequency', form) ?? schedule?.frequency ?? 'daily';
  const plantIds = Form.useWatch('plant_ids', form) ?? schedule?.plant_ids ?? draft.plant_ids;
  // The clock the time is read on, chosen as the server chooses it (zoneOfPlants): named under the time.
  const timeZone = plants.data?.length && plantIds.length ? zoneOfPlants(plantIds, plants.data) : null;

  const onFinish = (v: Values) => {
    const body: ReportScheduleBody = {
      report_type: v.report_type,
      plant_ids: v.plant_ids,
      formats: v.formats,
      frequency: v.frequency,
      local_time: v.local_time?.format('HH:mm') ?? '',
      weekday: v.weekday,
      is_paused: v.is_paused,
    };
    entity.save(save, { id: schedule?.id ?? 0, body }, onClose);
  };

  return (
    <EntityFormDrawer<Values>
      entity={entity}
      resource="report-schedule"
      open={open}
      title={t(schedule ? 'reportSchedules.editTitle' : 'reportSchedules.newTitle')}
      saving={save.isPending}
      onClose={onClose}
      onFinish={onFinish}
      initialValues={{
        report_type: schedule?.report_type ?? draft.report_type,
        plant_ids: schedule?.plant_ids ?? draft.plant_ids,
        formats: schedule?.formats ?? ['pdf', 'xlsx'],
        frequency: schedule?.frequency ?? 'monthly',
        local_time: dayjs(`2000-01-01T${schedule?.local_time ?? '07:00'}`),
        weekday: schedule?.weekday ?? 1,
        is_paused: schedule?.is_paused ?? false,
      }}
    >
      <Form.Item
        name="report_type"
        label={t('reportPage.type')}
        rules={[schemaRule(shape.report_type, t, true)]}
      >
        <Select
          options={REPORT_TYPES.map((type) => ({ value: type, label: t(`reportPage.types.${type}`) }))}
          data-testid="report-schedule-field-report_type"
        />
      </Form.Item>
      <Form.Item
        name="plant_ids"
        label={t('reportPage.plants')}
        rules={[schemaRule(shape.plant_ids, t, true)]}
      >
        <Select
          mode="multiple"
          showSearch={{ optionFilterProp: 'label' }}
          options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          loading={plants.isLoading}
          placeholder={t('reportPage.plantsPlaceholder')}
          data-testid="report-schedule-field-plant_ids"
        />
      </Form.Item>
      <Form.Item
        name="formats"
        label={t('reportSchedules.formats')}
        rules={[schemaRule(shape.formats, t, true)]}
      >
        <Checkbox.Group
          options={SCHEDULED_REPORT_FORMATS.map((f) => ({ value: f, label: t(`reportPage.formats.${f}`) }))}
          data-testid="report-schedule-field-formats"
        />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="frequency" label={t('reportSchedules.frequency')}>
            <Select
              options={REPORT_FREQUENCIES.map((f) => ({
                value: f,
                label: t(`reportSchedules.frequencies.${f}`),
              }))}
              data-testid="report-schedule-field-frequency"
            />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item
            name="local_time"
            label={t('reportSchedules.localTime')}
            rules={[{ required: true, message: t('validation.required') }]}
            extra={
              timeZone && (
                <span data-testid="report-schedule-time-zone">
                  {t('reportSchedules.timeZone')}: {timeZone}
                </span>
              )
            }
          >
            <TimePicker
              format="HH:mm"
              minuteStep={5}
              needConfirm={false}
              allowClear={false}
              className="full-width"
              data-testid="report-schedule-field-local_time"
            />
          </Form.Item>
        </Col>
        {frequency === 'weekly' && (
          <Col xs={12} sm={6}>
            <Form.Item name="weekday" label={t('reportSchedules.weekday')}>
              <Select
                // ISO weekdays 1 Monday … 7 Sunday; weekdayName counts from Sunday 0.
                options={[1, 2, 3, 4, 5, 6, 7].map((d) => ({
                  value: d,
                  label: weekdayName(d % 7, i18n.language, 'long'),
                }))}
                data-testid="report-schedule-field-weekday"
              />
            </Form.Item>
          </Col>
        )}
      </Row>
      <Form.Item name="is_paused" label={t('reportSchedules.statuses.paused')} valuePropName="checked">
        <Switch data-testid="report-schedule-field-is_paused" />
      </Form.Item>
    </EntityFormDrawer>
  );
}
