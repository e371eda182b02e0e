/**
 * Modbus RTU framing (Modbus over Serial Line Specification and Implementation Guide V1.02, §2.5.1): an
 * RTU frame is the slave address, the PDU (function code and data, Modbus Application Protocol v1.1b3
 * §4.1), then the CRC-16/MODBUS of both, low byte first (§2.5.1.2, §6.2.2). Frames are separated by a
 * silence of at least 3.5 character times (§2.5.1.1), fixed at 1.75 ms above 19,200 baud.
 *
 * Pure functions, no I/O and no server imports: the bus (rtu-bus.ts) and the edge agent share them.
 */

/** Function codes this client reads with (Modbus Application Protocol §6.3, §6.4). */
export const RTU_READ_HOLDING = 0x03;
export const RTU_READ_INPUT = 0x04;

/** Largest RTU frame: address, 253-byte PDU, 2-byte CRC (§2.5.1). */
export const RTU_MAX_FRAME_BYTES = 256;

export type Parity = 'none' | 'even' | 'odd';

export interface SerialLine {
  baudRate: number;
  /** Data bits per character; Modbus RTU uses 8 (§2.5.1). */
  dataBits?: 7 | 8;
  parity?: Parity;
  stopBits?: 1 | 2;
}

/** Bits one character takes on the line: start bit, data bits, parity bit if any, stop bits. */
export function bitsPerCharacter(line: SerialLine): number {
  return 1 + (line.dataBits ?? 8) + ((line.parity ?? 'none') === 'none' ? 0 : 1) + (line.stopBits ?? 1);
}

/** Time one character takes on the line, in ms. */
export function characterTimeMs(line: SerialLine): number {
  if (!(line.baudRate > 0)) throw new RangeError(`Baud rate ${line.baudRate} is not positive`);
  return (bitsPerCharacter(line) * 1000) / line.baudRate;
}

/**
 * The inter-frame silence t3.5, in ms: 3.5 character times, but 1.75 ms at any rate above 19,200 baud
 * (§2.5.1.1, "Implementation guide": the fixed values keep the timer's load bounded at high rates).
 */
export function interFrameSilenceMs(line: SerialLine): number {
  return line.baudRate > 19_200 ? 1.75 : 3.5 * characterTimeMs(line);
}

/**
 * The longest gap allowed between two characters of one frame, t1.5, in ms (§2.5.1.1): 0.75 ms above
 * 19,200 baud.
 */
export function interCharacterTimeoutMs(line: SerialLine): number {
  return line.baudRate > 19_200 ? 0.75 : 1.5 * characterTimeMs(line);
}

/** Time `bytes` take on the line, in ms. */
export function transmissionTimeMs(line: SerialLine, bytes: number): number {
  return bytes * characterTimeMs(line);
}

/**
 * CRC-16/MODBUS (§6.2.2): polynomial 0xA001 (0x8005 reflected), initial value 0xFFFF, no final XOR. The
 * bitwise form of the spec's description; the frame carries it low byte first.
 */
