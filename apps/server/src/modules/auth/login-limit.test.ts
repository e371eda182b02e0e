import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XSRF_COOKIE, XSRF_HEADER } from '@solar/shared';
import { translate } from '@solar/i18n';
import { parseEml } from '../../test/mail';
import { DEMO, createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** docs/security.md, holes 3 and 4: the sign-in limit under parallel attempts, and lockout of an account. */
describe(`sign-in limit (${dialectUnderTest})`, { timeout: 120_000 }, () => {
  let t: TestApp;
  let adminId: number;

  beforeAll(async () => {
    // A cheaper password hash: these tests sign in dozens of times (the cost is not what they test).
    t = await createTestApp({ scryptLogN: 10 });
    const ids = await t.ctx.db.selectFrom('users').select(['id', 'email']).execute();
    adminId = ids.find((u) => u.email === DEMO.admin.email)!.id;
  });
  afterAll(() => t.close());

  /** A sign-in with the anti-forgery pair, as the console sends it, and the given cookies. */
  const login = async (body: unknown, remoteAddress: string, cookies?: Record<string, string>) => {
    const xsrf = await t.http.primeXsrf();
    return t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: body as Record<string, unknown>,
      remoteAddress,
      headers: { [XSRF_HEADER]: xsrf },
      cookies: { ...cookies, [XSRF_COOKIE]: xsrf },
    });
  };

  it(
    '3: 30 parallel wrong passwords for one account: exactly 10 are checked, 20 answer 429',
    { timeout: 120_000 },
    async () => {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          login({ ...DEMO.operator, password: `wrong-${i}` }, `192.0.2.${i + 1}`),
        ),
      );
      const codes = answers.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 401)).toHaveLength(10);
      expect(codes.filter((c) => c === 429)).toHaveLength(20);
      // The same from one address: the per-IP count holds as well.
      const sameIp = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          login({ email: `nobody${i}@example.com`, password: 'x' }, '192.0.2.200'),
        ),
      );
      expect(sameIp.filter((r) => r.statusCode === 429)).toHaveLength(20);
      // The count lives in the database (several nodes share it).
      const row = await t.ctx.db
        .selectFrom('attempt_counts')
        .select('count')
        .where('key', '=', `login:email:${DEMO.operator.email}`)
        .executeTakeFirst();
      expect(row?.count).toBe(30);
    },
  );

  it('3: a burst from one address for one account: the first 10 pass both counts, the rest cost the account nothing', async () => {
    const email = 'burst@example.com';
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login({ email, password: `wrong-${i}` }, '192.0.2.201')),
    );
    // Counted side by side, the attempts reached the two counters in different orders (PostgreSQL's pool,
    // or two nodes), and fewer than 10, even none, could be within both limits.
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(10);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(20);
    const row = await t.ctx.db
      .selectFrom('attempt_counts')
      .select('count')
      .where('key', '=', `login:email:${email}`)
      .executeTakeFirst();
    expect(row?.count).toBe(10);
  });

  it('4: failures from strangers do not lock out a browser that signed in before; the owner gets one mail', async () => {
    // The owner signs in from their browser, which receives its signed, HttpOnly device cookie.
    const first = await login(DEMO.admin, '198.18.0.1');
    expect(first.statusCode).toBe(200);
    const device = first.cookies.find((c) => c.name === `device-${adminId}`);
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/users/login' });
    const mailsBefore = t.outbox().length;

    // Ten failures from ten forwarded addresses lock the account for unknown browsers…
    for (let i = 0; i < 10; i++) {
      expect((await login({ ...DEMO.admin, password: `guess-${i}` }, `203.0.113.${i + 1}`)).statusCode).toBe(
        401,
      );
    }
    for (let i = 0; i < 3; i++) {
      expect((await login({ ...DEMO.admin, password: `guess-x${i}` }, '203.0.113.99')).statusCode).toBe(429);
    }
    const stranger = await login(DEMO.admin, '203.0.113.100');
    expect(stranger.statusCode).toBe(429);
    // … and for a forged or someone else's cookie under the owner's name.
    expect(
      (
        await login(DEMO.admin, '198.18.0.1', {
          [`device-${adminId}`]: `${'A'.repeat(22)}.${'B'.repeat(43)}`,
        })
      ).statusCode,
    ).toBe(429);
    // The owner's browser still gets in with the right password.
    const owner = await login(DEMO.admin, '198.18.0.1', { [device!.name]: device!.value });
    expect(owner.statusCode, owner.body).toBe(200);

    // One mail to the owner, in their language, however many attempts followed.
    const toOwner = () =>
      t
        .outbox()
        .slice(mailsBefore)
        .map(parseEml)
        .filter((m) => m.to.includes(DEMO.admin.email));
    for (let i = 0; i < 50 && toOwner().length === 0; i++) await sleep(20);
    await sleep(100);
    const mails = toOwner();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(translate('tr_TR', 'mail.lockoutSubject'));
  });

  it('4: a known browser has a limit of its own', async () => {
    // The parallel test above locked the operator's email for unknown browsers.
    await t.ctx.loginLimiter.reset(`email:${DEMO.operator.email}`);
    const signedIn = await login(DEMO.operator, '198.18.1.1');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const cookie = signedIn.cookies.find((c) => c.name.startsWith('device-'))!;
    const cookies = { [cookie.name]: cookie.value };
    for (let i = 0; i < 10; i++) {
      const res = await login({ ...DEMO.operator, password: `bad-${i}` }, `198.18.2.${i}`, cookies);
      expect(res.statusCode).toBe(401);
    }
    expect((await login(DEMO.operator, '198.18.3.1', cookies)).statusCode).toBe(429);
  });
});
