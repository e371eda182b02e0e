import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Grid from 'antd/es/grid';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import EditOutlined from '@ant-design/icons/EditOutlined';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { OperatingStatus, TopologyNode } from '@solar/shared';
import { useLiveValues } from '../../../lib/live-stream';
import { notify } from '../../../lib/notify';
import { useCan } from '../../../lib/permissions';
import { usePlantDeviceStatus } from '../../plants';
import { usePlantLatest } from '../../telemetry';
import { useAutoLayout, useTopology } from '../api/get-topology';
import { useSavePositions } from '../api/save-positions';
import { DeviceDrawer } from './device-drawer';
import { useHoldLoading } from './hold-loading';
import { Diagram } from './diagram';
import { NodeList } from './node-list';
import { draftsToBody, type Point } from '../layout/positions';
import { deviceTarget } from '../layout/symbol-of';

/** Fewest milliseconds between two status refetches caused by live values. */
const STATUS_RECHECK_MS = 5_000;

/**
 * One plant's diagram with its state: live power, device statuses, the layout being edited and the device
 * drawer. Keyed by plant in the page, so another plant starts with nothing pending. `timeZone` is the
 * plant's: the drawer shows its times on the plant's clock.
 */
export function PlantDiagram({ plantId, timeZone }: { plantId: number; timeZone: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const topology = useTopology(plantId);
  const layout = useAutoLayout(topology.data);
  const status = usePlantDeviceStatus(plantId);
  const latest = usePlantLatest(plantId);
  const canEdit = useCan('single_line').update;
  const [editing, setEditing] = useState(false);
  const [drafts, setDrafts] = useState<ReadonlyMap<string, Point | null>>(new Map());
  const [drawerNode, setDrawerNode] = useState<TopologyNode | null>(null);
  const save = useSavePositions(plantId);
  // Below the md breakpoint (a phone) the fitted diagram is too small to read: its devices are listed too.
  const phone = Grid.useBreakpoint().md === false;
  useHoldLoading(topology.isPending);

  const nodes = useMemo(() => topology.data?.nodes ?? [], [topology.data]);
  const powerSignals = useMemo(
    () => nodes.flatMap((n) => (n.power_signal_id === null ? [] : [n.power_signal_id])),
    [nodes],
  );
  const live = useLiveValues(powerSignals);
  const powerKwOf = useMemo(() => {
    const stored = new Map((latest.data ?? []).map((v) => [v.signal_id, v.value]));
    const out = new Map<number, number>();
    for (const n of nodes) {
      if (n.device_id === null || n.power_signal_id === null) continue;
      const value = live.get(n.power_signal_id)?.value ?? stored.get(n.power_signal_id);
      if (value !== undefined) out.set(n.device_id, value);
    }
    return out;
  }, [nodes, live, latest.data]);
  // A live value from a device the status calls silent: it is back, so ask the server again (at most every
  // few seconds) instead of waiting for the minute's refresh.
  const lastAsked = useRef(0);
  const { data: statusData, dataUpdatedAt: statusAt, refetch: refetchStatus } = status;
  useEffect(() => {
    if (!statusData) return;
    const silent = new Set(
      statusData.items.filter((i) => i.communication === 'lost').map((i) => i.device_id),
    );
    const back = nodes.some(
      (n) =>
        n.device_id !== null &&
        n.power_signal_id !== null &&
        silent.has(n.device_id) &&
        (live.get(n.power_signal_id)?.ts ?? 0) > statusAt,
    );
    if (back && Date.now() - lastAsked.current > STATUS_RECHECK_MS) {
      lastAsked.current = Date.now();
      void refetchStatus();
    }
  }, [live, nodes, statusData, statusAt, refetchStatus]);
  const statusItems = useMemo(
    () => new Map((status.data?.items ?? []).map((i) => [i.device_id, i])),
    [status.data],
  );
  const statusOf = useMemo(
    () =>
      new Map<number, OperatingStatus>(
        [...statusItems].flatMap(([id, i]) => (i.status === null ? [] : [[id, i.status] as const])),
      ),
    [statusItems],
  );

  const open = (node: TopologyNode) => {
    const target = deviceTarget(node);
    if (!target) return;
    if ('page' in target) void navigate(target.page);
    else setDrawerNode(node);
  };
  const move = (nodeId: string, position: Point) => setDrafts((d) => new Map(d).set(nodeId, position));
  const reset = () => setDrafts(new Map(nodes.filter((n) => n.position !== null).map((n) => [n.id, null])));
  const cancel = () => {
    setDrafts(new Map());
    setEditing(false);
  };
  const persist = () => {
    if (drafts.size === 0) {
      setEditing(false);
      return;
    }
    save.mutate(draftsToBody(drafts), {
      onSuccess: () => {
        setDrafts(new Map());
        setEditing(false);
        notify.success(t('singleLine.saved'));
      },
      onError: () => notify.error(t('singleLine.saveError')),
    });
  };

  const deviceCount = nodes.filter((n) => n.kind === 'device').length;
  let body: ReactNode;
  if (topology.isLoading || layout.isLoading)
    body = (
      <div className="sl-state" data-testid="sl-loading" role="status" aria-label={t('singleLine.loading')}>
        <Spin />
      </div>
    );
  else if (topology.isError || layout.isError)
    body = (
      <Alert
        type="error"
        showIcon
        data-testid="sl-error"
        title={t('singleLine.error')}
        action={
          <Button onClick={() => void (topology.isError ? topology.refetch() : layout.refetch())}>
            {t('singleLine.retry')}
          </Button>
        }
      />
    );
  else if (topology.data && deviceCount === 0)
    body = <Empty description={t('singleLine.empty')} data-testid="sl-empty" />;
  else if (topology.data && layout.data)
    body = (
      <>
        <Diagram
          topology={topology.data}
          auto={layout.data}
          drafts={drafts}
          editing={editing}
          statusOf={statusOf}
          powerKwOf={powerKwOf}
          onMove={move}
          onOpen={open}
        />
        {phone && !editing && (
          <NodeList nodes={nodes} statusOf={statusOf} powerKwOf={powerKwOf} onOpen={open} />
        )}
      </>
    );

  return (
    <>
      {canEdit && deviceCount > 0 && (
        <Space wrap className="sl-edit-bar">
          {editing ? (
            <>
              <Button type="primary" loading={save.isPending} onClick={persist} data-testid="sl-save">
                {t('singleLine.save')}
              </Button>
              <Button onClick={reset} data-testid="sl-reset">
                {t('singleLine.reset')}
              </Button>
              <Button onClick={cancel} data-testid="sl-cancel">
                {t('singleLine.cancel')}
              </Button>
            </>
          ) : (
            <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="sl-edit">
              {t('singleLine.edit')}
            </Button>
          )}
        </Space>
      )}
      {editing && (
        <p id="sl-edit-hint" className="sl-hint" data-testid="sl-edit-hint">
          {t('singleLine.editHint')}
        </p>
      )}
      {body}
      <DeviceDrawer
        plantId={plantId}
        timeZone={timeZone}
        node={drawerNode}
        status={drawerNode?.device_id ? statusItems.get(drawerNode.device_id) : undefined}
        onClose={() => setDrawerNode(null)}
      />
    </>
  );
}
