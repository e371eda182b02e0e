/**
 * A minimal Modbus TCP server on node:net: it splits the stream into ADUs (several may arrive in one
 * chunk — pipelined requests — or one across chunks), hands each to a handler and writes the answers in
 * request order. A handler answering null sends nothing (a unit that is offline).
 */
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { buildAdu, parseAdu } from './frame';

/** Answers the PDU for a unit, or null to stay silent. */
export type ModbusHandler = (unitId: number, pdu: Buffer) => Buffer | null;

export interface ModbusTcpServer {
  port: number;
  host: string;
  close(): Promise<void>;
}

/** Listens on host:port (0 = any free port) and serves `handler`. */
export function startModbusTcpServer(options: {
  host?: string;
  port?: number;
  handler: ModbusHandler;
}): Promise<ModbusTcpServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const answers: Buffer[] = [];
      for (;;) {
        const parsed = parseAdu(pending);
        if (parsed.kind === 'incomplete') break;
        if (parsed.kind === 'invalid') {
          // The stream has lost its framing; nothing after this can be trusted.
          socket.destroy();
          return;
        }
        pending = parsed.rest;
        const { request } = parsed;
        // Protocol id 0 is Modbus; anything else is not for us (Implementation Guide §3.1.3).
        if (request.protocolId !== 0 || request.pdu.length === 0) continue;
        const answer = options.handler(request.unitId, request.pdu);
        if (answer) answers.push(buildAdu(request.transactionId, request.unitId, answer));
      }
      if (answers.length > 0) socket.write(answers.length === 1 ? answers[0]! : Buffer.concat(answers));
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 502, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve({
        port: address.port,
        host: address.address,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
