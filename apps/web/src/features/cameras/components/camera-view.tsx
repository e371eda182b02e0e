import { useEffect } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Tag from 'antd/es/tag';
import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import { useTranslation } from 'react-i18next';
import { LoadingSpin } from '../../../components';
import { errorMessageOf } from '../../../lib/api-errors';
import { useCameraSnapshot } from '../api/get-camera-snapshot';
import { cameraStateOf, type CameraState } from '../camera-state';
import { formatPlantTime } from '../../../lib/plant-time';

const STATE_COLORS: Record<CameraState, string> = {
  loading: 'default',
  live: 'success',
  unreachable: 'error',
  noAddress: 'warning',
};

/** The camera's state as a coloured tag. */
export function CameraStateTag({ state, testId }: { state: CameraState; testId?: string }) {
  const { t } = useTranslation();
  const text = {
    loading: t('devicePages.cameraLoading'),
    live: t('devicePages.cameraLive'),
    unreachable: t('devicePages.cameraDown'),
    noAddress: t('devicePages.cameraNoAddress'),
  }[state];
  return (
    <Tag color={STATE_COLORS[state]} data-testid={testId} data-state={state}>
      {text}
    </Tag>
  );
}

interface CameraViewProps {
  id: number;
  name: string;
  /** The camera's plant's IANA zone: the picture's time is on the plant's clock. */
  timeZone: string;
  /** How often the snapshot is fetched again while the camera answers. */
  refreshMs: number;
  /** Told each time the state changes (the page shows it in its header). */
  onState?: (state: CameraState) => void;
  /** Smaller message, no timestamp: a tile on the wall. */
  compact?: boolean;
}

/**
 * The camera's live view: its snapshot through the server's proxy, fetched again every few seconds and
 * shown from memory; a translated message and a retry button when the camera cannot be reached.
 */
export function CameraView({ id, name, timeZone, refreshMs, onState, compact = false }: CameraViewProps) {
  const { t, i18n } = useTranslation();
  const query = useCameraSnapshot(id, refreshMs);
  const src = query.data ?? null;
  const state = cameraStateOf(query.status, query.error);

  useEffect(() => onState?.(state), [onState, state]);

  if (query.isError)
    return (
      <div className="camera-frame camera-frame-message" data-testid="camera-error" data-state={state}>
        <Alert
          type={state === 'noAddress' ? 'warning' : 'error'}
          showIcon={!compact}
          title={errorMessageOf(query.error, t)}
        />
        <Button
          icon={<ReloadOutlined />}
          onClick={(e) => {
            // On the wall a click on the tile opens the camera's page: retrying must not.
            e.stopPropagation();
            void query.refetch();
          }}
          loading={query.isFetching}
          data-testid="camera-retry"
        >
          {t('devicePages.retry')}
        </Button>
      </div>
    );
  if (!src)
    return (
      <div className="camera-frame camera-frame-message">
        <LoadingSpin label={t('devicePages.cameraLoading')} />
      </div>
    );
  // Seconds: the picture is fetched every few of them. Named when the reader's clock differs.
  const time = formatPlantTime(query.dataUpdatedAt, timeZone, i18n.language, 'timeSeconds');
  return (
    <figure className="camera-frame">
      {/* The picture's box keeps the frame's shape; the caption sits under it, never over the picture. */}
      <div className="camera-picture">
        <img src={src} alt={t('devicePages.cameraAlt', { name })} data-testid="camera-image" />
      </div>
      {!compact && (
        <figcaption className="camera-updated" data-testid="camera-updated">
          {t('devicePages.cameraUpdated', { time })}
        </figcaption>
      )}
    </figure>
  );
}
