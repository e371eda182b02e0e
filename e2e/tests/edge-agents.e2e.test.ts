import { createHash, createHmac, randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeReadingsTopic, type CollectorsHealth } from '@solar/shared';
import { startOwnMosquitto, type OwnBroker } from '../../apps/server/src/test/mosquitto';
import { DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectText, openAs, t } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

/**
 * The admin panel's collection health lists the plants' edge agents, a clock off by more than 5 s marked,
 * and what agents forwarded over MQTT (through a broker of the test's own): a batch refused whole marks the
 * MQTT state as a problem.
 */
describe('edge agents on the admin panel', () => {
  let broker: OwnBroker;
  let server: RunningServer;
  let browser: Browser;
  let plantName: string;

  /** A health report as an agent sends it: its plant's key, no cookie. */
  const report = async (key: string, agentId: string, offsetMs: number) => {
    const res = await fetch(`${server.url}/api/edge/health`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({
        agent_id: agentId,
        version: '1.2.3',
        sent_at: new Date(Date.now() + offsetMs).toISOString(),
        queue_depth: 42,
        oldest_unsent_at: new Date(Date.now() - 90_000).toISOString(),
        last_sent_at: new Date(Date.now() - 2_000).toISOString(),
        dropped_total: 5,
        poll_failures: 2,
        uptime_s: 7200,
      }),
    });
    expect(res.status, await res.text()).toBe(200);
  };

  /** Batches as an agent publishes them, signed with `signingKey` (docs/edge.md, "Forwarding over MQTT"). */
  const publishBatches = async (plantId: number, batches: { signingKey: string; signalId: number }[]) => {
    const client = await mqtt.connectAsync(broker.url, { clientId: 'edge-e2e', protocolVersion: 5 });
    try {
      for (const { signingKey, signalId } of batches) {
        const payload = Buffer.from(
          JSON.stringify({
            batch_id: randomUUID(),
            points: [{ signal_id: signalId, ts: Date.now() - 60_000, value: 1 }],
          }),
        );
        const keyHash = createHash('sha256').update(signingKey).digest('hex');
        await client.publishAsync(edgeReadingsTopic(plantId, 'edge-good'), payload, {
          qos: 1,
          properties: {
            userProperties: { mac: createHmac('sha256', keyHash).update(payload).digest('hex') },
          },
        });
      }
    } finally {
      await client.endAsync();
    }
  };

  beforeAll(async () => {
    broker = await startOwnMosquitto();
    [server, browser] = await Promise.all([
      startServer({
        SIMULATOR: 'false',
        MODBUS_POLLER: 'false',
        MQTT_URL: broker.url,
        MQTT_CONNECTIONS: '1',
      }),
      launchBrowser(),
    ]);
    const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    const plant = (await api.get<{ items: { id: number; name: string }[] }>('plants?sort=name&pageSize=1'))
      .items[0]!;
    plantName = plant.name;
    const { key } = await api.post<{ key: string }>(`plants/${plant.id}/ingest-key`, undefined);
    await report(key, 'edge-good', 200);
    await report(key, 'edge-skewed', 9_000);
    // One batch signed with the plant's key whose point names no signal of the plant (refused one by one),
    // and one signed with another key (refused whole).
    await publishBatches(plant.id, [
      { signingKey: key, signalId: 2_000_000_000 },
      { signingKey: 'sk_not-the-plants-key', signalId: 2_000_000_000 },
    ]);
    const end = Date.now() + 30_000;
    for (;;) {
      const { edgeMqtt } = await api.get<CollectorsHealth>('health/collectors');
      if (edgeMqtt?.stored === 1 && edgeMqtt.unauthorised === 1) break;
      if (Date.now() > end) throw new Error(`the batches were not handled: ${JSON.stringify(edgeMqtt)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await broker?.stop();
  });

  for (const [width, locale] of [
    [390, 'tr_TR'],
    [1440, 'mk_MK'],
  ] as const) {
    it(`shows every agent at ${width} px (${locale}), the skewed clock first and marked`, async () => {
      const { page, errors, close } = await openAs(browser, server.url, DEMO.admin, '/admin-panel', {
        locale,
        theme: 'light',
        width,
      });
      try {
        await page.getByTestId('admin-panel').waitFor({ timeout: 45_000 });
        await page.getByRole('tab', { name: t(locale, 'admin.tabs.health') }).dispatchEvent('click');
        const table = page.getByTestId('edge-agents-table');
        const rows = table.locator('tbody tr.ant-table-row');
        await rows.nth(1).waitFor({ timeout: 30_000 });
        expect(await rows.count()).toBe(2);
        // Problems first: the skewed agent's row, its offset marked, then the good one.
        const first = (await rows.nth(0).textContent()) ?? '';
        expect(first).toContain('edge-skewed');
        expect(first).toContain(plantName);
        await page.getByTestId('agent-clock-edge-skewed').waitFor();
        expect(await rows.nth(1).textContent()).toContain('edge-good');
        expect(await page.getByTestId('agent-clock-edge-good').count()).toBe(0);
        await expectText(
          page.getByTestId('edge-agents').locator('.ant-alert-title'),
          t(locale, 'admin.health.agents.summary').replace('{{agents}}', '2').replace('{{problems}}', '1'),
        );
        // What agents forwarded over MQTT, in the MQTT state, marked as a problem for the unsigned batch.
        const edgeLine = t(locale, 'admin.health.mqtt.edge')
          .replace('{{state}}', t(locale, 'admin.health.mqtt.edgeConnected'))
          .replace('{{batches}}', '1')
          .replace('{{points}}', '0')
          .replace('{{rejected}}', '1')
          .replace('{{invalid}}', '0')
          .replace('{{unauthorised}}', '1');
        await expectText(page.getByTestId('edge-mqtt-health'), edgeLine);
        expect(await page.getByTestId('mqtt-health').getAttribute('class')).toContain('ant-alert-error');
        const head = (await table.locator('thead').textContent()) ?? '';
        for (const column of [
          'agent',
          'version',
          'lastReport',
          'queue',
          'oldestUnsent',
          'dropped',
          'clockOffset',
        ])
          expect(head).toContain(t(locale, `admin.health.agents.${column}`));
        // The page does not overflow the screen: the table scrolls inside its own box.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(1);
        await page.getByTestId('edge-agents').scrollIntoViewIfNeeded();
        await screenshot(page, `edge-agents-${width}`);
        expect(errors).toEqual([]);
      } catch (error) {
        await screenshot(page, `failed-edge-agents-${width}`).catch(() => undefined);
        throw error;
      } finally {
        await close();
      }
    }, 120_000);
  }
});
