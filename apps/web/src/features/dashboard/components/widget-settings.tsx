import { useMemo, useState } from 'react';
import Modal from 'antd/es/modal';
import Segmented from 'antd/es/segmented';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { Form } from '../../../components';
import {
  renderSignalOption,
  SIGNAL_SEARCH,
  signalOption,
  useCatalogPlants,
  usePlantCatalog,
} from '../../telemetry';
import type { Widget } from '../model/stored-layout';
import { SIGNAL_DISPLAYS, WIDGETS, type WidgetSettings } from '../model/widgets';

interface WidgetSettingsProps {
  widget: Widget;
  onSave: (settings: WidgetSettings) => void;
  onClose: () => void;
}

/** A widget's settings form: the plants, plant, signal, display and period its type uses. */
export function WidgetSettingsDialog({ widget, onSave, onClose }: WidgetSettingsProps) {
  const { t } = useTranslation();
  const def = WIDGETS[widget.type];
  const [draft, setDraft] = useState<WidgetSettings>(widget.settings);
  const plants = useCatalogPlants();
  const devices = usePlantCatalog(def.fields.includes('signal') ? draft.plant_id : null);
  const plantOptions = useMemo(
    () => (plants.data ?? []).map((p) => ({ value: p.id, label: p.name })),
    [plants.data],
  );
  const signalOptions = useMemo(
    () =>
      (devices.data ?? [])
        .filter((d) => d.signals.length > 0)
        .map((d) => ({ label: d.name, title: d.name, options: d.signals.map(signalOption) })),
    [devices.data],
  );
  const set = (patch: Partial<WidgetSettings>) => setDraft((d) => ({ ...d, ...patch }));

  return (
    <Modal
      open
      title={`${t('dashboard.settings.title')} · ${t(`dashboard.widget.${widget.type}`)}`}
      okText={t('dashboard.settings.apply')}
      cancelText={t('dashboard.cancel')}
      onOk={() => onSave(draft)}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'widget-settings-ok' }}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid="widget-settings-form">
        {def.fields.includes('plants') && (
          <Form.Item label={t('dashboard.settings.plants')} extra={t('dashboard.settings.allPlants')}>
            <Select
              mode="multiple"
              allowClear
              value={draft.plant_ids}
              onChange={(plant_ids: number[]) => set({ plant_ids })}
              options={plantOptions}
              loading={plants.isLoading}
              optionFilterProp="label"
              data-testid="settings-plants"
              aria-label={t('dashboard.settings.plants')}
            />
          </Form.Item>
        )}
        {def.fields.includes('plant') && (
          <Form.Item label={t('dashboard.settings.plant')}>
            <Select
              showSearch
              allowClear={widget.type === 'open_faults'}
              placeholder={widget.type === 'open_faults' ? t('dashboard.settings.allPlantsShort') : undefined}
              value={draft.plant_id ?? undefined}
              onChange={(plant_id: number | undefined) =>
                set({ plant_id: plant_id ?? null, signal_id: null })
              }
              options={plantOptions}
              loading={plants.isLoading}
              optionFilterProp="label"
              data-testid="settings-plant"
              aria-label={t('dashboard.settings.plant')}
            />
          </Form.Item>
        )}
        {def.fields.includes('signal') && (
          <Form.Item label={t('dashboard.settings.signal')}>
            <Select
              showSearch
              disabled={draft.plant_id === null}
              value={draft.signal_id ?? undefined}
              onChange={(signal_id: number) => set({ signal_id })}
              options={signalOptions}
              optionRender={renderSignalOption}
              loading={devices.isLoading}
              {...SIGNAL_SEARCH}
              data-testid="settings-signal"
              aria-label={t('dashboard.settings.signal')}
            />
          </Form.Item>
        )}
        {def.fields.includes('display') && (
          <Form.Item label={t('dashboard.settings.display')}>
            <Segmented
              value={draft.display}
              onChange={(display) => set({ display })}
              options={SIGNAL_DISPLAYS.map((d) => ({ value: d, label: t(`dashboard.display.${d}`) }))}
              data-testid="settings-display"
            />
          </Form.Item>
        )}
        {def.fields.includes('period') && (
          <Form.Item label={t('dashboard.settings.period')}>
            <Segmented
              value={draft.period}
              onChange={(period) => set({ period })}
              options={def.periods.map((p) => ({ value: p, label: t(`dashboard.period.${p}`) }))}
              data-testid="settings-period"
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
