import Alert from 'antd/es/alert';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { CollectionHealthItem, MqttCollectorHealth } from '@solar/shared';
import { useIsAdmin } from '../../../lib/permissions';
import { useCollectionHealth, useCollectorsHealth } from '../api/fleet';

/** A broker connection down, or messages the broker dropped: a problem of the whole collection. */
const mqttProblem = (m: MqttCollectorHealth) =>
  m.connected < m.connections || (m.brokerDroppedMessages ?? 0) > 0;

/** The MQTT collector: connections up, the broker's dropped count, and what it received. */
function MqttState({ mqtt }: { mqtt: MqttCollectorHealth | null }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language.replace('_', '-');
  const n = (value: number) => value.toLocaleString(locale);
  if (!mqtt)
    return (
      <Alert type="info" showIcon data-testid="mqtt-health" message={t('admin.health.mqtt.notConfigured')} />
    );
  return (
    <Alert
      type={mqttProblem(mqtt) ? 'error' : 'success'}
      showIcon
      data-testid="mqtt-health"
      message={t('admin.health.mqtt.connected', { connected: mqtt.connected, connections: mqtt.connections })}
      description={
        <>
          <div>
            {mqtt.brokerDroppedMessages === null
              ? t('admin.health.mqtt.droppedNone')
              : t('admin.health.mqtt.dropped', { count: n(mqtt.brokerDroppedMessages) })}
          </div>
          <div>
            {t('admin.health.mqtt.counters', {
              received: n(mqtt.received),
              stored: n(mqtt.stored),
              rejected: n(mqtt.rejected + mqtt.badMessages),
            })}
          </div>
        </>
      }
    />
  );
}

/** Data collection health per device, problems first (the server's order). */
export function CollectionHealth() {
  const { t, i18n } = useTranslation();
  const query = useCollectionHealth();
  const isAdmin = useIsAdmin();
  const collectors = useCollectorsHealth(isAdmin);
  const mqtt = collectors.data ? <MqttState mqtt={collectors.data.mqtt} /> : null;
  // Problems first: a broken broker connection above the devices, a healthy one below them.
  const mqttFirst = collectors.data?.mqtt ? mqttProblem(collectors.data.mqtt) : false;
  const locale = i18n.language.replace('_', '-');
  const items = query.data?.items ?? [];
  const problems = items.filter((i) => i.has_problem).length;

  const columns: ColumnsType<CollectionHealthItem> = [
    {
      key: 'device',
      title: t('admin.health.device'),
      render: (_, d) => (
        <>
          <div>{d.device_name}</div>
          <Typography.Text type="secondary">{d.plant_name}</Typography.Text>
        </>
      ),
    },
    {
      key: 'communication',
      title: t('admin.health.communication'),
      render: (_, d) =>
        !d.is_active ? (
          <Tag>{t('admin.health.inactive')}</Tag>
        ) : (
          <Tag color={d.communication === 'online' ? 'green' : 'red'}>
            {t(`admin.health.state.${d.communication}`)}
          </Tag>
        ),
    },
    {
      key: 'last_seen_at',
      title: t('admin.health.lastSeen'),
      render: (_, d) =>
        d.last_seen_at ? new Date(d.last_seen_at).toLocaleString(locale) : t('admin.health.never'),
    },
    {
      key: 'points_last_hour',
      dataIndex: 'points_last_hour',
      title: t('admin.health.pointsLastHour'),
      align: 'right',
      render: (n: number) => n.toLocaleString(locale),
    },
    {
      key: 'rejected',
      title: t('admin.health.rejected'),
      render: (_, d) =>
        d.rejected.length === 0
          ? '—'
          : d.rejected.map((r) => (
              <Tag key={r.reason} color={r.reason.startsWith('duplicate_') ? 'default' : 'orange'}>
                {t(`admin.health.reason.${r.reason}`)}: {r.count.toLocaleString(locale)}
              </Tag>
            )),
    },
    { key: 'protocol', dataIndex: 'protocol', title: t('admin.health.protocol'), responsive: ['md'] },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {mqttFirst && mqtt}
      {query.data && (
        <Alert
          type={problems ? 'warning' : 'success'}
          showIcon
          message={t('admin.health.summary', { problems, total: items.length })}
        />
      )}
      <Table<CollectionHealthItem>
        rowKey="device_id"
        size="small"
        data-testid="health-table"
        columns={columns}
        dataSource={items}
        loading={query.isFetching && !query.data}
        scroll={{ x: 'max-content' }}
        rowClassName={(d) => (d.has_problem ? 'admin-health-problem' : '')}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
      />
      {!mqttFirst && mqtt}
      {/* Collector states (MQTT connection, broker drops, Modbus poll timings) are listed here once the
          collectors report them (collectors in the answer). */}
      {(query.data?.collectors.length ?? 0) > 0 && (
        <Table
          rowKey="name"
          size="small"
          data-testid="collectors-table"
          dataSource={query.data?.collectors}
          columns={[
            { key: 'name', dataIndex: 'name', title: t('admin.health.collector') },
            { key: 'state', dataIndex: 'state', title: t('admin.health.communication') },
          ]}
          pagination={false}
        />
      )}
    </Space>
  );
}
