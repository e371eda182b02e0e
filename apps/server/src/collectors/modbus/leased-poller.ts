import { runWhileLeader, type Lease } from '../../cluster/lease';
import type { ModbusCollectorHealth } from '@solar/shared';
import type { CollectorLog } from '../collector-context';
import type { DeviceStateEvent, ModbusPoller } from './modbus-poller';

/**
 * The Modbus poller of a cluster (docs/operations.md, "Several nodes"): it polls only on the node that holds
 * the jobs lease, so two nodes never poll one device twice (a second master on a device's single TCP slot,
 * doubled reads, two writers of `device_status`). The node that takes the lease over starts a poller of its
 * own, which reads each device's communication state from `device_status`, so a device lost before the
 * takeover stays lost and is not announced again.
 *
 * Why the jobs lease and not one of its own or a share of the devices per node: the alarm engine, which
 * turns the poller's state changes into communication-loss alarms, runs under that lease and hears them
 * in process; one holder keeps them on one node and needs no further protocol. Polling is I/O-bound and
 * light (a few reads per device per interval), so one node carries it for fleets far beyond the benchmarks.
 *
 * Answers a poller that stays the same object for the node's life: its listeners survive takeovers and
 * losses of the lease; `states()` is empty while another node polls.
 */
export async function startLeasedModbusPoller(
  lease: Pick<Lease, 'isHeld' | 'onChange'>,
  log: CollectorLog,
  start: () => ModbusPoller,
): Promise<ModbusPoller> {
  const listeners = new Set<(event: DeviceStateEvent) => void>();
  let current: ModbusPoller | undefined;
  const leader = await runWhileLeader(lease, log, 'modbus poller', {
    start() {
      const poller = start();
      poller.onDeviceState((event) => {
        for (const listener of listeners) {
          try {
            listener(event);
          } catch (error) {
            log.error({ err: error, deviceId: event.deviceId }, 'device state listener failed');
          }
        }
      });
      current = poller;
      log.info({}, 'modbus poller: polling on this node (it holds the lease)');
      return Promise.resolve();
    },
    async stop() {
      const poller = current;
      current = undefined;
      await poller?.stop();
      log.info({}, 'modbus poller: stopped on this node (lease lost or released)');
    },
  });
  return {
    async stop() {
      await leader.stop();
    },
    states: () => current?.states() ?? new Map(),
    polling: () => current?.polling() ?? [],
    reload: () => current?.reload() ?? Promise.resolve(),
    onDeviceState(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The poller's part of GET health/collectors: whether this node polls, and its devices' poll times. */
export const modbusCollectorStatus = (
  lease: Pick<Lease, 'isHeld'>,
  poller: Pick<ModbusPoller, 'polling'>,
): { health(): ModbusCollectorHealth } => ({
  health: () => ({ polling_here: lease.isHeld(), devices: poller.polling() }),
});
