/**
 * Polls the configured devices with @solar/modbus, the same register planning and decoding the console's
 * own poller uses, and pushes each poll's readings into the queue in one transaction.
 *
 * Devices that share a link share one client: the Modbus TCP devices behind one address and port (a
 * gateway with several unit ids), the RTU slaves of one bus (a serial port, or an RTU-over-TCP gateway).
 * Both clients send one request at a time, in the order asked, so the slaves of a bus are polled in turn.
 */
import {
  decodePoll,
  ModbusTcpClient,
  planPoll,
  RtuBus,
  SerialRtuTransport,
  TcpRtuTransport,
  type ModbusRegisterClient,
  type PolledSignal,
  type PollPlan,
} from '@solar/modbus';
import type { EdgeDevice, EdgeSignal } from '@solar/shared';
import type { Log } from './log';
import type { NewReading } from './queue';

export interface PollerOptions {
  devices: readonly EdgeDevice[];
  push(readings: NewReading[]): void;
  log: Log;
  /** Wait this long for each answer. */
  timeoutMs?: number;
  now?: () => number;
  /** Called after each poll that got no answer at all. */
  onFailure?: () => void;
}

/** The console's edge signal as the register map reads it: the same fields the console's poller reads. */
export const polledSignal = (s: EdgeSignal): PolledSignal => ({
  id: s.id,
  key: s.key,
  data_type: s.data_type,
  register_type: s.register_type,
  address: s.address,
  word_order: s.word_order,
  scale: s.scale,
  scale_factor_address: s.scale_factor_address,
  sunspec_type: s.sunspec_type,
  value_map: s.value_map,
});

/** The one client per link; undefined for a device that names no link it can use. */
function linkOf(device: EdgeDevice): string | undefined {
  if (device.protocol === 'modbus_rtu' && device.serial_path) return `serial|${device.serial_path}`;
  if (!device.ip || !device.port) return undefined;
  return `${device.protocol === 'modbus_rtu' ? 'rtu-tcp' : 'tcp'}|${device.ip}|${device.port}`;
}

function clientFor(device: EdgeDevice, timeoutMs: number): ModbusRegisterClient {
  if (device.protocol === 'modbus_tcp') {
    return new ModbusTcpClient({ host: device.ip!, port: device.port!, timeoutMs });
  }
  const line = { baudRate: device.baud_rate ?? 9600 };
  return new RtuBus({
    transport: device.serial_path
      ? new SerialRtuTransport({ path: device.serial_path, ...line })
      : new TcpRtuTransport({ host: device.ip!, port: device.port!, connectTimeoutMs: timeoutMs }),
    line,
    timeoutMs,
    endFramesBySilence: device.serial_path !== null,
  });
}

export class Poller {
  private readonly clients = new Map<string, ModbusRegisterClient>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;
  failures = 0;
  polls = 0;

  constructor(private readonly options: PollerOptions) {}

  start(): void {
    const timeoutMs = this.options.timeoutMs ?? 3_000;
    for (const device of this.options.devices) {
      const link = linkOf(device);
      if (!link) {
        this.options.log('warn', 'device has no usable link: not polled', { deviceId: device.id });
        continue;
      }
      if (device.protocol === 'modbus_rtu' && device.slave_id === null) continue;
      let plan: PollPlan;
      try {
        plan = planPoll(device.signals.map(polledSignal), device.slave_id ?? 1);
      } catch (error) {
        this.options.log('warn', 'register map cannot be read', { deviceId: device.id, err: String(error) });
        continue;
      }
      if (!plan.reads.length) continue;
      if (!this.clients.has(link)) this.clients.set(link, clientFor(device, timeoutMs));
      const client = this.clients.get(link)!;
      const intervalMs = Math.max(1, device.poll_interval_s) * 1000;
      // Devices start spread over their interval, not all at once.
      this.schedule(() => this.loop(device, plan, client, intervalMs), Math.random() * intervalMs);
    }
  }

  private schedule(run: () => void, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, delayMs);
    this.timers.add(timer);
  }

  private loop(device: EdgeDevice, plan: PollPlan, client: ModbusRegisterClient, intervalMs: number): void {
    const startedAt = Date.now();
    const poll = this.pollOnce(device, plan, client).finally(() => this.running.delete(poll));
    this.running.add(poll);
    void poll.then(() => {
      // Keep the device's rhythm: the next poll an interval after this one started.
      const next = intervalMs - ((Date.now() - startedAt) % intervalMs);
      this.schedule(() => this.loop(device, plan, client, intervalMs), next);
    });
  }

  async pollOnce(device: EdgeDevice, plan: PollPlan, client: ModbusRegisterClient): Promise<void> {
    const at = (this.options.now ?? Date.now)();
    const answers: (number[] | undefined)[] = [];
    for (const read of plan.reads) {
      if (this.stopped) return;
      try {
        answers.push(
          await client.readRegisters(
            read.register_type as 'holding' | 'input',
            device.slave_id ?? 1,
            read.address,
            read.count,
          ),
        );
      } catch {
        answers.push(undefined);
      }
    }
    this.polls++;
    if (answers.every((a) => a === undefined)) {
      this.failures++;
      this.options.onFailure?.();
      this.options.log('debug', 'device did not answer', { deviceId: device.id });
      return;
    }
    const readings: NewReading[] = [];
    for (const { signal, value } of decodePoll(plan, answers)) {
      if (value !== null) readings.push({ signal_id: signal.id, ts: at, value });
    }
    this.options.push(readings);
  }

  /** Stops polling; a poll under way ends (its readings are queued if it got them). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }
}
