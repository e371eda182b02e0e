import net from 'node:net';

/** A Modbus TCP server for tests: registers per unit id, functions 3 and 4, exception 2 for unmapped ones. */
export interface FakeModbusServer {
  port: number;
  /** Holding registers of a unit (input registers read the same map). */
  units: Map<number, Map<number, number>>;
  /** false: accept requests but never answer (a device that went silent). */
  online: boolean;
  /** Requests received: [unit, function, address, count]. */
  requests: [number, number, number, number][];
  /** For each request, the number of the connection it came on (1 for the first accepted, and so on). */
  requestConnections: number[];
  /** Closes every open connection (the device restarts). */
  dropConnections(): void;
  close(): Promise<void>;
}

export async function startFakeModbusServer(): Promise<FakeModbusServer> {
  const sockets = new Set<net.Socket>();
  const state: Omit<FakeModbusServer, 'port' | 'close' | 'dropConnections'> = {
    units: new Map(),
    online: true,
    requests: [],
    requestConnections: [],
  };
  let accepted = 0;
  const server = net.createServer((socket) => {
    const connection = ++accepted;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 12) {
        const frame = buffer.subarray(0, 12);
        buffer = buffer.subarray(12);
        const tid = frame.readUInt16BE(0);
        const unit = frame.readUInt8(6);
        const fn = frame.readUInt8(7);
        const address = frame.readUInt16BE(8);
        const count = frame.readUInt16BE(10);
        state.requests.push([unit, fn, address, count]);
        state.requestConnections.push(connection);
        if (!state.online) continue;
        const map = state.units.get(unit);
        const values: number[] = [];
        for (let a = address; a < address + count && map; a++) {
          const v = map.get(a);
          if (v === undefined) break;
          values.push(v);
        }
        const head = Buffer.alloc(7);
        head.writeUInt16BE(tid, 0);
        head.writeUInt16BE(0, 2);
        head.writeUInt8(unit, 6);
        let pdu: Buffer;
        if (!map || values.length !== count) {
          pdu = Buffer.from([fn | 0x80, 2]);
        } else {
          pdu = Buffer.alloc(2 + count * 2);
          pdu.writeUInt8(fn, 0);
          pdu.writeUInt8(count * 2, 1);
          values.forEach((v, i) => pdu.writeUInt16BE(v, 2 + i * 2));
        }
        head.writeUInt16BE(pdu.length + 1, 4);
        // Sent in two writes, so the client meets split frames.
        const out = Buffer.concat([head, pdu]);
        socket.write(out.subarray(0, 5));
        socket.write(out.subarray(5));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return Object.assign(state, {
    port,
    dropConnections() {
      for (const s of sockets) s.destroy();
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
