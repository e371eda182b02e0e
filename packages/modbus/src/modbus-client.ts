/**
 * A minimal Modbus TCP client on node:net: Read Holding Registers (0x03) and Read Input Registers (0x04),
 * which is all the poller and SunSpec discovery need (Modbus Application Protocol v1.1b3 §6.3, §6.4;
 * Modbus Messaging on TCP/IP Implementation Guide v1.0b §3.1 for the MBAP header). No npm package: the
 * usual ones pull in serialport and its native build.
 *
 * One connection per client; requests go out one at a time (many devices and gateways answer only one
 * transaction at a time), each with its own transaction id so that a late answer to a request that timed
 * out is recognised and dropped. The connection opens on the first request and again after it breaks.
 */
import net from 'node:net';

/** Function codes this client speaks. */
export const MODBUS_READ_HOLDING = 0x03;
export const MODBUS_READ_INPUT = 0x04;

/** Exception codes (Modbus Application Protocol §7). */
export const MODBUS_EXCEPTIONS: Record<number, string> = {
  1: 'Illegal Function',
  2: 'Illegal Data Address',
  3: 'Illegal Data Value',
  4: 'Server Device Failure',
  5: 'Acknowledge',
  6: 'Server Device Busy',
  8: 'Memory Parity Error',
  10: 'Gateway Path Unavailable',
  11: 'Gateway Target Device Failed to Respond',
};

/** The device answered with an exception response: it is there, but refused the request. */
export class ModbusExceptionError extends Error {
  constructor(
    readonly functionCode: number,
    readonly exceptionCode: number,
  ) {
    super(`Modbus exception ${exceptionCode} (${MODBUS_EXCEPTIONS[exceptionCode] ?? 'unknown'})`);
    this.name = 'ModbusExceptionError';
  }
}

/** No answer in time, or no connection: the device did not communicate. */
export class ModbusTransportError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'connect' | 'closed' | 'protocol',
  ) {
    super(message);
    this.name = 'ModbusTransportError';
  }
}

export interface ModbusTcpClientOptions {
  host: string;
  port: number;
  /** Wait this long for each answer (and for the connection). */
  timeoutMs?: number;
  /**
   * The address to connect to for host and port, checked against the device networks before every
   * connection (lib/device-networks.ts); throws when refused. Absent: the host as it is.
   */
  resolveAddress?: (host: string, port: number) => Promise<string>;
}

interface Pending {
  transactionId: number;
  unitId: number;
  functionCode: number;
  count: number;
  resolve(registers: number[]): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

const MBAP_LENGTH = 7;
/** A transaction that timed out this many times in a row closes the connection, in case it went half-open. */
const TIMEOUTS_BEFORE_RECONNECT = 2;

/** What the poller needs of a Modbus client, over TCP or RTU (rtu/rtu-bus.ts). */
export interface ModbusRegisterClient {
  readRegisters(type: 'holding' | 'input', unitId: number, address: number, count: number): Promise<number[]>;
  close(): void;
}

/** Modbus TCP client for register reads; see the module comment. */
export class ModbusTcpClient implements ModbusRegisterClient {
  readonly host: string;
  readonly port: number;
  private readonly timeoutMs: number;
  private readonly resolveAddress: ((host: string, port: number) => Promise<string>) | undefined;
  private socket: net.Socket | undefined;
  private connecting: Promise<net.Socket> | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private nextTransactionId = 1;
  private pending: Pending | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private timeoutsInARow = 0;
  private closed = false;

  constructor(options: ModbusTcpClientOptions) {
    this.host = options.host;
    this.port = options.port;
    this.timeoutMs = options.timeoutMs ?? 3000;
    this.resolveAddress = options.resolveAddress;
  }

  /** Reads `count` (1…125) holding registers from 0-based `address` of unit `unitId`. */
  readHoldingRegisters(unitId: number, address: number, count: number): Promise<number[]> {
    return this.read(MODBUS_READ_HOLDING, unitId, address, count);
  }

  /** Reads `count` (1…125) input registers from 0-based `address` of unit `unitId`. */
  readInputRegisters(unitId: number, address: number, count: number): Promise<number[]> {
    return this.read(MODBUS_READ_INPUT, unitId, address, count);
  }

  /** Reads holding or input registers. */
  readRegisters(
    type: 'holding' | 'input',
    unitId: number,
    address: number,
    count: number,
  ): Promise<number[]> {
    return this.read(type === 'holding' ? MODBUS_READ_HOLDING : MODBUS_READ_INPUT, unitId, address, count);
  }

  /** Closes the connection; requests after this fail. */
  close(): void {
    this.closed = true;
    this.drop(new ModbusTransportError('Client closed', 'closed'));
  }

