/**
 * Polls every active Modbus TCP and Modbus RTU device at its poll interval, signal by signal from its register map, and
 * stores the values through the telemetry hub. Tracks each device's communication: COMM_LOSS_MISSED_POLLS
 * polls in a row without an answer make it `lost`, one answered poll makes it `online` again. The state
 * is kept in `device_status` and announced in-process with `onDeviceState` (the alarms raise
 * "communication loss" from it).
 */
import {
  COMM_LOSS_MISSED_POLLS,
  MODBUS_POLL_WINDOW,
  type CommState,
  type ModbusDevicePolling,
} from '@solar/shared';
import { checkPoint, timeWindow } from '../../telemetry-store/point-validation';
import type { PointToStore } from '../../telemetry-store/telemetry-hub';
import type { CollectorContext, CollectorLog } from '../collector-context';
import type { AppContext } from '../../context';
import {
  loadDeviceStatuses,
  loadModbusDevices,
  saveDeviceStatus,
  type DeviceStatusRow,
  type PolledDevice,
} from '../collectors.repository';
import {
  decodePoll,
  ModbusExceptionError,
  ModbusTcpClient,
  planPoll,
  RtuBus,
  SerialRtuTransport,
  TcpRtuTransport,
  type ModbusRegisterClient,
  type PollPlan,
} from '@solar/modbus';
import {
  answersOf,
  applyStatus,
  deviceFingerprint,
  firstPollDelayMs,
  initialStatus,
  judgePoll,
  nextPollDelayMs,
  NOT_POLLED,
  planReload,
  readTimeoutMs,
  statusAfterPoll,
  statusWorthWriting,
  type ReadResult,
} from './poll-state';

export interface ModbusPollerOptions {
  /** Devices fed by someone else (the in-process demo simulator writes its devices directly). */
  excludeDeviceIds?: readonly number[] | ((deviceId: number) => boolean);
  /** Re-read the device list this often, so added, edited and deactivated devices take effect. */
  reloadIntervalMs?: number;
  /** Wait this long for each answer; default the poll interval, at most 3 s. */
  timeoutMs?: number;
  /** Polls missed in a row that make a device `lost`. */
  missedPollsForLoss?: number;
  /** Modbus RTU: send a request again this many times after a timeout or a broken answer (default 1). */
  rtuRetries?: number;
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
  /** Every device polled now with its state and poll times (the admin's collection health). */
  polling(): ModbusDevicePolling[];
}

/** How long a device's recent polls took, and how many there were. */
class PollTimes {
  polls = 0;
  failed = 0;
  lastAt: number | null = null;
  private readonly recent: number[] = [];

  add(ms: number, answered: boolean, at: number): void {
    this.polls++;
    if (!answered) this.failed++;
    this.lastAt = at;
    this.recent.push(ms);
    if (this.recent.length > MODBUS_POLL_WINDOW) this.recent.shift();
  }

  /** Last, 95th percentile (nearest rank) and longest of the recent polls, in ms; null before the first. */
  figures(): { last: number | null; p95: number | null; max: number | null } {
    if (!this.recent.length) return { last: null, p95: null, max: null };
    const sorted = [...this.recent].sort((a, b) => a - b);
    const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1]!;
    return { last: this.recent[this.recent.length - 1]!, p95, max: sorted[sorted.length - 1]! };
  }
}

interface Loop {
  device: PolledDevice;
  plan: PollPlan;
  client: ModbusRegisterClient;
  connectionKey: string;
  status: DeviceStatusRow;
  /** last_ok_at as last written. */
  persistedOkAt: number | null;
  timer: NodeJS.Timeout | undefined;
  running: Promise<void> | undefined;
  stopped: boolean;
  times: PollTimes;
}

/**
 * One connection per address and timeout: gateways and multi-unit servers often take a single client.
 * Modbus RTU: one bus per serial port or gateway, whatever the devices' timeouts, so that every slave on
 * a line waits its turn on the one master (the first device to open the bus sets its timeout and speed).
 */
