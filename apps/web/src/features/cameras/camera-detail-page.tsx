import { useState } from 'react';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Spin from 'antd/es/spin';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import Empty from 'antd/es/empty';
import { NotFoundPage } from '../../components';
import { errorMessageOf } from '../../lib/api-errors';
import { PlantTime } from '../../lib/plant-time-view';
import { StatusTag, usePlantDeviceStatus } from '../plants';
import { useCameras } from './api/get-cameras';
import type { CameraState } from './camera-state';
import { CameraStateTag, CameraView } from './components/camera-view';
import './cameras.css';

/** The detail view refreshes its snapshot this often: live enough to watch, light on a plant's uplink. */
const REFRESH_MS = 3_000;

/**
 * /kamera-detay/{camera_id}: the camera's live view through the server's proxy, its name, plant and
 * state; a translated message and a retry when it cannot be reached or has no address. Its status and last
 * image are the server's (the camera probe, by the rule the device list and the single-line diagram use).
 */
export default function CameraDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().cameraId);
  const valid = Number.isInteger(id) && id > 0;
  const cameras = useCameras();
  const [state, setState] = useState<CameraState>('loading');
  const camera = cameras.data?.flatMap((g) => g.cameras).find((c) => c.id === id);
  const statuses = usePlantDeviceStatus(camera ? camera.plant.id : null);
  const status = statuses.data?.items.find((i) => i.device_id === id);

  if (!valid) return <NotFoundPage />;
  if (cameras.error)
    return (
      <Alert type="error" showIcon title={errorMessageOf(cameras.error, t)} data-testid="camera-page-error" />
    );
  if (!cameras.data) return <Spin className="device-page-spin" />;
  // The route exists; only this camera is unknown or out of scope (as the plant detail answers it).
  if (!camera) return <Empty description={t('errors.notFound')} data-testid="camera-not-found" />;

  return (
    <div className="device-page" data-testid="camera-page" data-camera-id={id}>
      <Card>
        <div className="device-header-title">
          <h2 data-testid="camera-name">{camera.name}</h2>
          <CameraStateTag state={state} testId="camera-state" />
        </div>
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2 }}
          items={[
            {
              key: 'plant',
              label: t('devicePages.plant'),
              children: <Link to={`/santral-detay/${camera.plant.id}`}>{camera.plant.name}</Link>,
            },
            {
              key: 'status',
              label: t('plantView.devices.status'),
              children: (
                <span data-testid="camera-status">{status ? <StatusTag status={status.status} /> : '–'}</span>
              ),
            },
            {
              key: 'lastImage',
              label: t('devicePages.cameraLastImage'),
              children: (
                <PlantTime
                  at={status?.last_data_at}
                  zone={camera.plant.time_zone}
                  testId="camera-last-image"
                />
              ),
            },
          ]}
        />
      </Card>
      <Card className="camera-card">
        <CameraView
          id={id}
          name={camera.name}
          timeZone={camera.plant.time_zone}
          refreshMs={REFRESH_MS}
          onState={setState}
        />
      </Card>
    </div>
  );
}
