import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Divider from 'antd/es/divider';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import KeyOutlined from '@ant-design/icons/KeyOutlined';
import { useTranslation } from 'react-i18next';
import { errorMessageOf } from '../../../lib/api-errors';
import { notify } from '../../../lib/notify';
import { useCreateIngestKey, useIngestKey, useRevokeIngestKey } from '../api/ingest-key';
import { PlantTime } from '../../../lib/plant-time-view';

/**
 * The device's ingest key (for POST /api/telemetry with X-Api-Key): its prefix and creation time;
 * create or rotate shows the full key once; revoke after a confirmation. Shown to device_management
 * update only. `timeZone` is the device's plant's: the creation time is on its clock.
 */
export function IngestKeySection({ deviceId, timeZone }: { deviceId: number; timeZone: string }) {
  const { t } = useTranslation();
  const info = useIngestKey(deviceId, true);
  const create = useCreateIngestKey(deviceId);
  const revoke = useRevokeIngestKey(deviceId);
  const [shown, setShown] = useState<string | null>(null);
  const hasKey = !!info.data?.prefix;

  const onCreate = () =>
    create.mutate(undefined, {
      onSuccess: (answer) => setShown(answer.key),
    });
  const onRevoke = () =>
    revoke.mutate(undefined, {
      onSuccess: () => notify.success(t('devices.ingestKey.revoked')),
      onError: (e) => notify.error(errorMessageOf(e, t)),
    });

  return (
    <div data-testid="ingest-key-section">
      <Divider titlePlacement="start" plain>
        {t('devices.ingestKey.title')}
      </Divider>
      <Typography.Paragraph type="secondary">{t('devices.ingestKey.hint')}</Typography.Paragraph>
      {hasKey ? (
        <Descriptions size="small" column={2}>
          <Descriptions.Item label={t('devices.ingestKey.prefix')}>
            <Typography.Text code data-testid="ingest-key-prefix">
              {info.data?.prefix}…
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('devices.ingestKey.createdAt')}>
            <PlantTime at={info.data?.created_at} zone={timeZone} testId="ingest-key-created" />
          </Descriptions.Item>
        </Descriptions>
      ) : (
        <Typography.Paragraph data-testid="ingest-key-none">
          {info.isLoading ? '' : t('devices.ingestKey.none')}
        </Typography.Paragraph>
      )}
      <Space>
        {hasKey ? (
          <Popconfirm title={t('devices.ingestKey.rotateConfirm')} onConfirm={onCreate}>
            <Button icon={<KeyOutlined />} loading={create.isPending} data-testid="ingest-key-rotate">
              {t('devices.ingestKey.rotate')}
            </Button>
          </Popconfirm>
        ) : (
          <Button
            icon={<KeyOutlined />}
            loading={create.isPending}
            onClick={onCreate}
            data-testid="ingest-key-create"
          >
            {t('devices.ingestKey.create')}
          </Button>
        )}
        {hasKey && (
          <Popconfirm title={t('devices.ingestKey.revokeConfirm')} onConfirm={onRevoke}>
            <Button danger loading={revoke.isPending} data-testid="ingest-key-revoke">
              {t('devices.ingestKey.revoke')}
            </Button>
          </Popconfirm>
        )}
      </Space>
      <Modal
        open={shown !== null}
        title={t('devices.ingestKey.newKey')}
        closable={false}
        maskClosable={false}
        destroyOnHidden
        onCancel={() => setShown(null)}
        footer={
          <Button type="primary" onClick={() => setShown(null)} data-testid="ingest-key-done">
            {t('devices.ingestKey.done')}
          </Button>
        }
      >
        <Alert type="warning" showIcon title={t('devices.ingestKey.shownOnce')} />
        <Typography.Paragraph
          code
          copyable={{
            text: shown ?? '',
            tooltips: [t('devices.ingestKey.copy'), t('devices.ingestKey.copied')],
          }}
          style={{ wordBreak: 'break-all' }}
          data-testid="ingest-key-value"
        >
          {shown}
        </Typography.Paragraph>
      </Modal>
    </div>
  );
}
