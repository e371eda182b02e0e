/**
 * Polls every active Modbus TCP device at its poll interval, signal by signal from its register map, and
 * stores the values through the telemetry hub. Tracks each device's communication: COMM_LOSS_MISSED_POLLS
 * polls in a row without an answer make it `lost`, one answered poll makes it `online` again. The state
 * is kept in `device_status` and announced in-process with `onDeviceState` (the alarms raise
 * "communication loss" from it).
 */
import { COMM_LOSS_MISSED_POLLS, type CommState } from '@solar/shared';
import type { PointToStore } from '../../telemetry-store/telemetry-hub';
import type { CollectorContext, CollectorLog } from '../collector-context';
import {
  loadDeviceStatuses,
  loadModbusDevices,
  saveDeviceStatus,
  type DeviceStatusRow,
  type PolledDevice,
} from '../collectors.repository';
import { ModbusExceptionError, ModbusTcpClient } from './modbus-client';
import { decodePoll, planPoll, type PollPlan } from './register-map';

export interface ModbusPollerOptions {
  /** Devices fed by someone else (the in-process demo simulator writes its devices directly). */
  excludeDeviceIds?: readonly number[] | ((deviceId: number) => boolean);
  /** Re-read the device list this often, so added, edited and deactivated devices take effect. */
  reloadIntervalMs?: number;
  /** Wait this long for each answer; default the poll interval, at most 3 s. */
  timeoutMs?: number;
  /** Polls missed in a row that make a device `lost`. */
  missedPollsForLoss?: number;
}

/** A device's communication as the poller sees it. */
export interface DeviceCommState {
  deviceId: number;
  plantId: number;
  state: CommState;
  missedPolls: number;
  /** Epoch ms of the last answered poll. */
  lastOkAt: number | null;
  lastError: string | null;
  /** Epoch ms of the last state change. */
  changedAt: number;
}

/** Announced when a device's state changes (unknown → online, online → lost, lost → online…). */
export interface DeviceStateEvent {
  deviceId: number;
  plantId: number;
  previous: CommState;
  state: CommState;
  at: number;
  lastError: string | null;
}

export interface ModbusPoller {
  /** Stops every loop and closes the connections; a poll in flight finishes first. */
  stop(): Promise<void>;
  /** The state of every device polled now. */
  states(): Map<number, DeviceCommState>;
  /** Re-reads the device list and their signals now (after a change that should not wait for the next reload). */
  reload(): Promise<void>;
  /** Calls `listener` on every state change; returns the unsubscribe function. Listener errors are logged. */
  onDeviceState(listener: (event: DeviceStateEvent) => void): () => void;
}

interface Loop {
  device: PolledDevice;
  plan: PollPlan;
  client: ModbusTcpClient;
  connectionKey: string;
  status: DeviceStatusRow;
  /** last_ok_at as last written. */
  persistedOkAt: number | null;
  timer: NodeJS.Timeout | undefined;
  running: Promise<void> | undefined;
  stopped: boolean;
}

const fingerprint = (d: PolledDevice) => JSON.stringify(d);

