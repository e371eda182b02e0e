import Alert from 'antd/es/alert';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type {
  CollectionHealthItem,
  EdgeMqttCollectorHealth,
  ModbusCollectorHealth,
  ModbusDevicePolling,
  MqttCollectorHealth,
} from '@solar/shared';
import { useIsAdmin } from '../../../lib/permissions';
import { DataQualityProblems } from '../../data-quality';
import { useCollectionHealth, useCollectorsHealth } from '../api/fleet';
import { EdgeAgents, agentProblem } from './edge-agents';

/**
 * A broker connection down, messages the broker dropped, or agents' batches refused whole (malformed, or not
 * signed with their plant's live key: an agent left with a rotated key): a problem of the whole collection.
 */
const mqttProblem = (m: MqttCollectorHealth, edge: EdgeMqttCollectorHealth | null) =>
  m.connected < m.connections ||
  (m.brokerDroppedMessages ?? 0) > 0 ||
  (edge !== null && (!edge.connected || edge.invalid + edge.unauthorised > 0));

/**
 * The MQTT collectors: connections up, the broker's dropped count, what devices sent, and what edge agents
 * forwarded (docs/edge.md, "Forwarding over MQTT").
 */
function MqttState({
  mqtt,
  edge,
}: {
  mqtt: MqttCollectorHealth | null;
  edge: EdgeMqttCollectorHealth | null;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language.replace('_', '-');
  const n = (value: number) => value.toLocaleString(locale);
  if (!mqtt)
    return (
      <Alert type="info" showIcon data-testid="mqtt-health" message={t('admin.health.mqtt.notConfigured')} />
    );
  return (
    <Alert
      type={mqttProblem(mqtt, edge) ? 'error' : 'success'}
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
          {edge && (
            <div data-testid="edge-mqtt-health">
              {t('admin.health.mqtt.edge', {
                state: t(
                  edge.connected ? 'admin.health.mqtt.edgeConnected' : 'admin.health.mqtt.edgeDisconnected',
                ),
                batches: n(edge.stored),
                points: n(edge.points),
                rejected: n(edge.rejected),
                invalid: n(edge.invalid),
                unauthorised: n(edge.unauthorised),
              })}
            </div>
          )}
        </>
      }
    />
  );
}

/** A device's name over its plant's: device names repeat across plants (every plant has its INV-01). */
function DeviceCell({ device }: { device: { device_name: string; plant_name: string | null } }) {
  return (
    <>
      <div>{device.device_name}</div>
      <Typography.Text type="secondary">{device.plant_name}</Typography.Text>
    </>
  );
}

/** A Modbus device not answering, or whose polls take more than half its interval at p95. */
const pollingProblem = (d: ModbusDevicePolling) =>
  d.state !== 'online' || (d.p95_poll_ms ?? 0) > d.poll_interval_s * 500;

