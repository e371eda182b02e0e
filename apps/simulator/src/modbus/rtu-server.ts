/**
 * The simulator's slaves over Modbus RTU: on a serial port (a real one, or one end of a socat pair of
 * virtual ports) or on a TCP port that carries RTU frames as they are (what an RTU-over-TCP gateway
 * serves). Every slave on the line hears every request; the one addressed answers, the others stay
 * silent, and so does everyone for the broadcast address 0 and for a frame whose CRC is wrong
 * (Modbus over Serial Line V1.02 §2.4.1, §2.5.1.2).
 *
 * `paceLine`: a pair of virtual ports moves bytes at memory speed, whatever baud rate it is set to. With
 * it, an answer waits as long as the request and the answer would take on a real line at the baud
 * rate, plus the t3.5 silence before it, so a benchmark over socat measures what a real bus allows.
 */
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { buildRtuFrame } from '@solar/modbus';
import { parseRtuRequest, rtuCharacterMs, rtuSilenceMs, type RtuLine } from './rtu-frame';
import type { ModbusHandler } from './tcp-server';

export interface ModbusRtuServer {
  /** The TCP port (RTU over TCP), or 0 on a serial port. */
  port: number;
  /** Requests answered, and frames dropped for a bad CRC. */
  counts: { answered: number; badCrc: number };
  close(): Promise<void>;
}

/** Splits a byte stream into requests and answers them in order, one at a time. */
function rtuResponder(
  handler: ModbusHandler,
  write: (frame: Buffer) => void,
  counts: ModbusRtuServer['counts'],
  pace: RtuLine | undefined,
): { onData(chunk: Buffer): void; stop(): void } {
  let pending: Buffer = Buffer.alloc(0);
  let busy: Promise<void> = Promise.resolve();
  let stopped = false;
  let dropTimer: NodeJS.Timeout | undefined;
  const answer = (address: number, pdu: Buffer) => {
    // Broadcast: nobody answers.
    if (address === 0) return;
    const answerPdu = handler(address, pdu);
    if (!answerPdu) return;
    const frame = buildRtuFrame(address, answerPdu);
    busy = busy.then(async () => {
      if (pace) {
        const ms = (8 + frame.length) * rtuCharacterMs(pace) + rtuSilenceMs(pace);
        await new Promise((resolve) => setTimeout(resolve, ms));
      }
      if (stopped) return;
      counts.answered++;
      write(frame);
    });
  };
  return {
    onData(chunk) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      clearTimeout(dropTimer);
      for (;;) {
        const parsed = parseRtuRequest(pending);
        if (parsed.kind === 'incomplete') break;
        if (parsed.kind === 'invalid') {
          // A slave ignores a frame with a bad CRC; what is left of the stream cannot be framed, so it
          // goes too (the master's next request follows a silence).
          counts.badCrc++;
          pending = Buffer.alloc(0);
          break;
        }
        pending = parsed.rest;
        answer(parsed.address, parsed.pdu);
      }
      // A partial frame followed by silence is noise: dropped.
      if (pending.length) {
        dropTimer = setTimeout(() => {
          pending = Buffer.alloc(0);
        }, 50);
      }
    },
    stop() {
      stopped = true;
      clearTimeout(dropTimer);
    },
  };
}

/** Serves `handler` as RTU frames over TCP on host:port (0 = any free port). */
export function startModbusRtuTcpServer(options: {
  host?: string;
  port?: number;
  handler: ModbusHandler;
  paceLine?: RtuLine;
}): Promise<ModbusRtuServer> {
  const sockets = new Set<Socket>();
  const counts = { answered: 0, badCrc: 0 };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const responder = rtuResponder(
      options.handler,
      (frame) => {
        if (!socket.destroyed) socket.write(frame);
      },
      counts,
      options.paceLine,
    );
    socket.on('data', (chunk: Buffer) => responder.onData(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      responder.stop();
      sockets.delete(socket);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        counts,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Serves `handler` on the serial port at `path` (8 data bits, the line's parity and stop bits). */
export async function startModbusRtuSerialServer(options: {
  path: string;
  line: RtuLine;
  handler: ModbusHandler;
  /** Answer after the time the frames would take at the line's baud rate (for virtual ports). */
  paceLine?: boolean;
}): Promise<ModbusRtuServer> {
  const counts = { answered: 0, badCrc: 0 };
  // Loaded here: the simulator's other servers do not need the native binding.
  const { SerialPort } = await import('serialport');
  const port = new SerialPort({
    path: options.path,
    baudRate: options.line.baudRate,
    dataBits: 8,
    parity: options.line.parity ?? 'none',
    stopBits: options.line.stopBits ?? 1,
    autoOpen: false,
  });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  const responder = rtuResponder(
    options.handler,
    (frame) => {
      if (port.isOpen) port.write(frame);
    },
    counts,
    options.paceLine ? options.line : undefined,
  );
  port.on('data', (chunk: Buffer) => responder.onData(chunk));
  port.on('error', () => undefined);
  return {
    port: 0,
    counts,
    close: async () => {
      responder.stop();
      if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    },
  };
}
