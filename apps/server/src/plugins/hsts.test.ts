import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';

/**
 * Strict-Transport-Security (outside attack, 2026-11-28): a console served over https tells browsers to
 * come back over https only, so a first plain-http visit cannot be downgraded; over http it says nothing
 * (a browser ignores the header there, and a console on http must stay reachable).
 */
describe(`Strict-Transport-Security (${dialectUnderTest})`, () => {
  let https: TestApp;
  let http: TestApp;

  beforeAll(async () => {
    [https, http] = await Promise.all([
      createTestApp({ publicUrl: 'https://console.example.com' }),
      createTestApp({ publicUrl: 'http://localhost:8080' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([https.close(), http.close()]);
  });

  it('is sent on every answer when PUBLIC_URL is https', async () => {
    for (const url of ['/api/health', '/api/no-such-route', '/api/plants']) {
      const res = await https.app.inject({ method: 'GET', url });
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000');
    }
  });

  it('is not sent when PUBLIC_URL is http', async () => {
    for (const url of ['/api/health', '/api/no-such-route', '/api/plants']) {
      const res = await http.app.inject({ method: 'GET', url });
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });
});
