/**
 * The edge agent's command (docs/edge.md):
 *   node apps/edge/dist/cli.js --console https://console.example --key $KEY [--data-dir /var/lib/solar-edge]
 *     [--backlog-rate 10] [--backlog-in-flight 2] [--batch-size 10000] [--max-rows 60480000] [--log-level info]
 *     [--mqtt-url mqtts://broker:8883] [--ack-timeout 30]
 * Each option also reads from the environment: EDGE_CONSOLE_URL, EDGE_KEY, EDGE_DATA_DIR, EDGE_BACKLOG_RATE,
 * EDGE_BACKLOG_IN_FLIGHT, EDGE_BATCH_SIZE, EDGE_MAX_ROWS, EDGE_LOG_LEVEL, EDGE_MQTT_URL, EDGE_ACK_TIMEOUT_S (a
 * key in the environment stays out of `ps`). The broker's credentials and CA come from the environment only:
 * EDGE_MQTT_USERNAME, EDGE_MQTT_PASSWORD, EDGE_MQTT_CA_FILE.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Agent } from './agent';
import { jsonLog, type Level } from './log';

const { values } = parseArgs({
  options: {
    console: { type: 'string' },
    key: { type: 'string' },
    'data-dir': { type: 'string' },
    'backlog-rate': { type: 'string' },
    'backlog-in-flight': { type: 'string' },
    'batch-size': { type: 'string' },
    'max-rows': { type: 'string' },
    'health-interval': { type: 'string' },
    'log-level': { type: 'string' },
    'mqtt-url': { type: 'string' },
    'ack-timeout': { type: 'string' },
  },
});
const env = process.env;
const consoleUrl = values.console ?? env.EDGE_CONSOLE_URL;
const key = values.key ?? env.EDGE_KEY;
const number = (text: string | undefined) => (text === undefined || text === '' ? undefined : Number(text));
const mqttUrl = values['mqtt-url'] ?? env.EDGE_MQTT_URL;
const log = jsonLog((values['log-level'] ?? env.EDGE_LOG_LEVEL ?? 'info') as Level);

if (!consoleUrl || !key) {
  process.stderr.write('usage: solar-edge --console <url> --key <plant ingest key> [--data-dir <dir>]\n');
  process.exit(2);
}

const agent = new Agent({
  consoleUrl,
  key,
  dataDir: values['data-dir'] ?? env.EDGE_DATA_DIR ?? '/var/lib/solar-edge',
  log,
  backlogBatchesPerSecond: number(values['backlog-rate'] ?? env.EDGE_BACKLOG_RATE),
  backlogInFlight: number(values['backlog-in-flight'] ?? env.EDGE_BACKLOG_IN_FLIGHT),
  batchSize: number(values['batch-size'] ?? env.EDGE_BATCH_SIZE),
  maxRows: number(values['max-rows'] ?? env.EDGE_MAX_ROWS),
  healthIntervalMs: (number(values['health-interval'] ?? env.EDGE_HEALTH_INTERVAL_S) ?? 60) * 1000,
  journal: env.EDGE_JOURNAL === '1',
  mqtt: mqttUrl
    ? {
        url: mqttUrl,
        username: env.EDGE_MQTT_USERNAME || undefined,
        password: env.EDGE_MQTT_PASSWORD || undefined,
        ca: env.EDGE_MQTT_CA_FILE ? readFileSync(env.EDGE_MQTT_CA_FILE) : undefined,
        ackTimeoutMs: (number(values['ack-timeout'] ?? env.EDGE_ACK_TIMEOUT_S) ?? 30) * 1000,
      }
    : undefined,
});

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  log('info', 'stopping', { signal });
  agent.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      log('error', 'stop failed', { err: String(error) });
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

log('info', 'starting', {
  agentId: agent.agentId,
  console: consoleUrl,
  readingsOver: mqttUrl ? 'mqtt' : 'https',
  queued: agent.queue.depth,
});
await agent.start();
