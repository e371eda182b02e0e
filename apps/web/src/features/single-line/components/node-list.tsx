import { useTranslation } from 'react-i18next';
import type { OperatingStatus, TopologyNode } from '@solar/shared';
import { formatNumber } from '../../../lib/format';
import { prefixedKey } from '../../../lib/i18n-keys';
import { StatusTag } from '../../plants';

/**
 * The diagram's devices as a list, in the diagram's order: on a phone the fitted diagram draws its texts
 * a few pixels high, so each device is also a full-size row to read and tap (it opens as its node does).
 */
export function NodeList({
  nodes,
  statusOf,
  powerKwOf,
  onOpen,
}: {
  nodes: readonly TopologyNode[];
  statusOf: ReadonlyMap<number, OperatingStatus>;
  powerKwOf: ReadonlyMap<number, number>;
  onOpen: (node: TopologyNode) => void;
}) {
  const { t, i18n } = useTranslation();
  const devices = nodes.filter((n) => n.kind === 'device' && n.device_id !== null);
  return (
    <section className="sl-node-list" data-testid="sl-node-list" aria-labelledby="sl-node-list-title">
      <h2 id="sl-node-list-title" className="sl-node-list-title">
        {t('singleLine.deviceList')}
      </h2>
      <ul>
        {devices.map((node) => {
          const status = statusOf.get(node.device_id!);
          const power = powerKwOf.get(node.device_id!);
          return (
            <li key={node.id}>
              <button
                type="button"
                className="sl-node-row"
                data-testid="sl-node-row"
                data-device-id={node.device_id}
                onClick={() => onOpen(node)}
              >
                <span className="sl-node-row-name">{node.name}</span>
                <span className="sl-node-row-power">
                  {power === undefined ? '–' : `${formatNumber(power, i18n.language, 1)} kW`}
                </span>
                <span className="sl-node-row-type">
                  {node.device_type ? t(prefixedKey('devices.types', node.device_type)) : ''}
                </span>
                {status ? (
                  <StatusTag status={status} />
                ) : (
                  <span className="sl-node-row-type">{t('singleLine.statusUnknown')}</span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
