import { describe, expect, it } from 'vitest';
import {
  buildRtuFrame,
  characterTimeMs,
  crc16Modbus,
  hasValidCrc,
  interCharacterTimeoutMs,
  interFrameSilenceMs,
  parseReadAnswer,
  parseRtuRequest,
  readRequestFrame,
} from './rtu-frame';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

describe('CRC-16/MODBUS', () => {
  it('matches the published check value and the specification examples', () => {
    // The CRC catalogue's check value of CRC-16/MODBUS for the ASCII string "123456789".
    expect(crc16Modbus(Buffer.from('123456789', 'ascii'))).toBe(0x4b37);
    // Modbus over Serial Line V1.02 §6.2.2: the message 02 07 has CRC 0x1241, sent as 41 12.
    expect(crc16Modbus(hex('0207'))).toBe(0x1241);
    expect(buildRtuFrame(0x02, hex('07'))).toEqual(hex('02 07 41 12'));
    // The read of 10 holding registers from 0 of slave 1 quoted in vendors' manuals: 01 03 00 00 00 0A C5 CD.
    expect(readRequestFrame(1, 3, 0, 10)).toEqual(hex('01 03 00 00 00 0A C5 CD'));
    expect(readRequestFrame(1, 4, 0, 1)).toEqual(hex('01 04 00 00 00 01 31 CA'));
  });

  it('refuses a frame whose CRC does not match', () => {
    const frame = readRequestFrame(1, 3, 0, 10);
    expect(hasValidCrc(frame)).toBe(true);
    frame[3]! ^= 0x01;
    expect(hasValidCrc(frame)).toBe(false);
    expect(hasValidCrc(hex('01 03'))).toBe(false);
  });
});

describe('RTU timing', () => {
  it('computes the character time from baud rate, parity and stop bits', () => {
    // 8N1 is 10 bits a character, 8E1 and 8N2 are 11.
    expect(characterTimeMs({ baudRate: 9600 })).toBeCloseTo(10_000 / 9600, 9);
    expect(characterTimeMs({ baudRate: 9600, parity: 'even' })).toBeCloseTo(11_000 / 9600, 9);
    expect(characterTimeMs({ baudRate: 9600, stopBits: 2 })).toBeCloseTo(11_000 / 9600, 9);
  });

  it('keeps 3.5 characters of silence up to 19,200 baud and 1.75 ms above', () => {
    // 9,600 baud 8E1: 3.5 × 11 bits / 9600 = 4.01 ms.
    expect(interFrameSilenceMs({ baudRate: 9600, parity: 'even' })).toBeCloseTo(4.0104, 3);
    expect(interFrameSilenceMs({ baudRate: 19_200, parity: 'even' })).toBeCloseTo(2.0052, 3);
    expect(interFrameSilenceMs({ baudRate: 1200 })).toBeCloseTo(29.1667, 3);
    expect(interFrameSilenceMs({ baudRate: 38_400 })).toBe(1.75);
    expect(interFrameSilenceMs({ baudRate: 115_200, parity: 'even' })).toBe(1.75);
    expect(interCharacterTimeoutMs({ baudRate: 115_200 })).toBe(0.75);
    expect(interCharacterTimeoutMs({ baudRate: 9600 })).toBeCloseTo(15 / 9.6, 6);
  });

  it('refuses a baud rate that is not positive', () => {
    expect(() => characterTimeMs({ baudRate: 0 })).toThrow(RangeError);
  });
});

describe('reading answers', () => {
  const expected = { address: 1, functionCode: 3, count: 2 };
  const answer = buildRtuFrame(1, hex('03 04 00 2A FF FF'));

  it('takes a whole answer and decodes its registers', () => {
    expect(parseReadAnswer(answer, expected)).toEqual({ kind: 'registers', registers: [42, 0xffff] });
  });

  it('waits for the rest of a frame, and calls it short once the line is silent', () => {
    expect(parseReadAnswer(answer.subarray(0, 5), expected)).toEqual({ kind: 'incomplete' });
    expect(parseReadAnswer(answer.subarray(0, 5), expected, true)).toEqual({
      kind: 'invalid',
      reason: 'length',
    });
  });

  it('rejects a bad CRC, another slave, another function and a wrong byte count', () => {
    const corrupted = Buffer.from(answer);
    corrupted[4]! ^= 0x10;
    expect(parseReadAnswer(corrupted, expected)).toEqual({ kind: 'invalid', reason: 'crc' });
    expect(parseReadAnswer(buildRtuFrame(2, hex('03 04 00 2A FF FF')), expected)).toEqual({
      kind: 'invalid',
      reason: 'address',
    });
    expect(parseReadAnswer(buildRtuFrame(1, hex('04 04 00 2A FF FF')), expected)).toEqual({
      kind: 'invalid',
      reason: 'function',
    });
    expect(parseReadAnswer(buildRtuFrame(1, hex('03 02 00 2A 00 00')), expected)).toEqual({
      kind: 'invalid',
      reason: 'length',
    });
    // Bytes beyond the frame: not trusted.
    expect(parseReadAnswer(Buffer.concat([answer, hex('00')]), expected)).toEqual({
      kind: 'invalid',
      reason: 'length',
    });
  });

  it('reads an exception answer', () => {
    // Illegal data address (02) to function 03: 01 83 02 C0 F1 (Modbus Application Protocol §7).
    const exception = buildRtuFrame(1, hex('83 02'));
    expect(exception).toEqual(hex('01 83 02 C0 F1'));
    expect(parseReadAnswer(exception, expected)).toEqual({ kind: 'exception', exceptionCode: 2 });
  });

  it('takes requests off a stream for a server', () => {
    const two = Buffer.concat([readRequestFrame(1, 3, 0, 10), readRequestFrame(2, 4, 5, 1)]);
    const first = parseRtuRequest(two);
    expect(first).toMatchObject({ kind: 'request', address: 1, pdu: hex('03 00 00 00 0A') });
    const second = first.kind === 'request' ? parseRtuRequest(first.rest) : first;
    expect(second).toMatchObject({ kind: 'request', address: 2, pdu: hex('04 00 05 00 01') });
    expect(parseRtuRequest(two.subarray(0, 5))).toEqual({ kind: 'incomplete' });
    const bad = Buffer.from(two);
    bad[2]! ^= 1;
    expect(parseRtuRequest(bad)).toEqual({ kind: 'invalid', reason: 'crc' });
  });
});
