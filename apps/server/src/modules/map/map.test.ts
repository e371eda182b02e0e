import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E, type MapSettingsAnswer } from '@solar/shared';
import { makeUser, pairs, type TestUser } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

describe(`map settings and the tile server in the CSP (${dialectUnderTest})`, () => {
  let t: TestApp;
  let custom: TestApp;
  let viewer: TestUser;
  let noMap: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    custom = await createTestApp({
      map: { tileUrl: 'https://{s}.tiles.example.net/base/{z}/{x}/{y}.png', tileAttribution: '© Example' },
    });
    viewer = await makeUser(t, { permissions: pairs(['map'], ['view']) });
    noMap = await makeUser(t, { permissions: pairs(['plant'], ['view']) });
  });
  afterAll(async () => {
    await t?.close();
    await custom?.close();
  });

  it('answers the configured tile server (OpenStreetMap by default) to a map viewer', async () => {
    const res = await t.http.get('/api/map/settings', { token: viewer.token });
    expect(res.statusCode).toBe(200);
    expect(res.json<MapSettingsAnswer>()).toEqual({
      tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      tile_attribution: '© OpenStreetMap contributors',
    });
    const admin = await makeUser(custom, { admin: true });
    const configured = await custom.http.get('/api/map/settings', { token: admin.token });
    expect(configured.json<MapSettingsAnswer>().tile_url).toBe(
      'https://{s}.tiles.example.net/base/{z}/{x}/{y}.png',
    );
  });

  it('refuses no token (401) and a caller without the map page (403)', async () => {
    expect((await t.http.get('/api/map/settings')).statusCode).toBe(401);
    const denied = await t.http.get('/api/map/settings', { token: noMap.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ detail: E.forbidden });
  });

  it('lets images come from the tile server and from no other host', async () => {
    const csp = (app: TestApp) =>
      app.http.get('/api/health').then((r) => String(r.headers['content-security-policy']));
    const imgSrc = (policy: string) => /img-src ([^;]+)/.exec(policy)?.[1]?.split(' ');
    expect(imgSrc(await csp(t))).toEqual(["'self'", 'data:', 'blob:', 'https://tile.openstreetmap.org']);
    expect(imgSrc(await csp(custom))).toEqual(["'self'", 'data:', 'blob:', 'https://*.tiles.example.net']);
  });
});
