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

/** /kameralar: every camera in scope as a live tile, in plant order; a tile opens the camera's page. */
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

  // One grid for every camera, in plant order: plants with one camera each (the usual case) would otherwise
  // take a row each and leave most of the width empty. Each tile names its plant.
  return (
    <div className="camera-grid" data-testid="camera-wall">
      {cameras.data.flatMap(({ plant, cameras: list }) =>
        list.map((camera) => (
          <Card
            key={camera.id}
            size="small"
            className="camera-tile"
            data-testid="camera-tile"
            data-camera-id={camera.id}
            data-plant-id={plant.id}
            title={
              <span className="camera-tile-title">
                <Link
                  to={`/kamera-detay/${camera.id}`}
                  aria-label={t('devicePages.openCamera', { name: camera.name })}
                >
                  {camera.name}
                </Link>
                <Link
                  to={`/santral-detay/${plant.id}`}
                  className="camera-tile-plant"
                  data-testid="camera-tile-plant"
                >
                  {plant.name}
                </Link>
              </span>
            }
          >
            {/* The picture opens the page too, for a pointer; the title link is the keyboard's way in. */}
            <div className="camera-tile-body" onClick={() => void navigate(`/kamera-detay/${camera.id}`)}>
              <CameraView
                id={camera.id}
                name={camera.name}
                timeZone={plant.time_zone}
                refreshMs={TILE_REFRESH_MS}
                compact
              />
            </div>
          </Card>
        )),
      )}
    </div>
  );
}
