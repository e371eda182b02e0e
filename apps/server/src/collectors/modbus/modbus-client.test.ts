import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModbusServer, type FakeModbusServer } from '../test/fake-modbus-server';
import { ModbusExceptionError, ModbusTcpClient, ModbusTransportError } from '@solar/modbus';

describe('Modbus TCP client', () => {
  let server: FakeModbusServer;
  beforeAll(async () => {
    server = await startFakeModbusServer();
    server.units.set(
      1,
      new Map([
        [100, 1],
        [101, 0xffff],
        [102, 0x1234],
      ]),
    );
    server.units.set(7, new Map([[0, 42]]));
  });
  afterAll(() => server.close());

  it('reads holding and input registers of several units over one connection', async () => {
    const client = new ModbusTcpClient({ host: '127.0.0.1', port: server.port, timeoutMs: 500 });
    expect(await client.readHoldingRegisters(1, 100, 3)).toEqual([1, 0xffff, 0x1234]);
    expect(await client.readInputRegisters(7, 0, 1)).toEqual([42]);
    // Concurrent calls go out one at a time and each gets its own answer.
    const all = await Promise.all([
      client.readRegisters('holding', 1, 102, 1),
      client.readRegisters('holding', 7, 0, 1),
      client.readRegisters('input', 1, 100, 1),
    ]);
    expect(all).toEqual([[0x1234], [42], [1]]);
    expect(server.requests.slice(-3).map((r) => r[1])).toEqual([3, 3, 4]);
    client.close();
  });

  it('turns an exception answer into ModbusExceptionError', async () => {
    const client = new ModbusTcpClient({ host: '127.0.0.1', port: server.port, timeoutMs: 500 });
    const error = await client.readHoldingRegisters(1, 200, 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModbusExceptionError);
    expect((error as ModbusExceptionError).exceptionCode).toBe(2);
    // The connection stays usable.
    expect(await client.readHoldingRegisters(1, 100, 1)).toEqual([1]);
    client.close();
  });

  it('times out on silence, drops the late answer, and reconnects after the device closes the connection', async () => {
    const client = new ModbusTcpClient({ host: '127.0.0.1', port: server.port, timeoutMs: 200 });
    server.online = false;
    const error = await client.readHoldingRegisters(1, 100, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModbusTransportError);
    expect((error as ModbusTransportError).kind).toBe('timeout');
    server.online = true;
    expect(await client.readHoldingRegisters(1, 102, 1)).toEqual([0x1234]);
    server.dropConnections();
    await new Promise((r) => setTimeout(r, 50));
    expect(await client.readHoldingRegisters(1, 101, 1)).toEqual([0xffff]);
    client.close();
  });

  it('fails fast when nothing listens, and refuses impossible requests', async () => {
    const client = new ModbusTcpClient({ host: '127.0.0.1', port: 1, timeoutMs: 500 });
    const error = await client.readHoldingRegisters(1, 0, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModbusTransportError);
    expect((error as ModbusTransportError).kind).toBe('connect');
    await expect(client.readHoldingRegisters(1, 0, 126)).rejects.toThrow(RangeError);
    await expect(client.readHoldingRegisters(1, 65535, 2)).rejects.toThrow(RangeError);
    client.close();
  });
});
