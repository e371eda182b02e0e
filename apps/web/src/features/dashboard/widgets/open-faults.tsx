import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAlarmEvents } from '../../alarms';
import { faultKeys } from '../../faults';
import { OPEN_FAULT_STATES, useOpenFaultCounts } from '../api/get-fault-counts';
import { WidgetFrame, WidgetState } from '../components/widget-frame';
import { useCatalogPlantMap, withPlant } from './use-plant-names';
import type { WidgetProps } from './types';

/** How many faults (of one plant, or of the whole scope) are open, in progress and resolved but not closed. */
export function OpenFaultsWidget({ widget, frame }: WidgetProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const plantId = widget.settings.plant_id;
  const plant = useCatalogPlantMap().get(plantId ?? 0);
  const faults = useOpenFaultCounts(plantId);
  // An approved alarm becomes a fault: count again when alarms change.
  useAlarmEvents((event) => {
    if (event.kind === 'approved') void client.invalidateQueries({ queryKey: faultKeys.all });
  });
  const total = faults.counts ? OPEN_FAULT_STATES.reduce((n, s) => n + faults.counts![s], 0) : 0;
  return (
    <WidgetFrame frame={frame} title={withPlant(t('dashboard.widget.open_faults'), plant)}>
      <WidgetState
        isLoading={faults.isLoading}
        isError={faults.isError}
        isEmpty={false}
        onRetry={faults.refetch}
      >
        <dl className="dashboard-tiles" data-testid="open-faults" data-total={total}>
          {OPEN_FAULT_STATES.map((s) => (
            <div className="dashboard-tile" key={s}>
              <dt>{t(`faults.status.${s}`)}</dt>
              <dd data-testid={`faults-${s}`}>
                <Link to="/fault">{faults.counts?.[s] ?? '–'}</Link>
              </dd>
            </div>
          ))}
        </dl>
      </WidgetState>
    </WidgetFrame>
  );
}