  private read(functionCode: number, unitId: number, address: number, count: number): Promise<number[]> {
    if (!Number.isInteger(unitId) || unitId < 0 || unitId > 255) {
      return Promise.reject(new RangeError(`Unit id ${unitId} is outside 0…255`));
    }
    if (!Number.isInteger(count) || count < 1 || count > 125) {
      return Promise.reject(new RangeError(`Cannot read ${count} registers in one request`));
    }
    if (!Number.isInteger(address) || address < 0 || address + count > 0x10000) {
      return Promise.reject(new RangeError(`Address ${address} (+${count}) is outside 0…65535`));
    }
    const run = () => this.transact(functionCode, unitId, address, count);
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async transact(
    functionCode: number,
    unitId: number,
    address: number,
    count: number,
  ): Promise<number[]> {
    if (this.closed) throw new ModbusTransportError('Client closed', 'closed');
    const socket = await this.connect();
    const transactionId = this.nextTransactionId;
    this.nextTransactionId = (this.nextTransactionId % 0xffff) + 1;
    const frame = Buffer.alloc(MBAP_LENGTH + 5);
    frame.writeUInt16BE(transactionId, 0);
    frame.writeUInt16BE(0, 2); // protocol id: Modbus
    frame.writeUInt16BE(6, 4); // length: unit id + PDU
    frame.writeUInt8(unitId, 6);
    frame.writeUInt8(functionCode, 7);
    frame.writeUInt16BE(address, 8);
    frame.writeUInt16BE(count, 10);
    return new Promise<number[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending?.transactionId !== transactionId) return;
        this.pending = undefined;
        this.timeoutsInARow++;
        if (this.timeoutsInARow >= TIMEOUTS_BEFORE_RECONNECT) {
          this.drop(new ModbusTransportError('Connection reset after timeouts', 'timeout'));
        }
        reject(
          new ModbusTransportError(
            `No answer from ${this.host}:${this.port} unit ${unitId} within ${this.timeoutMs} ms`,
            'timeout',
          ),
        );
      }, this.timeoutMs);
      this.pending = { transactionId, unitId, functionCode, count, resolve, reject, timer };
      socket.write(frame);
    });
  }

  private connect(): Promise<net.Socket> {
    if (this.socket) return Promise.resolve(this.socket);
    this.connecting ??= this.checkedAddress().then((address) => this.open(address));
    return this.connecting;
  }

  /** The address to connect to: checked again before every connection, so a refused one never is. */
  private async checkedAddress(): Promise<string> {
    if (!this.resolveAddress) return this.host;
    try {
      return await this.resolveAddress(this.host, this.port);
    } catch (error) {
      this.connecting = undefined;
      throw new ModbusTransportError(
        `Connect to ${this.host}:${this.port} refused: ${error instanceof Error ? error.message : String(error)}`,
        'connect',
      );
    }
  }

  private open(address: string): Promise<net.Socket> {
    return new Promise<net.Socket>((resolve, reject) => {
      // Closed while the address was being checked.
      if (this.closed) {
        this.connecting = undefined;
        reject(new ModbusTransportError('Client closed', 'closed'));
        return;
      }
      const socket = net.createConnection({ host: address, port: this.port });
      socket.setNoDelay(true);
      const timer = setTimeout(() => {
        socket.destroy();
        fail(new ModbusTransportError(`Connect to ${this.host}:${this.port} timed out`, 'timeout'));
      }, this.timeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timer);
        this.connecting = undefined;
        reject(
          error instanceof ModbusTransportError
            ? error
            : new ModbusTransportError(`Connect to ${this.host}:${this.port}: ${error.message}`, 'connect'),
        );
      };
      socket.once('error', fail);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.off('error', fail);
        this.connecting = undefined;
        this.socket = socket;
        this.buffer = Buffer.alloc(0);
        socket.on('data', (chunk: Buffer) => this.onData(chunk));
        socket.on('error', (error) =>
          this.drop(new ModbusTransportError(`Connection error: ${error.message}`, 'closed'), socket),
        );
        socket.on('close', () =>
          this.drop(new ModbusTransportError('Connection closed by the device', 'closed'), socket),
        );
        resolve(socket);
      });
    });
  }

  /** Forgets the connection (when it is `socket`, or any) and fails the transaction in flight. */
  private drop(error: ModbusTransportError, socket?: net.Socket): void {
    if (socket && socket !== this.socket) return;
    const current = this.socket;
    this.socket = undefined;
    this.buffer = Buffer.alloc(0);
    this.timeoutsInARow = 0;
    current?.destroy();
    const pending = this.pending;
    this.pending = undefined;
    if (pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    while (this.buffer.length >= MBAP_LENGTH) {
      const length = this.buffer.readUInt16BE(4);
      if (this.buffer.readUInt16BE(2) !== 0 || length < 2 || length > 254) {
        this.drop(new ModbusTransportError('Not a Modbus TCP answer', 'protocol'));
        return;
      }
      const total = 6 + length;
      if (this.buffer.length < total) return;
      const frame = this.buffer.subarray(0, total);
      this.buffer = this.buffer.subarray(total);
      this.onFrame(frame);
    }
  }

  private onFrame(frame: Buffer): void {
    const pending = this.pending;
    // A late answer to a transaction that already timed out: not ours any more.
    if (!pending || frame.readUInt16BE(0) !== pending.transactionId) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    this.timeoutsInARow = 0;
    const functionCode = frame.readUInt8(7);
    if (functionCode === (pending.functionCode | 0x80) && frame.length >= 9) {
      pending.reject(new ModbusExceptionError(pending.functionCode, frame.readUInt8(8)));
      return;
    }
    const byteCount = frame.length >= 9 ? frame.readUInt8(8) : -1;
    if (
      functionCode !== pending.functionCode ||
      byteCount !== pending.count * 2 ||
      frame.length < 9 + byteCount
    ) {
      pending.reject(new ModbusTransportError('Malformed answer', 'protocol'));
      return;
    }
    const registers: number[] = [];
    for (let i = 0; i < pending.count; i++) registers.push(frame.readUInt16BE(9 + i * 2));
    pending.resolve(registers);
  }
}
