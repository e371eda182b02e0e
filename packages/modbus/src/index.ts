/**
 * The Modbus master both the console's poller (apps/server/src/collectors/modbus) and the edge agent
 * (apps/edge) poll with, so a register is read and decoded the same way wherever it is polled
 * (docs/modbus-rtu.md, docs/edge.md). No I/O beyond the sockets and serial ports it opens; nothing of the
 * server.
 */
export * from './modbus-client';
export * from './register-map';
export * from './rtu-frame';
export * from './rtu-bus';
export * from './rtu-transport';
