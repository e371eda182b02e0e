/**
 * The agent forwarding over MQTT, against the real console and a Mosquitto of the test's own (the shipped
 * configuration, on a free port; the shared broker on 1883 is never touched): the console's app over HTTP
 * on its database (configuration and health) with its MQTT collectors started from config.mqtt, the
 * simulator's SunSpec Modbus TCP server as the device, and the agent as a child process with `--mqtt-url`.
 * The console's MQTT side goes away while the broker keeps taking (and PUBACKing) the agent's batches, then
 * the broker is killed with SIGKILL and started again a while later, losing what it held for the console;
 * the agent is killed with SIGKILL too. An agent that took the broker's PUBACK for an acknowledgement
 * would lose those batches. At the end every reading the
 * agent queued (its journal) is in the console's raw telemetry exactly once, the queue is empty, and the
 * readings came over MQTT: a batch leaves the queue only on the console's ack, sent after commit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEdgeMqtt } from '../../server/src/background';
import type { EdgeReadingsCollector } from '../../server/src/collectors/mqtt/edge-readings';
import { mosquittoAvailable, startOwnMosquitto, type OwnBroker } from '../../server/src/test/mosquitto';
import { dialectUnderTest } from '../../server/src/test/test-app';
import {
  openEdgeScene,
  POLLED_SIGNALS,
  sleep,
  storedBetween,
  until,
  type EdgeScene,
} from './test/edge-scene';

// In CI (REQUIRE_ALL_SUITES) a missing broker binary fails instead of skipping.
const skip = !mosquittoAvailable && !process.env.REQUIRE_ALL_SUITES;

describe.skipIf(skip)(`the edge agent forwarding over MQTT (${dialectUnderTest})`, () => {
  let broker: OwnBroker;
  let mqttConfig: { url: string; clientId: string; connections: number; shareGroup: string };
  let scene: EdgeScene;
  /** The console's edge collector started again after the broker's crash. */
  let edgeAgain: EdgeReadingsCollector | undefined;

  beforeAll(async () => {
    broker = await startOwnMosquitto();
    mqttConfig = { url: broker.url, clientId: 'solar-console', connections: 2, shareGroup: 'solar' };
    scene = await openEdgeScene({
      app: { mqtt: mqttConfig },
      agentArgs: [
        '--mqtt-url',
        broker.url,
        // A batch whose ack is lost with a killed broker goes again after this many seconds.
        '--ack-timeout',
        '5',
      ],
    });
  });
  afterAll(async () => {
    await edgeAgain?.stop();
    await scene?.close();
    await broker?.stop();
  });

  it('stores every reading it queued exactly once through broker and agent kills', async () => {
    const { t, storedCount } = scene;
    await scene.polling();
    await until(async () => (await storedCount()) > 0, 60_000, 'the first stored readings');

    // Killed at any moment while it polls and sends: what it queued goes after the restart.
    await sleep(1_500);
    await scene.killAgent();
    await scene.polling();
    await until(async () => (await storedCount()) > POLLED_SIGNALS * 4, 60_000, 'readings after the restart');

    // The console's MQTT side goes away: the broker keeps taking the agent's batches (PUBACK) and queues
    // them for the console's session. Then the broker dies with them and is away for a while.
    const edgeFirst = t.background()!.edgeMqtt!;
    await edgeFirst.stop();
    const before = await storedCount();
    const outageFrom = Date.now();
    await sleep(4_000);
    await broker.crash();
    await sleep(6_000);
    const outageTo = Date.now();
    await broker.start();
    edgeAgain = startEdgeMqtt(t.ctx, t.app.log, mqttConfig);
    await until(
      async () => (await storedCount()) > before + POLLED_SIGNALS * 6,
      90_000,
      'the backlog after the outage',
    );

    await scene.drainAndStop();
    const { stored, queued } = await scene.expectJournalStoredOnce();
    // Readings taken while the broker was down arrived afterwards (a poll a second of four signals).
    expect(storedBetween(stored, outageFrom, outageTo).length, scene.agentLog()).toBeGreaterThanOrEqual(
      POLLED_SIGNALS * 4,
    );
    // They came over MQTT, each point through the console's edge collector (resends count again there).
    const [first, again] = [edgeFirst.stats(), edgeAgain.stats()];
    expect(first.points + again.points).toBeGreaterThanOrEqual(queued.length);
    expect(first.unauthorised + first.invalid + first.rejected).toBe(0);
    expect(again.unauthorised + again.invalid + again.rejected).toBe(0);
    expect(scene.agentLog()).toContain('"readingsOver":"mqtt"');
  });
});