class SharedConnections {
  constructor(
    private readonly resolveAddress: (host: string, port: number) => Promise<string>,
    private readonly resolveSerialPort: (path: string) => Promise<string>,
    private readonly rtuRetries: number,
  ) {}

  private readonly byKey = new Map<string, { client: ModbusRegisterClient; users: number }>();

  private keyOf(device: PolledDevice, timeoutMs: number): string {
    if (!device.rtu) return `${device.ip}|${device.port}|${timeoutMs}`;
    return device.rtu.serial_path !== null
      ? `rtu|serial|${device.rtu.serial_path}`
      : `rtu|tcp|${device.ip}|${device.port}`;
  }

  private open(device: PolledDevice, timeoutMs: number): ModbusRegisterClient {
    const { resolveAddress } = this;
    const { rtu, ip, port } = device;
    if (!rtu) return new ModbusTcpClient({ host: ip!, port: port!, timeoutMs, resolveAddress });
    const line = { baudRate: rtu.baud_rate };
    return new RtuBus({
      transport:
        rtu.serial_path !== null
          ? new SerialRtuTransport({ path: rtu.serial_path, ...line, resolvePath: this.resolveSerialPort })
          : new TcpRtuTransport({ host: ip!, port: port!, connectTimeoutMs: timeoutMs, resolveAddress }),
      line,
      timeoutMs,
      retries: this.rtuRetries,
      endFramesBySilence: rtu.serial_path !== null,
    });
  }

  /** The connection to the device's address, opened on first use; counts one more user. */
  acquire(device: PolledDevice, timeoutMs: number): { key: string; client: ModbusRegisterClient } {
    const key = this.keyOf(device, timeoutMs);
    let entry = this.byKey.get(key);
    if (!entry) {
      entry = { client: this.open(device, timeoutMs), users: 0 };
      this.byKey.set(key, entry);
    }
    entry.users++;
    return { key, client: entry.client };
  }

  /** One user less; the last one closes the connection. */
  release(key: string): void {
    const entry = this.byKey.get(key);
    if (!entry) return;
    if (--entry.users <= 0) {
      entry.client.close();
      this.byKey.delete(key);
    }
  }

  closeAll(): void {
    for (const { client } of this.byKey.values()) client.close();
    this.byKey.clear();
  }
}