/** Starts polling; see the module comment. */
export function startModbusPoller(
  ctx: CollectorContext,
  log: CollectorLog,
  options: ModbusPollerOptions = {},
): ModbusPoller {
  const reloadIntervalMs = options.reloadIntervalMs ?? 30_000;
  const lossAfter = options.missedPollsForLoss ?? COMM_LOSS_MISSED_POLLS;
  const excluded = (id: number) =>
    typeof options.excludeDeviceIds === 'function'
      ? options.excludeDeviceIds(id)
      : (options.excludeDeviceIds?.includes(id) ?? false);
  const loops = new Map<number, Loop>();
  const fingerprints = new Map<number, string>();
  // One connection per address: gateways and multi-unit servers often take a single client.
  const connections = new Map<string, { client: ModbusTcpClient; users: number }>();
  const listeners = new Set<(event: DeviceStateEvent) => void>();
  let stopped = false;
  let reloading: Promise<void> | undefined;

  const emit = (event: DeviceStateEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        log.error({ err: error, deviceId: event.deviceId }, 'device state listener failed');
      }
    }
  };

  const acquire = (device: PolledDevice, timeoutMs: number) => {
    const key = `${device.ip}|${device.port}|${timeoutMs}`;
    let entry = connections.get(key);
    if (!entry) {
      entry = { client: new ModbusTcpClient({ host: device.ip, port: device.port, timeoutMs }), users: 0 };
      connections.set(key, entry);
    }
    entry.users++;
    return { key, client: entry.client };
  };
  const release = (key: string) => {
    const entry = connections.get(key);
    if (!entry) return;
    if (--entry.users <= 0) {
      entry.client.close();
      connections.delete(key);
    }
  };

  const setStatus = async (loop: Loop, next: Partial<DeviceStatusRow>, at: number) => {
    const previous = loop.status;
    const status: DeviceStatusRow = { ...previous, ...next };
    const changed = status.comm_state !== previous.comm_state;
    if (changed) status.changed_at = at;
    loop.status = status;
    // Written when something an alarm or an operator reads changes; last_ok_at alone at most once a minute.
    const worthWriting =
      changed ||
      status.missed_polls !== previous.missed_polls ||
      status.last_error !== previous.last_error ||
      (status.last_ok_at !== null &&
        (loop.persistedOkAt === null || status.last_ok_at - loop.persistedOkAt >= 60_000));
    if (worthWriting) {
      try {
        await saveDeviceStatus(ctx.db, status, at);
        loop.persistedOkAt = status.last_ok_at;
      } catch (error) {
        log.error({ err: error, deviceId: loop.device.id }, 'saving the device status failed');
      }
    }
    if (changed) {
      if (status.comm_state === 'lost') {
        log.warn({ deviceId: loop.device.id, error: status.last_error }, 'modbus device: communication lost');
      } else {
        log.info(
          { deviceId: loop.device.id, state: status.comm_state },
          'modbus device: communication state',
        );
      }
      emit({
        deviceId: loop.device.id,
        plantId: loop.device.plant_id,
        previous: previous.comm_state,
        state: status.comm_state,
        at,
        lastError: status.last_error,
      });
    }
  };

  const pollOnce = async (loop: Loop) => {
    const { device, plan, client } = loop;
    const at = ctx.now();
    const answers: (number[] | undefined)[] = [];
    let transportError: Error | undefined;
    let exceptions = 0;
    for (const read of plan.reads) {
      if (transportError || loop.stopped) {
        answers.push(undefined);
        continue;
      }
      try {
        answers.push(
          await client.readRegisters(
            read.register_type as 'holding' | 'input',
            device.slave_id,
            read.address,
            read.count,
          ),
        );
      } catch (error) {
        answers.push(undefined);
        // An exception answer means the device is there and refused one range: the others still count.
        if (error instanceof ModbusExceptionError) exceptions++;
        else transportError = error instanceof Error ? error : new Error(String(error));
      }
    }
    if (loop.stopped) return;
    if (
      transportError ||
      (plan.reads.length > 0 && exceptions === plan.reads.length && !answers.some(Boolean))
    ) {
      const missed = loop.status.missed_polls + 1;
      const message = transportError?.message ?? 'every read answered an exception';
      await setStatus(
        loop,
        {
          missed_polls: missed,
          last_error: message,
          comm_state: missed >= lossAfter ? 'lost' : loop.status.comm_state,
        },
        at,
      );
      return;
    }
    if (exceptions) log.debug({ deviceId: device.id, exceptions }, 'modbus device refused some reads');
    const points: PointToStore[] = [];
    for (const { signal, value } of decodePoll(plan, answers)) {
      if (value !== null) points.push({ signal_id: signal.id, ts: at, value });
    }
    if (points.length) {
      try {
        await ctx.telemetry.store(points);
      } catch (error) {
        log.error({ err: error, deviceId: device.id }, 'storing polled values failed');
      }
    }
    await setStatus(loop, { missed_polls: 0, last_ok_at: at, last_error: null, comm_state: 'online' }, at);
  };

  const schedule = (loop: Loop, delayMs: number) => {
    if (loop.stopped || stopped) return;
    loop.timer = setTimeout(() => {
      const started = Date.now();
      loop.running = pollOnce(loop)
        .catch((error: unknown) => log.error({ err: error, deviceId: loop.device.id }, 'modbus poll failed'))
        .finally(() => {
          loop.running = undefined;
          const interval = loop.device.poll_interval_s * 1000;
          schedule(loop, Math.max(0, interval - (Date.now() - started)));
        });
    }, delayMs);
  };

  const stopLoop = async (loop: Loop) => {
    loop.stopped = true;
    clearTimeout(loop.timer);
    await loop.running;
    release(loop.connectionKey);
  };

  const doReload = async () => {
    const devices = (await loadModbusDevices(ctx.db)).filter((d) => !excluded(d.id));
    const wanted = new Map(devices.map((d) => [d.id, d]));
    // Gone, deactivated or changed: stop the old loop (a changed one starts again below).
    for (const [id, loop] of loops) {
      const next = wanted.get(id);
      if (next && fingerprints.get(id) === fingerprint(next)) continue;
      loops.delete(id);
      fingerprints.delete(id);
      await stopLoop(loop);
      if (!next) {
        // Not polled any more: its state is not known, and a communication-loss alarm should clear.
        await setStatus(loop, { comm_state: 'unknown', missed_polls: 0 }, ctx.now());
      }
    }
    const fresh = devices.filter((d) => !loops.has(d.id));
    const statuses = await loadDeviceStatuses(
      ctx.db,
      fresh.map((d) => d.id),
    );
    for (const device of fresh) {
      if (stopped) return;
      let plan: PollPlan;
      try {
        plan = planPoll(device.signals, device.slave_id);
      } catch (error) {
        log.warn({ err: error, deviceId: device.id }, 'modbus device has a register map that cannot be read');
        continue;
      }
      if (plan.skipped.length)
        log.debug({ deviceId: device.id, skipped: plan.skipped }, 'signals not polled');
      const timeoutMs = options.timeoutMs ?? Math.min(3000, device.poll_interval_s * 1000);
      const { key, client } = acquire(device, timeoutMs);
      const now = ctx.now();
      const saved = statuses.get(device.id);
      const loop: Loop = {
        device,
        plan,
        client,
        connectionKey: key,
        persistedOkAt: saved?.last_ok_at ?? null,
        status: saved ?? {
          device_id: device.id,
          comm_state: 'unknown',
          missed_polls: 0,
          last_ok_at: null,
          last_error: null,
          changed_at: now,
        },
        timer: undefined,
        running: undefined,
        stopped: false,
      };
      loops.set(device.id, loop);
      fingerprints.set(device.id, fingerprint(device));
      // Spread the first polls over the interval so that many devices do not all poll at once.
      schedule(loop, Math.floor(Math.random() * Math.min(device.poll_interval_s * 1000, 1000)));
    }
  };

  const reload = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    // Reloads run one after the other; a reload asked for during one runs again after it.
    const run = (reloading ?? Promise.resolve()).then(doReload, doReload);
    const tracked = run.catch((error: unknown) => log.error({ err: error }, 'modbus device reload failed'));
    reloading = tracked;
    return tracked;
  };

  const reloadTimer = setInterval(() => void reload(), reloadIntervalMs);
  reloadTimer.unref();
  void reload();

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(reloadTimer);
      await reloading;
      await Promise.all([...loops.values()].map(stopLoop));
      loops.clear();
      for (const { client } of connections.values()) client.close();
      connections.clear();
    },
    states() {
      return new Map(
        [...loops.values()].map(({ device, status }) => [
          device.id,
          {
            deviceId: device.id,
            plantId: device.plant_id,
            state: status.comm_state,
            missedPolls: status.missed_polls,
            lastOkAt: status.last_ok_at,
            lastError: status.last_error,
            changedAt: status.changed_at,
          },
        ]),
      );
    },
    reload,
    onDeviceState(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
