import { useEffect, useMemo } from 'react';
import Empty from 'antd/es/empty';
import Select from 'antd/es/select';
import Spin from 'antd/es/spin';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { usePlantsOverview } from '../plants';
import { Legend } from './components/legend';
import { loadElk } from './layout/elk-graph';
import { useHoldLoading } from './components/hold-loading';
import { PlantDiagram } from './components/plant-diagram';
import './single-line.css';

/**
 * /single-line: the chosen plant's single-line diagram (topology laid out with elkjs), each device with its
 * live power and status. The plant is in the URL (?plant=ID), so a reload or a shared link keeps it; the
 * first plant in scope by default.
 */
export default function SingleLinePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const overview = usePlantsOverview();
  const plants = useMemo(() => overview.data ?? [], [overview.data]);
  const asked = Number(params.get('plant'));
  const plantId = params.get('plant') !== null && Number.isInteger(asked) ? asked : null;
  const plant = plantId === null ? undefined : plants.find((p) => p.plant_id === plantId);
  const known = plant !== undefined;

  useHoldLoading(plantId === null && plants.length > 0);

  // The layout engine loads while the plants and the topology do, not after them.
  useEffect(() => {
    void loadElk();
  }, []);

  useEffect(() => {
    if (plantId === null && plants.length > 0)
      setParams({ plant: String(plants[0]!.plant_id) }, { replace: true });
  }, [plantId, plants, setParams]);

  let body;
  if (overview.isLoading)
    body = (
      <div className="sl-state" data-testid="sl-loading" role="status" aria-label={t('singleLine.loading')}>
        <Spin />
      </div>
    );
  else if (overview.isError)
    body = (
      <Alert
        type="error"
        showIcon
        data-testid="sl-error"
        title={t('singleLine.error')}
        action={<Button onClick={() => void overview.refetch()}>{t('singleLine.retry')}</Button>}
      />
    );
  else if (plants.length === 0)
    body = <Empty description={t('singleLine.noPlants')} data-testid="sl-no-plants" />;
  else if (plantId !== null && !known)
    body = <Empty description={t('singleLine.notFound')} data-testid="sl-not-found" />;
  else if (plant)
    body = <PlantDiagram key={plant.plant_id} plantId={plant.plant_id} timeZone={plant.time_zone} />;

  return (
    <div className="single-line" data-testid="single-line">
      <div className="sl-toolbar">
        <Select
          className="sl-plant-select"
          aria-label={t('singleLine.plant')}
          placeholder={t('singleLine.choosePlant')}
          data-testid="sl-plant"
          showSearch={{ optionFilterProp: 'label' }}
          loading={overview.isLoading}
          value={known ? plantId : undefined}
          onChange={(id: number) => setParams({ plant: String(id) })}
          options={plants.map((p) => ({ value: p.plant_id, label: p.name }))}
        />
        <Legend />
      </div>
      {body}
    </div>
  );
}
