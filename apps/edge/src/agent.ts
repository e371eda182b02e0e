/**
 * The edge agent (docs/edge.md): reads its plant's configuration from the console (kept on disk, so that
 * it polls without the console), polls the devices into the durable queue, sends the queue, and reports
 * its health every minute, reloading the configuration when the console names another version.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { edgeConfigAnswer, type EdgeConfigAnswer, type EdgeHealthBody } from '@solar/shared';
import { ConsoleAnswerError, ConsoleClient } from './console-client';
import { HttpsTransport } from './https-transport';
import type { Log } from './log';
import { Poller } from './poller';
import { DEFAULT_MAX_ROWS, ReadingQueue } from './queue';
import { MqttTransport } from './mqtt-transport';
import { Sender } from './sender';
import type { ReadingTransport } from './transport';

export const AGENT_VERSION = '0.1.0';
/** A clock further off the console's than this is logged: readings carry the agent's clock. */
export const CLOCK_WARN_MS = 5_000;

export interface AgentOptions {
  consoleUrl: string;
  key: string;
  dataDir: string;
  log: Log;
  maxRows?: number;
  batchSize?: number;
  backlogBatchesPerSecond?: number;
  backlogInFlight?: number;
  healthIntervalMs?: number;
  /** Keep a journal of every queued reading (tests and bench). */
  journal?: boolean;
  /** Readings over MQTT through this broker instead of the HTTPS ingest (configuration and health stay on HTTPS). */
  mqtt?: {
    url: string;
    username?: string;
    password?: string;
    ca?: Buffer;
    ackTimeoutMs?: number;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Agent {
  readonly queue: ReadingQueue;
  readonly agentId: string;
  private readonly client: ConsoleClient;
  private readonly transport: ReadingTransport;
  private readonly sender: Sender;
  private poller: Poller | undefined;
  private config: EdgeConfigAnswer | undefined;
  private healthTimer: NodeJS.Timeout | undefined;
  private readonly startedAt = Date.now();
  private pollFailures = 0;
  private stopped = false;

  constructor(private readonly options: AgentOptions) {
    mkdirSync(options.dataDir, { recursive: true });
    this.agentId = this.loadAgentId();
    this.queue = new ReadingQueue(path.join(options.dataDir, 'queue.sqlite'), {
      maxRows: options.maxRows ?? DEFAULT_MAX_ROWS,
      journal: options.journal,
    });
    this.client = new ConsoleClient({ url: options.consoleUrl, key: options.key });
    this.transport = options.mqtt
      ? new MqttTransport({
          ...options.mqtt,
          agentId: this.agentId,
          key: options.key,
          plantId: () => this.config?.plant_id,
          log: options.log,
        })
      : new HttpsTransport(this.client);
    this.sender = new Sender({
      queue: this.queue,
      transport: this.transport,
      log: options.log,
      batchSize: options.batchSize,
      backlogBatchesPerSecond: options.backlogBatchesPerSecond,
      backlogInFlight: options.backlogInFlight,
    });
  }

  private get configFile() {
    return path.join(this.options.dataDir, 'config.json');
  }

  /** Made once, at the first start, and kept: the console tells installations apart by it. */
  private loadAgentId(): string {
    const file = path.join(this.options.dataDir, 'agent-id');
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    const id = `edge-${randomUUID()}`;
    writeFileSync(file, `${id}\n`);
    return id;
  }

  private loadCachedConfig(): EdgeConfigAnswer | undefined {
    if (!existsSync(this.configFile)) return undefined;
    try {
      return edgeConfigAnswer.parse(JSON.parse(readFileSync(this.configFile, 'utf8')));
    } catch (error) {
      this.options.log('warn', 'kept configuration is unreadable: ignored', { err: String(error) });
      return undefined;
    }
  }

  /** Asks the console; keeps a good answer on disk (written aside, then renamed: never half a file). */
  private async fetchConfig(): Promise<EdgeConfigAnswer | undefined> {
    try {
      const config = await this.client.config();
      const tmp = `${this.configFile}.tmp`;
      writeFileSync(tmp, JSON.stringify(config));
      renameSync(tmp, this.configFile);
      return config;
    } catch (error) {
      this.options.log('warn', 'configuration not read from the console', {
        err: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  }

  private async apply(config: EdgeConfigAnswer): Promise<void> {
    await this.poller?.stop();
    if (this.stopped) return;
    this.config = config;
    this.poller = new Poller({
      devices: config.devices,
      push: (readings) => this.queue.push(readings),
      log: this.options.log,
      onFailure: () => this.pollFailures++,
    });
    this.poller.start();
    this.options.log('info', 'polling', {
      configVersion: config.config_version,
      devices: config.devices.length,
      signals: config.devices.reduce((n, d) => n + d.signals.length, 0),
    });
  }

  async start(): Promise<void> {
    this.sender.start();
    const cached = this.loadCachedConfig();
    if (cached) await this.apply(cached);
    let fresh = await this.fetchConfig();
    // Without a kept configuration there is nothing to poll until the console answers once.
    for (let wait = 1_000; !fresh && !cached && !this.stopped; wait = Math.min(wait * 2, 60_000)) {
      await sleep(wait);
      fresh = await this.fetchConfig();
    }
    if (fresh && fresh.config_version !== cached?.config_version) await this.apply(fresh);
    this.scheduleHealth(5_000);
  }

  private scheduleHealth(delayMs: number): void {
    if (this.stopped) return;
    this.healthTimer = setTimeout(() => {
      void this.reportHealth().finally(() => this.scheduleHealth(this.options.healthIntervalMs ?? 60_000));
    }, delayMs);
  }

  healthBody(): EdgeHealthBody {
    const oldest = this.queue.oldestTs();
    return {
      agent_id: this.agentId,
      version: AGENT_VERSION,
      sent_at: new Date().toISOString(),
      queue_depth: this.queue.depth,
      oldest_unsent_at: oldest === null ? null : new Date(oldest).toISOString(),
      last_sent_at: this.sender.lastSentAt === null ? null : new Date(this.sender.lastSentAt).toISOString(),
      dropped_total: this.queue.counter('dropped_total'),
      poll_failures: this.pollFailures,
      uptime_s: Math.floor((Date.now() - this.startedAt) / 1000),
    };
  }

  async reportHealth(): Promise<void> {
    try {
      const answer = await this.client.health(this.healthBody());
      if (Math.abs(answer.clock_offset_ms) > CLOCK_WARN_MS) {
        this.options.log('warn', "the agent's clock is off the console's: readings carry the agent's clock", {
          clockOffsetMs: answer.clock_offset_ms,
        });
      }
      if (answer.config_version !== this.config?.config_version) {
        const fresh = await this.fetchConfig();
        if (fresh && !this.stopped) await this.apply(fresh);
      }
    } catch (error) {
      this.options.log(error instanceof ConsoleAnswerError ? 'warn' : 'debug', 'health report not taken', {
        err: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** SIGTERM: no new polls, the batch on the wire finishes, the queue closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.healthTimer);
    await this.poller?.stop();
    await this.sender.stop();
    await this.transport.close();
    this.queue.close();
  }
}
