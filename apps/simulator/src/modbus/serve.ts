/**
 * How every simulated Modbus device (SunSpec units, the Huawei map, any register template) goes on the
 * wire: Modbus TCP, RTU frames over TCP (what an RTU-over-TCP gateway serves), or RTU on a serial port with
 * every unit a slave on the one line. The device servers differ only in how they answer (`handler`).
 */
import type { RtuLine } from './rtu-frame';
import { startModbusRtuSerialServer, startModbusRtuTcpServer } from './rtu-server';
import { startModbusTcpServer, type ModbusHandler } from './tcp-server';

/**
 * Modbus TCP (the default), RTU over TCP, or RTU on a serial port. `paceLine` (RTU): answer after the time
 * the frames would take at that line's baud rate, for virtual serial ports that move bytes instantly.
 */
export type ModbusTransport =
  | { kind: 'tcp' }
  | { kind: 'rtu-tcp'; paceLine?: RtuLine }
  | { kind: 'rtu-serial'; path: string; line: RtuLine; paceLine?: boolean };

/** Serves `handler` on the transport: its TCP port (0 on a serial port), and how to stop it. */
export function serveModbus(
  transport: ModbusTransport,
  at: { host?: string; port?: number },
  handler: ModbusHandler,
): Promise<{ port: number; close(): Promise<void> }> {
  switch (transport.kind) {
    case 'rtu-serial':
      return startModbusRtuSerialServer({
        path: transport.path,
        line: transport.line,
        paceLine: transport.paceLine,
        handler,
      });
    case 'rtu-tcp':
      return startModbusRtuTcpServer({
        host: at.host,
        port: at.port ?? 0,
        paceLine: transport.paceLine,
        handler,
      });
    case 'tcp':
      return startModbusTcpServer({ host: at.host, port: at.port ?? 0, handler });
  }
}