/** The Modbus poller: whether this node polls, and each device's poll times, slow and silent ones first. */
function ModbusState({ modbus }: { modbus: ModbusCollectorHealth | null }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language.replace('_', '-');
  const ms = (value: number | null) =>
    value === null ? '—' : t('admin.health.modbus.ms', { value: value.toLocaleString(locale) });
  if (!modbus)
    return (
      <Alert
        type="info"
        showIcon
        data-testid="modbus-health"
        message={t('admin.health.modbus.notConfigured')}
      />
    );
  if (!modbus.polling_here)
    return (
      <Alert type="info" showIcon data-testid="modbus-health" message={t('admin.health.modbus.elsewhere')} />
    );
  if (modbus.devices.length === 0)
    return <Alert type="info" showIcon data-testid="modbus-health" message={t('admin.health.modbus.none')} />;
  const devices = [...modbus.devices].sort(
    (a, b) =>
      Number(pollingProblem(b)) - Number(pollingProblem(a)) || (b.p95_poll_ms ?? 0) - (a.p95_poll_ms ?? 0),
  );
  const problems = devices.filter(pollingProblem).length;
  const columns: ColumnsType<ModbusDevicePolling> = [
    {
      key: 'device',
      title: t('admin.health.device'),
      render: (_, d) => <DeviceCell device={d} />,
    },
    {
      key: 'state',
      title: t('admin.health.communication'),
      render: (_, d) => (
        <Tag color={d.state === 'online' ? 'green' : d.state === 'lost' ? 'red' : 'default'}>
          {t(`admin.health.state.${d.state}`)}
        </Tag>
      ),
    },
    {
      key: 'last',
      title: t('admin.health.modbus.lastPoll'),
      align: 'right',
      render: (_, d) => ms(d.last_poll_ms),
    },
    { key: 'p95', title: t('admin.health.modbus.p95'), align: 'right', render: (_, d) => ms(d.p95_poll_ms) },
    { key: 'max', title: t('admin.health.modbus.max'), align: 'right', render: (_, d) => ms(d.max_poll_ms) },
    {
      key: 'failed',
      title: t('admin.health.modbus.failed'),
      align: 'right',
      render: (_, d) => `${d.failed_polls.toLocaleString(locale)} / ${d.polls.toLocaleString(locale)}`,
    },
    {
      key: 'interval',
      title: t('admin.health.modbus.interval'),
      align: 'right',
      responsive: ['md'],
      render: (_, d) => t('admin.health.modbus.seconds', { value: d.poll_interval_s }),
    },
  ];
  return (
    <Space direction="vertical" size="small" style={{ width: '100%' }} data-testid="modbus-health">
      <Alert
        type={problems ? 'warning' : 'success'}
        showIcon
        message={t('admin.health.modbus.summary', { devices: devices.length, problems })}
      />
      <Table<ModbusDevicePolling>
        rowKey="device_id"
        size="small"
        data-testid="modbus-table"
        columns={columns}
        dataSource={devices}
        scroll={{ x: 'max-content' }}
        rowClassName={(d) => (pollingProblem(d) ? 'admin-health-problem' : '')}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
      />
    </Space>
  );
}

/** Data collection health per device, problems first (the server's order). */
export function CollectionHealth() {
  const { t, i18n } = useTranslation();
  const query = useCollectionHealth();
  const isAdmin = useIsAdmin();
  const collectors = useCollectorsHealth(isAdmin);
  const mqtt = collectors.data ? (
    <MqttState mqtt={collectors.data.mqtt} edge={collectors.data.edgeMqtt} />
  ) : null;
  // Problems first: a broken broker connection above the devices, a healthy one below them.
  const mqttFirst = collectors.data?.mqtt
    ? mqttProblem(collectors.data.mqtt, collectors.data.edgeMqtt)
    : false;
  const modbus = collectors.data ? <ModbusState modbus={collectors.data.modbus} /> : null;
  const modbusFirst = collectors.data?.modbus?.devices.some(pollingProblem) ?? false;
  const locale = i18n.language.replace('_', '-');
  const items = query.data?.items ?? [];
  const problems = items.filter((i) => i.has_problem).length;
  const agentList = query.data?.agents ?? [];
  const agents = query.data ? <EdgeAgents agents={agentList} /> : null;
  const agentsFirst = agentList.some(agentProblem);

  const columns: ColumnsType<CollectionHealthItem> = [
    {
      key: 'device',
      title: t('admin.health.device'),
      render: (_, d) => <DeviceCell device={d} />,
    },
    {
      key: 'communication',
      title: t('admin.health.communication'),
      render: (_, d) =>
        !d.is_active ? (
          <Tag>{t('admin.health.inactive')}</Tag>
        ) : (
          <Tag
            color={d.communication === 'online' ? 'green' : d.communication === 'lost' ? 'red' : 'default'}
          >
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
      {modbusFirst && modbus}
      {agentsFirst && agents}
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
      {!modbusFirst && modbus}
      {!agentsFirst && agents}
      <DataQualityProblems />
    </Space>
  );
}
