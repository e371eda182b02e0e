/**
 * Modbus RTU framing for the simulator's slaves (Modbus over Serial Line V1.02 §2.5.1): slave address,
 * PDU, CRC-16/MODBUS low byte first (§6.2.2); frames end at 3.5 character times of silence, 1.75 ms above
 * 19,200 baud (§2.5.1.1). Pure functions. The CRC and the answer frame are @solar/modbus's, the same code
 * the console's master checks them with; the simulator imports nothing of the server.
 */
import { crc16Modbus } from '@solar/modbus';

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
