// `npm test`: every test suite, in order, with one summary at the end. Suites that need something this
// machine lacks (PostgreSQL, Chromium) are reported as skipped, never silently dropped.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAll, ensureInstalled, root, runOutcome, runStatus } from './lib.mjs';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MQTT_URL = process.env.TEST_MQTT_URL || 'mqtt://127.0.0.1:1883';
// e.g. `npm test -- server e2e`: a suite's exact name runs that suite alone, any other word every suite whose
// name starts with it (`edge` is the edge suite, `server` both server suites).
const only = process.argv.slice(2);

ensureInstalled();

async function postgresReachable() {
  const { default: pg } = await import(path.join(root, 'node_modules/pg/lib/index.js'));
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** True when something accepts TCP connections at the broker's host and port. */
function brokerReachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) || 1883, timeout: 2000 });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

// MQTT tests live inside the simulator and server suites; they read TEST_MQTT_URL and skip when it is empty.
const mqttMissing = (await brokerReachable(MQTT_URL)) ? null : `no MQTT broker at ${MQTT_URL}`;
process.env.TEST_MQTT_URL = mqttMissing ? '' : MQTT_URL;
if (mqttMissing) {
  const consequence = process.env.REQUIRE_ALL_SUITES ? 'failing (REQUIRE_ALL_SUITES is set)' : 'skipping';
  console.log(`\n■ ${mqttMissing}: ${consequence} the MQTT tests of the simulator and server suites`);
}

const suites = [
  { name: 'shared', root: 'packages/shared' },
  { name: 'i18n', root: 'packages/i18n' },
  { name: 'pv-model', root: 'packages/pv-model' },
  { name: 'modbus', root: 'packages/modbus' },
  { name: 'web', root: 'apps/web' },
  { name: 'simulator', root: 'apps/simulator' },
  { name: 'edge', root: 'apps/edge', env: { TEST_DATABASE_URL: '' } },
  // The agent's end-to-end tests (HTTPS and MQTT) against a console on PostgreSQL too (it acknowledges there).
  {
    name: 'edge-postgres',
    root: 'apps/edge',
    env: { TEST_DATABASE_URL: PG_URL },
    args: ['src/agent.e2e.test.ts', 'src/agent-mqtt.e2e.test.ts'],
    skip: async () => ((await postgresReachable()) ? null : `no PostgreSQL answering at ${PG_URL}`),
  },
  { name: 'server-sqlite', root: 'apps/server', env: { TEST_DATABASE_URL: '' } },
  {
    name: 'server-postgres',
    root: 'apps/server',
    env: { TEST_DATABASE_URL: PG_URL },
    skip: async () => ((await postgresReachable()) ? null : `no PostgreSQL answering at ${PG_URL}`),
  },
  {
    name: 'e2e',
    root: 'e2e',
    env: { CHROMIUM_PATH: CHROMIUM },
    skip: async () =>
      existsSync(CHROMIUM) ? null : `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`,
    before: buildAll,
  },
];

/** Whether the word `o` of the command line chooses the suite `name` (see `only`). */
function chosen(name, o) {
  return suites.some((s) => s.name === o) ? name === o : name.startsWith(o);
}

const reportDir = mkdtempSync(path.join(tmpdir(), 'solar-test-report-'));
const results = [];
for (const suite of suites) {
  if (only.length && !only.some((o) => chosen(suite.name, o))) continue;
  const reason = suite.skip ? await suite.skip() : null;
  if (reason && process.env.REQUIRE_ALL_SUITES) {
    console.log(`\n■ FAILED ${suite.name}: ${reason} (REQUIRE_ALL_SUITES is set)`);
    results.push({ name: suite.name, passed: 0, failed: 1, skipped: 0 });
    continue;
  }
  if (reason) {
    console.log(`\n■ SKIPPED ${suite.name}: ${reason}`);
    results.push({ name: suite.name, skippedSuite: reason });
    continue;
  }
  const started = Date.now();
  suite.before?.();
  console.log(`\n■ ${suite.name}`);
  const report = path.join(reportDir, `${suite.name}.json`);
  const status = runStatus(
    'npx',
    [
      'vitest',
      'run',
      '--root',
      suite.root,
      '--passWithNoTests',
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${report}`,
      ...(suite.args ?? []),
    ],
    { env: { ...process.env, ...suite.env } },
  );
  results.push({ name: suite.name, seconds: (Date.now() - started) / 1000, ...runOutcome(report, status) });
}
rmSync(reportDir, { recursive: true, force: true });

console.log('\n──────── summary ────────');
const total = { passed: 0, failed: 0, skipped: 0 };
for (const r of results) {
  if (r.skippedSuite) {
    console.log(`${r.name.padEnd(16)} SKIPPED (${r.skippedSuite})`);
    continue;
  }
  // The wall time, build included: CI has a time limit, and this is where its minutes go.
  const time = r.seconds === undefined ? '' : `  (${(r.seconds / 60).toFixed(1)} min)`;
  console.log(`${r.name.padEnd(16)} ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped${time}`);
  for (const f of r.failures) console.log(`  ✗ ${f}`);
  for (const k of Object.keys(total)) total[k] += r[k];
}
if (mqttMissing) console.log(`MQTT tests skipped: ${mqttMissing}`);
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 || (mqttMissing && process.env.REQUIRE_ALL_SUITES) ? 1 : 0);