export function crc16Modbus(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

/** An RTU frame around `pdu` for `address`: address, PDU, CRC low byte, CRC high byte. */
export function buildRtuFrame(address: number, pdu: Uint8Array): Buffer {
  if (!Number.isInteger(address) || address < 0 || address > 247) {
    throw new RangeError(`Slave address ${address} is outside 0…247`);
  }
  if (pdu.length < 1 || pdu.length > 253) throw new RangeError(`A PDU of ${pdu.length} bytes`);
  const frame = Buffer.alloc(pdu.length + 3);
  frame.writeUInt8(address, 0);
  frame.set(pdu, 1);
  frame.writeUInt16LE(crc16Modbus(frame.subarray(0, pdu.length + 1)), pdu.length + 1);
  return frame;
}

/** Whether the last two bytes of `frame` are the CRC of the rest. */
export function hasValidCrc(frame: Uint8Array): boolean {
  if (frame.length < 4) return false;
  const body = frame.subarray(0, frame.length - 2);
  const crc = frame[frame.length - 2]! | (frame[frame.length - 1]! << 8);
  return crc16Modbus(body) === crc;
}

/** The request frame of a register read (function 3 or 4). */
export function readRequestFrame(
  address: number,
  functionCode: number,
  register: number,
  count: number,
): Buffer {
  const pdu = Buffer.alloc(5);
  pdu.writeUInt8(functionCode, 0);
  pdu.writeUInt16BE(register, 1);
  pdu.writeUInt16BE(count, 3);
  return buildRtuFrame(address, pdu);
}

/** What the client waits for: the answer to one read. */
export interface ExpectedAnswer {
  address: number;
  functionCode: number;
  count: number;
}

export type RtuAnswer =
  /** Not enough bytes yet for a whole frame. */
  | { kind: 'incomplete' }
  | { kind: 'registers'; registers: number[] }
  | { kind: 'exception'; exceptionCode: number }
  | { kind: 'invalid'; reason: 'crc' | 'address' | 'function' | 'length' };

/** Length of a whole answer to a read of `count` registers: address, function, byte count, data, CRC. */
export const readAnswerBytes = (count: number) => 5 + count * 2;
/** Length of an exception answer: address, function | 0x80, exception code, CRC. */
export const EXCEPTION_ANSWER_BYTES = 5;

/**
 * Judges the bytes received so far for `expected`. A frame is taken as soon as it is complete by its
 * own length (the function code and byte count say how long it is); the bus also ends a frame at the
 * t3.5 silence and then judges what came as it is (`final`: no more bytes belong to this frame).
 */
export function parseReadAnswer(bytes: Uint8Array, expected: ExpectedAnswer, final = false): RtuAnswer {
  const incomplete = (): RtuAnswer =>
    final ? { kind: 'invalid', reason: 'length' } : { kind: 'incomplete' };
  if (bytes.length < 2) return incomplete();
  const functionCode = bytes[1]!;
  const isException = functionCode === (expected.functionCode | 0x80);
  const length = isException ? EXCEPTION_ANSWER_BYTES : readAnswerBytes(expected.count);
  if (bytes.length < length) {
    // A wrong function code or byte count is known before the whole frame is.
    if (!isException && functionCode !== expected.functionCode && bytes.length >= 2 && final) {
      return { kind: 'invalid', reason: 'function' };
    }
    return incomplete();
  }
  // More bytes than the frame holds: noise or a second frame glued on; the frame is not trusted.
  if (bytes.length > length) return { kind: 'invalid', reason: 'length' };
  if (!hasValidCrc(bytes)) return { kind: 'invalid', reason: 'crc' };
  if (bytes[0] !== expected.address) return { kind: 'invalid', reason: 'address' };
  if (isException) return { kind: 'exception', exceptionCode: bytes[2]! };
  if (functionCode !== expected.functionCode) return { kind: 'invalid', reason: 'function' };
  if (bytes[2] !== expected.count * 2) return { kind: 'invalid', reason: 'length' };
  const registers: number[] = [];
  for (let i = 0; i < expected.count; i++) registers.push((bytes[3 + i * 2]! << 8) | bytes[4 + i * 2]!);
  return { kind: 'registers', registers };
}

/** A request a server received: the slave address and the PDU, the CRC checked. */
export type RtuRequest =
  | { kind: 'request'; address: number; pdu: Buffer; rest: Buffer }
  | { kind: 'incomplete' }
  | { kind: 'invalid'; reason: string };

/**
 * Takes one request frame of function 3 or 4 (8 bytes) off the front of `buffer`, for a server or a
 * gateway. Other function codes are framed by the same 8 bytes when they are fixed-length requests
 * (functions 1, 2, 5, 6); this reader serves the register reads the simulator answers.
 */
export function parseRtuRequest(buffer: Buffer): RtuRequest {
  if (buffer.length < 8) return { kind: 'incomplete' };
  const frame = buffer.subarray(0, 8);
  if (!hasValidCrc(frame)) return { kind: 'invalid', reason: 'crc' };
  return {
    kind: 'request',
    address: frame[0]!,
    pdu: Buffer.from(frame.subarray(1, 6)),
    rest: buffer.subarray(8),
  };
}
