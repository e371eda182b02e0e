import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, dialectUnderTest, type TestApp } from '../test/test-app';
import { searchFold } from '../db/database';

describe('searchFold', () => {
  it('folds case, accents and the Turkish dotted and dotless i; keeps Cyrillic', () => {
    expect(searchFold('İZMİR Işık')).toBe('izmir isik');
    expect(searchFold('Štip ÇAĞ Müller')).toBe('stip cag muller');
    expect(searchFold('Штип ЃОРЧЕ')).toBe('штип ѓорче');
  });
});

describe(`search in lists finds Turkish capitals (${dialectUnderTest})`, () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.http.login(DEMO.admin.email, DEMO.admin.password);
    const res = await t.http.post(
      '/api/companies/0',
      { name: 'İzmir Işık Enerji', is_active: true },
      { token },
    );
    expect(res.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it.each(['izmir', 'İZMİR', 'IZMIR', 'ışık', 'ISIK', 'isik', 'Işık Enerji', 'enerJİ'])(
    '"%s" finds it',
    async (q) => {
      const res = await t.http.get('/api/companies', { token, query: { q } });
      expect(res.statusCode).toBe(200);
      expect(res.json<{ items: { name: string }[] }>().items.map((c) => c.name)).toContain(
        'İzmir Işık Enerji',
      );
    },
  );

  it('a wildcard in the search text is taken literally', async () => {
    const res = await t.http.get('/api/companies', { token, query: { q: '%' } });
    expect(res.json<{ total: number }>().total).toBe(0);
  });
});
