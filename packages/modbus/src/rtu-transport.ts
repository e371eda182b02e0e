/**
 * The byte pipes an RTU bus talks through: a serial port (the `serialport` package) or a TCP connection to
 * a gateway that passes RTU frames through unchanged ("RTU over TCP": no MBAP header, the CRC kept). Both
 * only move bytes; the framing, the silences and the retries are the bus's (rtu-bus.ts).
 *
 * No server imports: the edge agent reuses this file as it is.
 */
import net from 'node:net';
import type { SerialPort } from 'serialport';
import { ModbusTransportError } from './modbus-client';
import type { SerialLine } from './rtu-frame';

export interface RtuTransport {
  /** For messages: the port's path or the gateway's host:port. */
  readonly name: string;
  /** Opens the port or connection unless it is open; rejects with ModbusTransportError. */
  open(): Promise<void>;
  /** Writes a frame; resolves once the bytes have left for the line (serial: drained). */
  write(frame: Buffer): Promise<void>;
  /** Bytes received; one listener, set by the bus. */
  onData(listener: (chunk: Buffer) => void): void;
  /** The port or connection went away (the next open() tries again). */
  onClose(listener: (error: ModbusTransportError) => void): void;
  close(): Promise<void>;
}

export interface SerialTransportOptions extends SerialLine {
  path: string;
  /**
   * The port to open for `path`, checked before every open (the server's allowed serial ports); refused
   * with an error, which fails the open as a missing port does. Without it `path` is opened as it is.
   */
  resolvePath?: (path: string) => Promise<string>;
}

/** A serial port: 8 data bits by default, the parity and stop bits of the line. */
export class SerialRtuTransport implements RtuTransport {
  readonly name: string;
  private port: SerialPort | undefined;
  private opening: Promise<void> | undefined;
  private dataListener: (chunk: Buffer) => void = () => {};
  private closeListener: (error: ModbusTransportError) => void = () => {};

  constructor(private readonly options: SerialTransportOptions) {
    this.name = options.path;
  }

  open(): Promise<void> {
    if (this.port?.isOpen) return Promise.resolve();
    this.opening ??= this.openPort().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private async openPort(): Promise<void> {
    // Loaded on first use: a server without serial devices never loads the native binding.
    const { SerialPort } = await import('serialport');
    const { resolvePath } = this.options;
    const path = resolvePath
      ? await resolvePath(this.options.path).catch((error: unknown) => {
          throw new ModbusTransportError(
            `Open ${this.name}: ${error instanceof Error ? error.message : String(error)}`,
            'connect',
          );
        })
      : this.options.path;
    return new Promise<void>((resolve, reject) => {
      const port = new SerialPort({
        path,
        baudRate: this.options.baudRate,
        dataBits: this.options.dataBits ?? 8,
        parity: this.options.parity ?? 'none',
        stopBits: this.options.stopBits ?? 1,
        autoOpen: false,
      });
      port.open((error) => {
        if (error) {
          reject(new ModbusTransportError(`Open ${this.name}: ${error.message}`, 'connect'));
          return;
        }
        this.port = port;
        port.on('data', (chunk: Buffer) => this.dataListener(chunk));
        port.on('error', () => undefined);
        port.on('close', () => {
          if (this.port !== port) return;
          this.port = undefined;
          this.closeListener(new ModbusTransportError(`${this.name} closed`, 'closed'));
        });
        resolve();
      });
    });
  }

  write(frame: Buffer): Promise<void> {
    const port = this.port;
    if (!port) return Promise.reject(new ModbusTransportError(`${this.name} is not open`, 'closed'));
    return new Promise<void>((resolve, reject) => {
      port.write(frame, (error) => {
        if (error) reject(new ModbusTransportError(`Write to ${this.name}: ${error.message}`, 'closed'));
      });
      port.drain((error) => {
        if (error) reject(new ModbusTransportError(`Write to ${this.name}: ${error.message}`, 'closed'));
        else resolve();
      });
    });
  }

  onData(listener: (chunk: Buffer) => void): void {
    this.dataListener = listener;
  }

  onClose(listener: (error: ModbusTransportError) => void): void {
    this.closeListener = listener;
  }

  async close(): Promise<void> {
    await this.opening?.catch(() => undefined);
    const port = this.port;
    this.port = undefined;
    if (!port?.isOpen) return;
    await new Promise<void>((resolve) => port.close(() => resolve()));
  }
}

export interface TcpTransportOptions {
  host: string;
  port: number;
  connectTimeoutMs?: number;
  /**
   * The address to connect to, checked before every connection (the server's device networks); throws
   * when refused. Absent: the host as it is.
   */
  resolveAddress?: (host: string, port: number) => Promise<string>;
}

/** A TCP connection to an RTU-over-TCP gateway. */
export class TcpRtuTransport implements RtuTransport {
  readonly name: string;
  private socket: net.Socket | undefined;
  private opening: Promise<void> | undefined;
  private closed = false;
  private dataListener: (chunk: Buffer) => void = () => {};
  private closeListener: (error: ModbusTransportError) => void = () => {};

  constructor(private readonly options: TcpTransportOptions) {
    this.name = `${options.host}:${options.port}`;
  }

  open(): Promise<void> {
    if (this.closed) return Promise.reject(new ModbusTransportError('Client closed', 'closed'));
    if (this.socket) return Promise.resolve();
    this.opening ??= this.connect().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private async connect(): Promise<void> {
    const { host, port, resolveAddress } = this.options;
    let address = host;
    if (resolveAddress) {
      try {
        address = await resolveAddress(host, port);
      } catch (error) {
        throw new ModbusTransportError(
          `Connect to ${this.name} refused: ${error instanceof Error ? error.message : String(error)}`,
          'connect',
        );
      }
    }
    if (this.closed) throw new ModbusTransportError('Client closed', 'closed');
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.createConnection({ host: address, port });
      s.setNoDelay(true);
      const timer = setTimeout(() => {
        s.destroy();
        reject(new ModbusTransportError(`Connect to ${this.name} timed out`, 'timeout'));
      }, this.options.connectTimeoutMs ?? 3000);
      s.once('error', (error) => {
        clearTimeout(timer);
        reject(new ModbusTransportError(`Connect to ${this.name}: ${error.message}`, 'connect'));
      });
      s.once('connect', () => {
        clearTimeout(timer);
        s.removeAllListeners('error');
        resolve(s);
      });
    });
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => this.dataListener(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.closeListener(new ModbusTransportError(`Connection to ${this.name} closed`, 'closed'));
    });
  }

  write(frame: Buffer): Promise<void> {
    const socket = this.socket;
    if (!socket) return Promise.reject(new ModbusTransportError(`${this.name} is not connected`, 'closed'));
    return new Promise<void>((resolve, reject) => {
      socket.write(frame, (error) => {
        if (error) reject(new ModbusTransportError(`Write to ${this.name}: ${error.message}`, 'closed'));
        else resolve();
      });
    });
  }

  onData(listener: (chunk: Buffer) => void): void {
    this.dataListener = listener;
  }

  onClose(listener: (error: ModbusTransportError) => void): void {
    this.closeListener = listener;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.opening?.catch(() => undefined);
    const socket = this.socket;
    this.socket = undefined;
    socket?.destroy();
  }
}
