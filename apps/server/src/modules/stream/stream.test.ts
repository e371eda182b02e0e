import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STREAM_MAX_CONNECTIONS_PER_USER, XSRF_COOKIE, XSRF_HEADER } from '@solar/shared';
import { makeTree, makeUser, pairs, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { StreamHub, type StreamSink } from './stream.hub';

interface SseEvent {
  event: string;
  data: unknown;
}

/** An open GET /api/stream read with fetch, as the console reads it: events parsed as they arrive. */
class StreamClient {
  readonly events: SseEvent[] = [];
  comments = 0;
  ended = false;
  private readonly abort = new AbortController();

  static async open(base: string, token: string): Promise<StreamClient> {
    const client = new StreamClient();
    const res = await fetch(`${base}/api/stream`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      signal: client.abort.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    void client.read(res.body!);
    return client;
  }

  private async read(body: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) this.comments++;
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) this.events.push({ event, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted
    }
    this.ended = true;
  }

  async next(event: string, after = 0): Promise<SseEvent> {
    return vi.waitFor(
      () => {
        const found = this.events.slice(after).find((e) => e.event === event);
        if (!found) throw new Error(`no ${event} event yet`);
        return found;
      },
      { timeout: 5_000, interval: 20 },
    );
  }

  async connectionId(): Promise<string> {
    return ((await this.next('hello')).data as { connection_id: string }).connection_id;
  }

  close() {
    this.abort.abort();
  }
}

describe(`live push stream (${dialectUnderTest})`, () => {
  let t: TestApp;
  let base: string;
  let admin: TestUser;
  let tree: Tree;
  let other: Tree;
  let xsrf: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Stream');
    other = await makeTree(t, admin.token, 'Elsewhere');
    xsrf = await t.http.primeXsrf();
  });
  afterAll(() => t.close());

  const subscribe = (connectionId: string, signalIds: unknown, token = admin.token) =>
    fetch(`${base}/api/stream/${connectionId}/subscriptions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        cookie: `${XSRF_COOKIE}=${xsrf}`,
        [XSRF_HEADER]: xsrf,
      },
      body: JSON.stringify({ signal_ids: signalIds }),
    });

  it('refuses a call without a token (401) and a plain call that does not ask for events (406)', async () => {
    const anonymous = await fetch(`${base}/api/stream`, { headers: { accept: 'text/event-stream' } });
    expect(anonymous.status).toBe(401);
    const plain = await fetch(`${base}/api/stream`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(plain.status).toBe(406);
  });

  it('says hello with a connection id, takes a subscription and pushes stored points', async () => {
    const client = await StreamClient.open(base, admin.token);
    const id = await client.connectionId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    const res = await subscribe(id, [tree.signalId, tree.signalId]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ signal_ids: [tree.signalId] });

    {
      const hub = t.ctx.telemetry;
      const ts = Date.now() - 1_000;
      await hub.store([
        { signal_id: tree.signalId, ts, value: 41.5 },
        { signal_id: other.signalId, ts, value: 7 },
      ]);
      const latest = await client.next('latest');
      expect(latest.data).toEqual([[tree.signalId, ts, 41.5]]);
      // Many points at once arrive coalesced: the newest value per signal.
      const before = client.events.length;
      await hub.store(
        Array.from({ length: 20 }, (_, i) => ({ signal_id: tree.signalId, ts: ts + 1 + i, value: i })),
      );
      const next = await client.next('latest', before);
      expect(next.data).toEqual([[tree.signalId, ts + 20, 19]]);
    }
    client.close();
  });

  it('answers 404 for a signal outside the scope, a missing signal, or someone else’s connection', async () => {
    const limited = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['dashboard'], ['view']),
    });
    const client = await StreamClient.open(base, limited.token);
    const id = await client.connectionId();
    expect((await subscribe(id, [tree.signalId], limited.token)).status).toBe(200);
    expect((await subscribe(id, [tree.signalId, other.signalId], limited.token)).status).toBe(404);
    expect((await subscribe(id, [2_000_000_000], limited.token)).status).toBe(404);
    // The admin reaches every signal but not another user's connection.
    expect((await subscribe(id, [tree.signalId])).status).toBe(404);
    expect((await subscribe('x'.repeat(24), [tree.signalId])).status).toBe(404);
    expect((await subscribe(id, 'nope', limited.token)).status).toBe(400);
    // Without the dashboard page a user may hold a stream but not watch values.
    const blind = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['alarm'], ['view']) });
    const blindClient = await StreamClient.open(base, blind.token);
    expect((await subscribe(await blindClient.connectionId(), [tree.signalId], blind.token)).status).toBe(
      403,
    );
    client.close();
    blindClient.close();
  });

  it('publishes plant events only to connections whose owner may see the plant', async () => {
    const insider = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['alarm'], ['view']) });
    const outsider = await makeUser(t, {
      companyId: other.companyId,
      permissions: pairs(['alarm'], ['view']),
    });
    const a = await StreamClient.open(base, insider.token);
    const b = await StreamClient.open(base, outsider.token);
    await Promise.all([a.connectionId(), b.connectionId()]);
    const sent = await t.ctx.stream.publishToPlant(tree.plantId, 'alarm', { id: 1 }, { page: 'alarm' });
    expect(sent).toBeGreaterThanOrEqual(1);
    expect((await a.next('alarm')).data).toEqual({ id: 1 });
    await new Promise((r) => setTimeout(r, 100));
    expect(b.events.some((e) => e.event === 'alarm')).toBe(false);
    a.close();
    b.close();
  });

  it('forgets a connection when the client goes away, and caps connections per user', async () => {
    const hub = t.ctx.stream;
    await vi.waitFor(() => expect(hub.size).toBe(0), { timeout: 5_000 });
    const user = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['dashboard'], ['view']),
    });
    const clients = await Promise.all(
      Array.from({ length: STREAM_MAX_CONNECTIONS_PER_USER }, () => StreamClient.open(base, user.token)),
    );
    await Promise.all(clients.map((c) => c.connectionId()));
    expect(hub.size).toBe(STREAM_MAX_CONNECTIONS_PER_USER);
    const refused = await fetch(`${base}/api/stream`, {
      headers: { authorization: `Bearer ${user.token}`, accept: 'text/event-stream' },
    });
    expect(refused.status).toBe(429);
    const id = await clients[0]!.connectionId();
    for (const c of clients) c.close();
    await vi.waitFor(() => expect(hub.size).toBe(0), { timeout: 5_000 });
    expect((await subscribe(id, [tree.signalId], user.token)).status).toBe(404);
  });
});

describe('StreamHub', () => {
  const sinkLog = () => {
    const chunks: string[] = [];
    const sink: StreamSink = {
      write: (c) => (chunks.push(c), true),
      onceDrain: () => undefined,
      end: () => undefined,
    };
    return { chunks, sink };
  };
  const owner = { userId: 1, scope: { all: true } as const, can: () => true, tokenIat: 0, tokenExp: 2e9 };

  it('sends at most one latest event per interval, newest value per signal, never an older one', async () => {
    vi.useFakeTimers();
    try {
      let listener: (
        points: { signal_id: number; ts: number; value: number; device_id: number; plant_id: number }[],
      ) => void = () => undefined;
      const hub = new StreamHub(
        { onStored: (l) => ((listener = l as typeof listener), () => undefined) },
        { plantReachable: () => Promise.resolve(true), sessionStates: () => Promise.resolve(new Map()) },
        () => Date.now(),
      );
      const { chunks, sink } = sinkLog();
      const id = hub.open(owner, sink);
      hub.setSubscriptions(id, [5]);
      const point = (ts: number, value: number) => ({ signal_id: 5, ts, value, device_id: 1, plant_id: 1 });
      listener([point(100, 1)]);
      await vi.advanceTimersByTimeAsync(0);
      listener([point(200, 2)]);
      listener([point(300, 3), point(150, 9)]);
      await vi.advanceTimersByTimeAsync(100);
      expect(chunks.filter((c) => c.startsWith('event: latest'))).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(200);
      listener([point(250, 4)]);
      await vi.advanceTimersByTimeAsync(500);
      expect(chunks.filter((c) => c.startsWith('event: latest'))).toEqual([
        'event: latest\ndata: [[5,100,1]]\n\n',
        'event: latest\ndata: [[5,300,3]]\n\n',
      ]);
      hub.shutdown();
      expect(hub.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
  it('on resync tells every connection and sends the stored latest values it has not sent yet', async () => {
    let listener: (
      points: { signal_id: number; ts: number; value: number; device_id: number; plant_id: number }[],
    ) => void = () => undefined;
    // What the database holds after other nodes stored values this node did not hear of.
    const stored = new Map([
      [5, { ts: 300, value: 3 }],
      [6, { ts: 100, value: 1 }],
      [7, { ts: 900, value: 9 }],
    ]);
    const asked: number[][] = [];
    const hub = new StreamHub(
      { onStored: (l) => ((listener = l as typeof listener), () => undefined) },
      {
        plantReachable: () => Promise.resolve(true),
        // Resync checks the sessions at once: both users are active, their tokens valid.
        sessionStates: (ids) =>
          Promise.resolve(new Map(ids.map((id) => [id, { active: true, validAfter: 0, sessionKey: '' }]))),
        latestValues: (ids) => {
          asked.push([...ids].sort());
          return Promise.resolve(new Map([...stored].filter(([id]) => ids.includes(id))));
        },
      },
      () => Date.now(),
    );
    const one = sinkLog();
    const other = sinkLog();
    hub.setSubscriptions(hub.open(owner, one.sink), [5, 6]);
    hub.open({ ...owner, userId: 2 }, other.sink);
    listener([{ signal_id: 6, ts: 100, value: 1, device_id: 1, plant_id: 1 }]);
    await vi.waitFor(() => expect(one.chunks.filter((c) => c.startsWith('event: latest'))).toHaveLength(1));
    await hub.resync();
    expect(asked).toEqual([[5, 6]]);
    for (const { chunks } of [one, other])
      expect(chunks.filter((c) => c.startsWith('event: resync'))).toEqual([
        'event: resync\ndata: {"reason":"cluster"}\n\n',
      ]);
    // Signal 6's value was sent already; 5's was missed; 7 is not watched.
    await vi.waitFor(() =>
      expect(one.chunks.filter((c) => c.startsWith('event: latest'))).toEqual([
        'event: latest\ndata: [[6,100,1]]\n\n',
        'event: latest\ndata: [[5,300,3]]\n\n',
      ]),
    );
    expect(other.chunks.some((c) => c.startsWith('event: latest'))).toBe(false);
    expect(hub.size).toBe(2);
    hub.shutdown();
  });
});