/** Starts polling; see the module comment. */
export function startModbusPoller(
  ctx: CollectorContext & Pick<AppContext, 'deviceNetworks'>,
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
  // Every connection goes to a checked address inside the device networks (docs/security.md).
  const connections = new SharedConnections(
    async (host, port) => (await ctx.deviceNetworks.target(host, port)).address,
    // Serial ports only where the server allows them (docs/modbus-rtu.md, "Which serial ports").
    (path) => ctx.deviceNetworks.serialPort(path),
    options.rtuRetries ?? 1,
  );
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

  const setStatus = async (loop: Loop, change: Partial<DeviceStatusRow>, at: number) => {
    const previous = loop.status;
    const { status, stateChanged: changed } = applyStatus(previous, change, at);
    loop.status = status;
    if (statusWorthWriting(previous, status, loop.persistedOkAt)) {
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
    const startedMs = performance.now();
    const results: ReadResult[] = [];
    for (const read of plan.reads) {
      if (loop.stopped || results.some((r) => r.kind === 'transport')) {
        results.push({ kind: 'skipped' });
        continue;
      }
      try {
        const registers = await client.readRegisters(
          read.register_type as 'holding' | 'input',
          device.slave_id,
          read.address,
          read.count,
        );
        results.push({ kind: 'registers', registers });
      } catch (error) {
        results.push(
          error instanceof ModbusExceptionError
            ? { kind: 'exception' }
            : { kind: 'transport', error: error instanceof Error ? error : new Error(String(error)) },
        );
      }
    }
    if (loop.stopped) return;
    const outcome = judgePoll(results);
    // The device's own time: the reads, not the storing after them.
    loop.times.add(Math.round((performance.now() - startedMs) * 10) / 10, outcome.answered, at);
    if (!outcome.answered) {
      await setStatus(loop, statusAfterPoll(loop.status, outcome, at, lossAfter), at);
      return;
    }
    if (outcome.exceptions) {
      log.debug({ deviceId: device.id, exceptions: outcome.exceptions }, 'modbus device refused some reads');
    }
    const points: PointToStore[] = [];
    // The poll's own clock stamps the values, so only their range can be wrong (a misdecoded register,
    // a wrong scale): the same check as every other way in, counted per device.
    const window = timeWindow(ctx.now(), ctx.settings.current().raw_retention_days);
    const open = { min: null, max: null };
    for (const { signal, value } of decodePoll(plan, answersOf(results))) {
      if (value === null) continue;
      const refusal = checkPoint(at, value, device.bounds[signal.id] ?? open, window);
      if (refusal) ctx.ingestCounts.add(device.id, refusal);
      else points.push({ signal_id: signal.id, ts: at, value });
    }
    if (points.length) {
      try {
        await ctx.telemetry.store(points);
      } catch (error) {
        log.error({ err: error, deviceId: device.id }, 'storing polled values failed');
      }
    }
    await setStatus(loop, statusAfterPoll(loop.status, outcome, at, lossAfter), at);
  };

  const schedule = (loop: Loop, delayMs: number) => {
    if (loop.stopped || stopped) return;
    loop.timer = setTimeout(() => {
      const started = Date.now();
      loop.running = pollOnce(loop)
        .catch((error: unknown) => log.error({ err: error, deviceId: loop.device.id }, 'modbus poll failed'))
        .finally(() => {
          loop.running = undefined;
          schedule(loop, nextPollDelayMs(loop.device.poll_interval_s, started, Date.now()));
        });
    }, delayMs);
  };

  const stopLoop = async (loop: Loop) => {
    loop.stopped = true;
    clearTimeout(loop.timer);
    await loop.running;
    connections.release(loop.connectionKey);
  };

  const doReload = async () => {
    const devices = (await loadModbusDevices(ctx.db)).filter((d) => !excluded(d.id));
    const plan = planReload(fingerprints, devices);
    // Gone, deactivated or changed: stop the old loop (a changed one starts again below).
    for (const { deviceId, gone } of plan.stop) {
      const loop = loops.get(deviceId)!;
      loops.delete(deviceId);
      fingerprints.delete(deviceId);
      await stopLoop(loop);
      // Not polled any more: its state is not known, and a communication-loss alarm should clear.
      if (gone) await setStatus(loop, NOT_POLLED, ctx.now());
    }
    const fresh = plan.start;
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
      const { key, client } = connections.acquire(
        device,
        readTimeoutMs(device.poll_interval_s, options.timeoutMs),
      );
      const now = ctx.now();
      const saved = statuses.get(device.id);
      const loop: Loop = {
        device,
        plan,
        client,
        connectionKey: key,
        persistedOkAt: saved?.last_ok_at ?? null,
        status: saved ?? initialStatus(device.id, now),
        timer: undefined,
        running: undefined,
        stopped: false,
        times: new PollTimes(),
      };
      loops.set(device.id, loop);
      fingerprints.set(device.id, deviceFingerprint(device));
      schedule(loop, firstPollDelayMs(device.poll_interval_s, Math.random()));
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
      connections.closeAll();
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
    polling() {
      return [...loops.values()].map(({ device, status, times }) => {
        const { last, p95, max } = times.figures();
        return {
          device_id: device.id,
          plant_id: device.plant_id,
          // The health route names the plant; the poller knows only its id.
          plant_name: null,
          device_name: device.name,
          state: status.comm_state,
          poll_interval_s: device.poll_interval_s,
          polls: times.polls,
          failed_polls: times.failed,
          last_poll_at: times.lastAt === null ? null : new Date(times.lastAt).toISOString(),
          last_poll_ms: last,
          p95_poll_ms: p95,
          max_poll_ms: max,
          last_error: status.last_error,
        };
      });
    },
  };
}
