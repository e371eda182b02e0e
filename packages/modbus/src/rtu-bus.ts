/**
 * A Modbus RTU master on one bus (a serial line, or a gateway's TCP connection to one): the single master
 * of the Modbus serial line (Modbus over Serial Line V1.02 §2.2), it sends one request at a time and waits
 * for its answer, or for the response timeout, before the next one, whichever slave it is for. Requests of
 * several slaves on the bus wait their turn in the order they were made, so one slave that does not answer
 * delays the others by its timeout and retries, no more.
 *
 * Timing (§2.5.1.1): before each request the line must have been silent for t3.5 since the last byte
 * either way; an answer is complete when its own length says so (function code and byte count), and a
 * frame that stops short (or runs on) is judged when the line falls silent for t3.5. A bad CRC, another
 * slave's address or another function code are not an answer: the request is sent again (up to `retries`
 * times), as after a timeout. An exception answer is an answer and is not repeated.
 *
 * The same client interface as the TCP client (ModbusRegisterClient), so the poller and the register maps
 * work unchanged. No server imports: the edge agent reuses this file.
 */
import { ModbusExceptionError, ModbusTransportError, type ModbusRegisterClient } from './modbus-client';
import {
  interFrameSilenceMs,
  parseReadAnswer,
  readAnswerBytes,
  readRequestFrame,
  RTU_READ_HOLDING,
  RTU_READ_INPUT,
  transmissionTimeMs,
  type ExpectedAnswer,
  type SerialLine,
} from './rtu-frame';
import type { RtuTransport } from './rtu-transport';

export interface RtuBusOptions {
  transport: RtuTransport;
  /** The line's speed and character format: sets the silences and the time frames take on the wire. */
  line: SerialLine;
  /** Wait this long for an answer to start coming, beyond the time the frames take on the wire. */
  timeoutMs?: number;
  /** Send a request again this many times after a timeout or a broken answer. */
  retries?: number;
  /**
   * End a short frame at the t3.5 silence (a serial line). Off for a gateway's TCP stream, whose segments
   * may split a frame with any gap: there the frame's own length and the response timeout end it.
   */
  endFramesBySilence?: boolean;
}

/** What the bus has done, for the health page and the benchmark. */
export interface RtuBusCounters {
  requests: number;
  answered: number;
  exceptions: number;
  timeouts: number;
  /** Answers refused: bad CRC, wrong slave, wrong function, wrong length. */
  badFrames: number;
  retries: number;
}

interface Attempt {
  expected: ExpectedAnswer;
  bytes: Buffer;
  settle(outcome: AttemptOutcome): void;
  responseTimer: NodeJS.Timeout;
  silenceTimer: NodeJS.Timeout | undefined;
}

type AttemptOutcome =
  | { kind: 'registers'; registers: number[] }
  | { kind: 'exception'; exceptionCode: number }
  | { kind: 'failed'; error: ModbusTransportError };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The RTU master; see the module comment. */
export class RtuBus implements ModbusRegisterClient {
  readonly counters: RtuBusCounters = {
    requests: 0,
    answered: 0,
    exceptions: 0,
    timeouts: 0,
    badFrames: 0,
    retries: 0,
  };
  private readonly transport: RtuTransport;
  private readonly line: SerialLine;
  private readonly silenceMs: number;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly endFramesBySilence: boolean;
  private queue: Promise<unknown> = Promise.resolve();
  private attempt: Attempt | undefined;
  /** performance.now() of the last byte sent or received. */
  private lastActivity = -Infinity;
  private closed = false;

  constructor(options: RtuBusOptions) {
    this.transport = options.transport;
    this.line = options.line;
    this.silenceMs = interFrameSilenceMs(options.line);
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.retries = options.retries ?? 1;
    this.endFramesBySilence = options.endFramesBySilence ?? true;
    this.transport.onData((chunk) => this.onData(chunk));
    this.transport.onClose((error) => this.finish({ kind: 'failed', error }));
  }

  get name(): string {
    return this.transport.name;
  }

  /** The inter-frame silence this bus keeps, in ms. */
  get interFrameSilenceMs(): number {
    return this.silenceMs;
  }

  /** Reads `count` (1…125) holding or input registers from 0-based `address` of slave `unitId` (1…247). */
  readRegisters(
    type: 'holding' | 'input',
    unitId: number,
    address: number,
    count: number,
  ): Promise<number[]> {
    if (!Number.isInteger(unitId) || unitId < 1 || unitId > 247) {
      return Promise.reject(new RangeError(`Slave id ${unitId} is outside 1…247`));
    }
    if (!Number.isInteger(count) || count < 1 || count > 125) {
      return Promise.reject(new RangeError(`Cannot read ${count} registers in one request`));
    }
    if (!Number.isInteger(address) || address < 0 || address + count > 0x10000) {
      return Promise.reject(new RangeError(`Address ${address} (+${count}) is outside 0…65535`));
    }
    const functionCode = type === 'holding' ? RTU_READ_HOLDING : RTU_READ_INPUT;
    const run = () => this.transact(functionCode, unitId, address, count);
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  readHoldingRegisters(unitId: number, address: number, count: number): Promise<number[]> {
    return this.readRegisters('holding', unitId, address, count);
  }

  readInputRegisters(unitId: number, address: number, count: number): Promise<number[]> {
    return this.readRegisters('input', unitId, address, count);
  }

  /** Closes the port or connection; requests after this fail. */
  close(): void {
    this.closed = true;
    this.finish({ kind: 'failed', error: new ModbusTransportError('Client closed', 'closed') });
    void this.transport.close();
  }

  private async transact(
    functionCode: number,
    unitId: number,
    address: number,
    count: number,
  ): Promise<number[]> {
    const expected: ExpectedAnswer = { address: unitId, functionCode, count };
    const frame = readRequestFrame(unitId, functionCode, address, count);
    let lastError: ModbusTransportError | undefined;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (this.closed) throw new ModbusTransportError('Client closed', 'closed');
      if (attempt > 0) this.counters.retries++;
      this.counters.requests++;
      const outcome = await this.send(frame, expected);
      if (outcome.kind === 'registers') {
        this.counters.answered++;
        return outcome.registers;
      }
      if (outcome.kind === 'exception') {
        this.counters.exceptions++;
        throw new ModbusExceptionError(functionCode, outcome.exceptionCode);
      }
      lastError = outcome.error;
      // The port or connection is gone: the next attempt opens it again, no use waiting for a timeout.
      if (outcome.error.kind === 'connect') break;
    }
    throw lastError!;
  }

