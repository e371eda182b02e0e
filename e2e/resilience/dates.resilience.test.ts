/**
 * Dates (outside attack, 2026-11-28; docs/security.md "Dates and ranges"), over HTTP against the built
 * server: the three findings of one GET that hung or bloated the server answer 4xx within a second, for
 * the demo operator who found them, while /api/health keeps answering; the server's memory stays put and
 * it still stops on SIGTERM.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../src/console';
import { databaseEnv, removeDataDir, report, sleep, startConsole, type ConsoleProcess } from './harness';

const OPERATOR = { email: 'operator@example.com', password: 'Solar!Operator1' };
const ANSWER_WITHIN_MS = 1000;
const HEALTH_EVERY_MS = 100;

describe('dates: one GET neither hangs nor bloats the server', { timeout: 180_000 }, () => {
  let server: ConsoleProcess;
  let operator: ApiClient;
  let plantId: number;

  beforeAll(async () => {
    server = await startConsole({ env: databaseEnv() });
    operator = await ApiClient.login(server.url, OPERATOR.email, OPERATOR.password);
    const { plants } = await operator.get<{ plants: { id: number }[] }>('telemetry/catalog');
    plantId = plants[0]!.id;
  });
  afterAll(async () => {
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
  });

  /** One GET as the operator: its status and time; a second past the bound is a failure, not a wait. */
  async function get(apiPath: string) {
    const started = performance.now();
    try {
      const res = await fetch(`${server.url}/api/${apiPath}`, {
        headers: { authorization: `Bearer ${operator.sessionToken}` },
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS * 5),
      });
      await res.text();
      return { status: res.status, ms: performance.now() - started };
    } catch {
      return { status: 0, ms: performance.now() - started };
    }
  }

  it('answers the findings with 4xx within a second while /api/health keeps answering', async () => {
    const findings = [
      `telemetry/energy?plant_id=${plantId}&from=9999-12-31&to=9999-12-31`,
      `reports/production?plant_ids=${plantId}&from=9999-12-31&to=9999-12-31`,
      ...['9999-12-31', '0000-01-01', '0001-01-01', '2026-02-30'].map(
        (date) => `plants/${plantId}/kpis?period=year&date=${date}`,
      ),
    ];
    const rssBeforeMiB = server.rssMiB();
    // Health polled all along: any answer slower than a second means the loop was held.
    const healthMs: number[] = [];
    let attacking = true;
    const poller = (async () => {
      while (attacking) {
        healthMs.push((await get('health')).ms);
        await sleep(HEALTH_EVERY_MS);
      }
    })();
    const answers: { path: string; status: number; ms: number }[] = [];
    for (let round = 0; round < 3; round++)
      for (const path of findings) answers.push({ path, ...(await get(path)) });
    attacking = false;
    await poller;
    const health = await get('health');
    const rssAfterMiB = server.rssMiB();

    const slowest = Math.max(...answers.map((a) => a.ms));
    const healthSlowest = Math.max(...healthMs);
    report('dates', {
      requests: answers.length,
      slowest_ms: Math.round(slowest),
      health_checks: healthMs.length,
      health_slowest_ms: Math.round(healthSlowest),
      rss_before_mib: rssBeforeMiB,
      rss_after_mib: rssAfterMiB,
    });
    for (const a of answers) {
      expect(a.status, a.path).toBeGreaterThanOrEqual(400);
      expect(a.status, a.path).toBeLessThan(500);
      expect(a.ms, a.path).toBeLessThan(ANSWER_WITHIN_MS);
    }
    expect(health.status).toBe(200);
    expect(healthMs.length).toBeGreaterThan(0);
    expect(healthSlowest).toBeLessThan(ANSWER_WITHIN_MS);
    // The report finding grew the server by gigabytes; refused requests allocate next to nothing.
    expect(rssAfterMiB - rssBeforeMiB).toBeLessThan(200);
  });

  it('still stops on SIGTERM', async () => {
    const started = performance.now();
    await server.stop();
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});
