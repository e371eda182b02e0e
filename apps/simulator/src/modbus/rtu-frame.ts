/**
 * Modbus RTU framing for the simulator's slaves (Modbus over Serial Line V1.02 §2.5.1): slave address,
 * PDU, CRC-16/MODBUS low byte first (§6.2.2); frames end at 3.5 character times of silence, 1.75 ms above
 * 19,200 baud (§2.5.1.1). Pure functions. (The server's master has its own framer; the simulator imports
 * nothing of the server.)
 */

/** CRC-16/MODBUS: reflected polynomial 0xA001, initial 0xFFFF, no final XOR (§6.2.2). */
export function crc16Modbus(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

/** Address, PDU and CRC. */
export function buildRtuFrame(address: number, pdu: Uint8Array): Buffer {
  const frame = Buffer.alloc(pdu.length + 3);
  frame.writeUInt8(address, 0);
  frame.set(pdu, 1);
  frame.writeUInt16LE(crc16Modbus(frame.subarray(0, pdu.length + 1)), pdu.length + 1);
  return frame;
}

/** The line's character format, for the silences and the time frames take on the wire. */
export interface RtuLine {
  baudRate: number;
  parity?: 'none' | 'even' | 'odd';
  stopBits?: 1 | 2;
}

/** Time one character (start, 8 data bits, parity if any, stop bits) takes, in ms. */
export function rtuCharacterMs(line: RtuLine): number {
  const bits = 1 + 8 + ((line.parity ?? 'none') === 'none' ? 0 : 1) + (line.stopBits ?? 1);
  return (bits * 1000) / line.baudRate;
}

/** t3.5 in ms: 3.5 characters, 1.75 ms above 19,200 baud. */
export function rtuSilenceMs(line: RtuLine): number {
  return line.baudRate > 19_200 ? 1.75 : 3.5 * rtuCharacterMs(line);
}

export type RtuRequestParse =
  | { kind: 'request'; address: number; pdu: Buffer; rest: Buffer }
  | { kind: 'incomplete' }
  | { kind: 'invalid' };

/**
 * One request off the front of `buffer`. The simulator's slaves answer functions 3 and 4, whose requests
 * are 8 bytes; any fixed-length request of that size (functions 1, 2, 5, 6) frames the same way.
 */
export function parseRtuRequest(buffer: Buffer): RtuRequestParse {
  if (buffer.length < 8) return { kind: 'incomplete' };
  const crc = buffer.readUInt16LE(6);
  if (crc16Modbus(buffer.subarray(0, 6)) !== crc) return { kind: 'invalid' };
  return {
    kind: 'request',
    address: buffer[0]!,
    pdu: Buffer.from(buffer.subarray(1, 6)),
    rest: buffer.subarray(8),
  };
}