  /** One request and its answer (or the lack of one). */
  private async send(frame: Buffer, expected: ExpectedAnswer): Promise<AttemptOutcome> {
    try {
      await this.transport.open();
    } catch (error) {
      return {
        kind: 'failed',
        error:
          error instanceof ModbusTransportError ? error : new ModbusTransportError(String(error), 'connect'),
      };
    }
    // t3.5 of silence since the last byte on the line (a late answer to an earlier request included).
    for (;;) {
      const wait = this.lastActivity + this.silenceMs - performance.now();
      if (wait <= 0) break;
      await sleep(Math.max(1, Math.ceil(wait)));
    }
    if (this.closed) return { kind: 'failed', error: new ModbusTransportError('Client closed', 'closed') };
    // The request's and the answer's own time on the wire are not the slave's delay.
    const wireMs =
      transmissionTimeMs(this.line, frame.length) +
      transmissionTimeMs(this.line, readAnswerBytes(expected.count));
    const limitMs = this.timeoutMs + wireMs;
    return new Promise<AttemptOutcome>((resolve) => {
      const attempt: Attempt = {
        expected,
        bytes: Buffer.alloc(0),
        settle: resolve,
        silenceTimer: undefined,
        responseTimer: setTimeout(() => {
          if (this.attempt !== attempt) return;
          // Some bytes came but no whole frame: a broken answer rather than none.
          const broken = attempt.bytes.length > 0;
          if (broken) this.counters.badFrames++;
          else this.counters.timeouts++;
          this.finish({
            kind: 'failed',
            error: new ModbusTransportError(
              broken
                ? `Incomplete answer from ${this.name} slave ${expected.address}`
                : `No answer from ${this.name} slave ${expected.address} within ${Math.round(limitMs)} ms`,
              broken ? 'protocol' : 'timeout',
            ),
          });
        }, limitMs),
      };
      this.attempt = attempt;
      this.lastActivity = performance.now();
      this.transport.write(frame).then(
        () => {
          this.lastActivity = performance.now();
        },
        (error: unknown) => {
          if (this.attempt !== attempt) return;
          this.finish({
            kind: 'failed',
            error:
              error instanceof ModbusTransportError
                ? error
                : new ModbusTransportError(String(error), 'closed'),
          });
        },
      );
    });
  }

  private onData(chunk: Buffer): void {
    this.lastActivity = performance.now();
    const attempt = this.attempt;
    // Bytes nobody waits for (a late answer, noise): dropped; they only push the next request back.
    if (!attempt) return;
    attempt.bytes = attempt.bytes.length ? Buffer.concat([attempt.bytes, chunk]) : chunk;
    const answer = parseReadAnswer(attempt.bytes, attempt.expected);
    if (answer.kind === 'registers' || answer.kind === 'exception') {
      this.finish(answer);
      return;
    }
    if (answer.kind === 'invalid') {
      this.counters.badFrames++;
      this.finish({
        kind: 'failed',
        error: new ModbusTransportError(`Bad answer from ${this.name} (${answer.reason})`, 'protocol'),
      });
      return;
    }
    if (!this.endFramesBySilence) return;
    // Incomplete: a frame that stops for t3.5 has ended, short.
    clearTimeout(attempt.silenceTimer);
    attempt.silenceTimer = setTimeout(
      () => {
        if (this.attempt !== attempt) return;
        const final = parseReadAnswer(attempt.bytes, attempt.expected, true);
        if (final.kind === 'registers' || final.kind === 'exception') {
          this.finish(final);
          return;
        }
        this.counters.badFrames++;
        this.finish({
          kind: 'failed',
          error: new ModbusTransportError(
            `Bad answer from ${this.name} (${final.kind === 'invalid' ? final.reason : 'length'})`,
            'protocol',
          ),
        });
      },
      // Node's timers fire no sooner than 1 ms; a margin keeps a frame split by the OS's reads whole.
      Math.max(this.silenceMs, 2),
    );
  }

  private finish(outcome: AttemptOutcome): void {
    const attempt = this.attempt;
    if (!attempt) return;
    this.attempt = undefined;
    clearTimeout(attempt.responseTimer);
    clearTimeout(attempt.silenceTimer);
    attempt.settle(outcome);
  }
}
