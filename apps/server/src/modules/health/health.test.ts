import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`health (${dialectUnderTest})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 200 with the database status and sets the anti-forgery cookie', async () => {
    const res = await t.http.get('/api/health', { xsrf: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: { dialect: dialectUnderTest, ok: true } });
    const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(cookie?.sameSite).toBe('Strict');
    expect(cookie?.httpOnly).toBeFalsy();
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('names this node and the holder of the jobs lease, which a lone node holds', async () => {
    const res = await t.http.get('/api/health', { xsrf: false });
    const { cluster } = res.json<{ cluster: Record<string, unknown> }>();
    expect(cluster).toMatchObject({
      node: t.ctx.config.cluster.nodeId,
      transport: dialectUnderTest === 'postgres' ? 'postgres' : 'local',
      leaseHolder: t.ctx.config.cluster.nodeId,
      leaseGeneration: 1,
      thisNodeHoldsLease: true,
    });
  });

  it('matches paths case-insensitively', async () => {
    expect((await t.http.get('/API/Health')).statusCode).toBe(200);
  });

  it('answers an unknown API path with a 404 problem', async () => {
    const res = await t.http.get('/api/no-such-thing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, title: 'Not Found', detail: 'errors.notFound' });
  });

  it('answers 503 when the database is unreachable', async () => {
    const other = await createTestApp();
    await other.ctx.db.destroy();
    const res = await other.http.get('/api/health', { xsrf: false });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'unavailable', database: { ok: false } });
    await other.close().catch((e: unknown) => console.warn('close', e)); // the pool is already gone; close still cleans up
  });
});
