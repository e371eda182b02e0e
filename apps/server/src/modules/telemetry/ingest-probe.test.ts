import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestCountsAnswer, TelemetryIngestAnswer } from '@solar/shared';
import { makeTree, makeUser, pairs, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

/**
 * Outside attack, 2026-11-28: ingest answered `out_of_scope` for another company's signal and
 * `unknown_signal` for an id that does not exist, so one ingest key could map which signal ids other
 * companies have. Both now answer the same; the key's owner still sees them counted on the key's device.
 */
describe(`ingest answers do not reveal other companies' signals (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let mine: Tree;
  let foreign: Tree;
  let deviceKey: string;
  let plantKey: string;
  let operator: TestUser;
  const NOWHERE = 987_654;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    mine = await makeTree(t, admin.token, 'Mine');
    foreign = await makeTree(t, admin.token, 'Foreign');
    const keyOf = async (url: string) =>
      (await t.http.post(url, {}, { token: admin.token })).json<{ key: string }>().key;
    deviceKey = await keyOf(`/api/devices/${mine.deviceId}/ingest-key`);
    plantKey = await keyOf(`/api/plants/${mine.plantId}/ingest-key`);
    operator = await makeUser(t, {
      companyId: mine.companyId,
      permissions: [...pairs(['dashboard'], ['view']), ...pairs(['device_management'], ['update'])],
    });
  });
  afterAll(() => t.close());

  const senders = () => [
    { name: 'device key', headers: { 'x-api-key': deviceKey }, xsrf: false },
    { name: 'plant key', headers: { 'x-api-key': plantKey }, xsrf: false },
    { name: 'user token', token: operator.token },
  ];

  /** The answer to one point for `signalId`, with the id itself taken out. */
  async function answerFor(sender: ReturnType<typeof senders>[number], signalId: number, ts: number) {
    const res = await t.http.post(
      '/api/telemetry',
      { points: [{ signal_id: signalId, ts, value: 1 }] },
      sender,
    );
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<TelemetryIngestAnswer>();
    return JSON.stringify({
      ...answer,
      rejected: answer.rejected.map((r) => ({ ...r, signal_id: 'x' })),
    });
  }

  it('answers a foreign signal id exactly as a nonexistent one, for keys and tokens alike', async () => {
    const ts = Date.now() - 60_000;
    for (const sender of senders()) {
      const foreignAnswer = await answerFor(sender, foreign.signalId, ts);
      const nowhereAnswer = await answerFor(sender, NOWHERE, ts);
      expect(foreignAnswer, sender.name).toBe(nowhereAnswer);
      expect(JSON.parse(foreignAnswer), sender.name).toMatchObject({
        stored: 0,
        rejected: [{ index: 0, reason: 'unknown_signal' }],
      });
    }
  });

  it("counts both on the key's own device, where its owner looks, and nothing on the foreign one", async () => {
    const counts = async (deviceId: number) => {
      const res = await t.http.get(`/api/devices/${deviceId}/ingest-counts`, { token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
      const items = res.json<IngestCountsAnswer>().items;
      return Object.fromEntries(items.map((i) => [i.reason, i.count]));
    };
    const before = (await counts(mine.deviceId)).unknown_signal ?? 0;
    const ts = Date.now() - 30_000;
    const res = await t.http.post(
      '/api/telemetry',
      {
        points: [
          { signal_id: foreign.signalId, ts, value: 1 },
          { signal_id: NOWHERE, ts, value: 1 },
        ],
      },
      { headers: { 'x-api-key': deviceKey }, xsrf: false },
    );
    expect(res.json<TelemetryIngestAnswer>().rejected.map((r) => r.reason)).toEqual([
      'unknown_signal',
      'unknown_signal',
    ]);
    await t.ctx.ingestCounts.flush();
    expect((await counts(mine.deviceId)).unknown_signal).toBe(before + 2);
    expect(await counts(foreign.deviceId)).toEqual({});
  });
});
