/**
 * Modbus TCP framing (Modbus Messaging on TCP/IP Implementation Guide v1.0b §3.1.3): every ADU is the
 * 7-byte MBAP header — transaction id, protocol id 0, length of what follows, unit id — then the PDU
 * (function code and data, Modbus Application Protocol v1.1b3 §4.1). Pure functions.
 */

export const MBAP_HEADER_BYTES = 7;
/** Largest PDU (Modbus Application Protocol §4.1): 253 bytes, so at most 254 after the length field. */
export const MAX_PDU_BYTES = 253;

export const FUNCTION_READ_HOLDING_REGISTERS = 3;
export const FUNCTION_READ_INPUT_REGISTERS = 4;

/** Exception codes (Modbus Application Protocol §7). */
export const MODBUS_EXCEPTIONS = {
  ILLEGAL_FUNCTION: 0x01,
  ILLEGAL_DATA_ADDRESS: 0x02,
  ILLEGAL_DATA_VALUE: 0x03,
  SERVER_DEVICE_FAILURE: 0x04,
  GATEWAY_TARGET_FAILED: 0x0b,
} as const;

export interface ModbusRequest {
  transactionId: number;
  protocolId: number;
  unitId: number;
  pdu: Buffer;
}

export type ParseResult =
  | { kind: 'request'; request: ModbusRequest; rest: Buffer }
  | { kind: 'incomplete' }
  | { kind: 'invalid'; reason: string };

/** Takes one ADU off the front of `buffer` (a TCP stream may hold several, or part of one). */
export function parseAdu(buffer: Buffer): ParseResult {
  if (buffer.length < MBAP_HEADER_BYTES) return { kind: 'incomplete' };
  const length = buffer.readUInt16BE(4);
  if (length < 2 || length > MAX_PDU_BYTES + 1) return { kind: 'invalid', reason: `MBAP length ${length}` };
  const total = 6 + length;
  if (buffer.length < total) return { kind: 'incomplete' };
  return {
    kind: 'request',
    request: {
      transactionId: buffer.readUInt16BE(0),
      protocolId: buffer.readUInt16BE(2),
      unitId: buffer.readUInt8(6),
      pdu: buffer.subarray(MBAP_HEADER_BYTES, total),
    },
    rest: buffer.subarray(total),
  };
}

/** An ADU around `pdu`. */
export function buildAdu(transactionId: number, unitId: number, pdu: Buffer): Buffer {
  const header = Buffer.alloc(MBAP_HEADER_BYTES);
  header.writeUInt16BE(transactionId, 0);
  header.writeUInt16BE(0, 2);
  header.writeUInt16BE(pdu.length + 1, 4);
  header.writeUInt8(unitId, 6);
  return Buffer.concat([header, pdu]);
}

/** The request PDU of function 3 or 4. */
export function readRequestPdu(functionCode: number, address: number, quantity: number): Buffer {
  const pdu = Buffer.alloc(5);
  pdu.writeUInt8(functionCode, 0);
  pdu.writeUInt16BE(address, 1);
  pdu.writeUInt16BE(quantity, 3);
  return pdu;
}

/** The answer PDU of function 3 or 4: byte count, then the registers big-endian. */
export function readResponsePdu(functionCode: number, registers: readonly number[]): Buffer {
  const pdu = Buffer.alloc(2 + registers.length * 2);
  pdu.writeUInt8(functionCode, 0);
  pdu.writeUInt8(registers.length * 2, 1);
  registers.forEach((r, i) => pdu.writeUInt16BE(r, 2 + i * 2));
  return pdu;
}

/** An exception PDU: the function code with its high bit set, then the exception code. */
export function exceptionPdu(functionCode: number, code: number): Buffer {
  return Buffer.from([(functionCode | 0x80) & 0xff, code]);
}

/**
 * The answer to a read of holding or input registers (`pdu`, its function code already accepted) from a
 * device's register image: the registers, or the exception a real device gives for a malformed request
 * (illegal data value) or an address outside its map (illegal data address).
 */
export function readRegistersAnswer(
  functionCode: number,
  pdu: Buffer,
  image: ReadonlyMap<number, number>,
): Buffer {
  if (pdu.length !== 5) return exceptionPdu(functionCode, MODBUS_EXCEPTIONS.ILLEGAL_DATA_VALUE);
  const address = pdu.readUInt16BE(1);
  const quantity = pdu.readUInt16BE(3);
  if (quantity < 1 || quantity > 125) return exceptionPdu(functionCode, MODBUS_EXCEPTIONS.ILLEGAL_DATA_VALUE);
  const registers: number[] = [];
  for (let a = address; a < address + quantity; a++) {
    const r = image.get(a);
    if (r === undefined) return exceptionPdu(functionCode, MODBUS_EXCEPTIONS.ILLEGAL_DATA_ADDRESS);
    registers.push(r);
  }
  return readResponsePdu(functionCode, registers);
}
