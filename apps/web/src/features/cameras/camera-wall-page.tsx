import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Spin from 'antd/es/spin';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { errorMessageOf } from '../../lib/api-errors';
import { useCameras } from './api/get-cameras';
import { CameraView } from './components/camera-view';
import './cameras.css';

/** Tiles refresh less often than the detail view: a wall of many cameras shares one uplink. */
const TILE_REFRESH_MS = 10_000;

/** /kameralar: every camera in scope as a live tile, grouped by plant; a tile opens the camera's page. */
export default function CameraWallPage() {
  const { t } = useTranslation();
  const cameras = useCameras();
  const navigate = useNavigate();

  if (cameras.error)
    return (
      <Alert type="error" showIcon title={errorMessageOf(cameras.error, t)} data-testid="camera-wall-error" />
    );
  if (!cameras.data) return <Spin className="device-page-spin" />;
  if (cameras.data.length === 0)
    return <Empty description={t('devicePages.noCameras')} data-testid="camera-wall-empty" />;

  return (
    <div className="device-page" data-testid="camera-wall">
      {cameras.data.map(({ plant, cameras: list }) => (
        <section key={plant.id} className="camera-group" data-testid="camera-group" data-plant-id={plant.id}>
          <h2 className="camera-group-title">
            <Link to={`/santral-detay/${plant.id}`}>{plant.name}</Link>
          </h2>
          <div className="camera-grid">
            {list.map((camera) => (
              <Card
                key={camera.id}
                size="small"
                className="camera-tile"
                data-testid="camera-tile"
                data-camera-id={camera.id}
                title={
                  <Link
                    to={`/kamera-detay/${camera.id}`}
                    aria-label={t('devicePages.openCamera', { name: camera.name })}
                  >
                    {camera.name}
                  </Link>
                }
              >
                {/* The picture opens the page too, for a pointer; the title link is the keyboard's way in. */}
                <div className="camera-tile-body" onClick={() => void navigate(`/kamera-detay/${camera.id}`)}>
                  <CameraView id={camera.id} name={camera.name} refreshMs={TILE_REFRESH_MS} compact />
                </div>
              </Card>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
