/**
 * The agent as it runs at a plant, against the real console: the console's app over HTTP on its database,
 * the simulator's SunSpec Modbus TCP server as the device, and the agent as a child process. The agent is
 * killed with SIGKILL mid-stream several times and started again, the console stops listening for a while
 * and comes back, and at the end every reading the agent ever queued (its journal, written in the queue's
 * own transactions) is in the console's raw telemetry exactly once: no gap, no extra.
 *
 * The agent talks to the console itself: its configuration from GET /api/edge/config, its health to POST
 * /api/edge/health (read back from the console's table of agents), its readings to the ingest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectUnderTest } from '../../server/src/test/test-app';
import {
  openEdgeScene,
  POLLED_SIGNALS,
  sleep,
  storedBetween,
  until,
  type EdgeScene,
} from './test/edge-scene';

describe(`the edge agent forwarding to the console (${dialectUnderTest})`, () => {
  let scene: EdgeScene;

  beforeAll(async () => {
    scene = await openEdgeScene({});
  });
  afterAll(async () => {
    await scene?.close();
  });

  it('stores every reading it queued exactly once through kills and a console outage', async () => {
    const { t, consolePort, storedCount } = scene;
    await scene.polling();
    await until(async () => (await storedCount()) > 0, 60_000, 'the first stored readings');

    // Killed at any moment while it polls and sends, three times: what it queued is sent after the restart.
    for (const afterMs of [1_500, 2_700, 900]) {
      await sleep(afterMs);
      await scene.killAgent();
      await scene.polling();
    }

    // The console goes away for a while: the agent keeps polling into its queue.
    const server = t.app.server;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    const before = await storedCount();
    const outageFrom = Date.now();
    await sleep(4_000);
    // Killed while the console is down too.
    await scene.killAgent();
    await scene.polling();
    await sleep(2_000);
    const outageTo = Date.now();
    await new Promise<void>((resolve) => server.listen(consolePort, '127.0.0.1', resolve));
    await until(
      async () => (await storedCount()) > before + POLLED_SIGNALS * 8,
      60_000,
      'the backlog after the outage',
    );

    await scene.drainAndStop();
    const { stored, queued } = await scene.expectJournalStoredOnce();
    // Readings taken while the console was down arrived afterwards (a poll a second of four signals,
    // less the agent's restart during the outage).
    expect(storedBetween(stored, outageFrom, outageTo).length, scene.agentLog()).toBeGreaterThanOrEqual(
      POLLED_SIGNALS * 4,
    );
    expect(queued.length).toBeGreaterThan(POLLED_SIGNALS * 10);
  });
});
