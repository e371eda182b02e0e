import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataQualityAnswer, DataQualityFlag, DataQualityProblemList } from '@solar/shared';
import { makeUser, pairs, type TestUser } from '../../test/org-fixtures';
import { istanbulDate, istanbulInstant, makePlantWithDay, type PlantWithDay } from '../../test/plant-day';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const DAY_MS = 86_400_000;
const MIN = 60_000;

/**
 * A plant whose inverters' counters report every 5 minutes (their poll interval) from 10:00 to 12:00 of one
 * Istanbul day, except INV-01's, which misses 10:35 through 10:55: the engine, run over that day, stores a
 * gap of 5 readings there, besides the night before 10:00 and the afternoon after 12:00 of every signal.
 */
describe(`data-quality engine and API (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let plant: PlantWithDay;
  let other: PlantWithDay;
  let companyUser: TestUser;
  let otherCompanyUser: TestUser;
  let viewer: TestUser;
  let noRights: TestUser;
  // Five days ago: neither the job's yesterday nor its today, whatever the hour.
  const day = istanbulDate(Date.now() - 5 * DAY_MS);
  const gapFrom = istanbulInstant(day, 10 * 60 + 35);
  const gapTo = istanbulInstant(day, 11 * 60);

  const recheck = (plantId: number, token: string, body: unknown = { day }) =>
    t.http.post(`/api/plants/${plantId}/data-quality/recheck`, body, { token });
  const plantQuality = async (plantId: number, token: string) => {
    const res = await t.http.get(`/api/plants/${plantId}/data-quality`, {
      token,
      query: { from: day, to: day },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DataQualityAnswer>();
  };
  const midGap = (a: DataQualityAnswer) =>
    a.flags.find(
      (f) =>
        f.reason === 'gap' &&
        f.signal_id === plant.signals.totals[0] &&
        f.from !== f.to &&
        Date.parse(f.from) === gapFrom,
    );

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    plant = await makePlantWithDay(t, admin, { name: 'Quality' });
    other = await makePlantWithDay(t, admin, { name: 'Elsewhere' });
    const points = [];
    for (let m = 10 * 60; m <= 12 * 60; m += 5) {
      const ts = istanbulInstant(day, m);
      const inGap = ts >= gapFrom && ts < gapTo;
      if (!inGap) points.push({ signal_id: plant.signals.totals[0], ts, value: 1000 + m });
      points.push({ signal_id: plant.signals.totals[1], ts, value: 1000 + m });
      points.push({ signal_id: plant.signals.poa, ts: ts + MIN, value: 700 });
    }
    await plant.ingest(points);
    await other.ingest([{ signal_id: other.signals.totals[0], ts: istanbulInstant(day, 600), value: 5 }]);
    const permissions = pairs(['plant', 'admin_panel', 'dashboard']);
    companyUser = await makeUser(t, { companyId: plant.tree.companyId, permissions });
    otherCompanyUser = await makeUser(t, { companyId: other.tree.companyId, permissions });
    viewer = await makeUser(t, {
      companyId: plant.tree.companyId,
      permissions: pairs(['plant', 'admin_panel', 'dashboard'], ['view']),
    });
    noRights = await makeUser(t, { companyId: plant.tree.companyId, permissions: pairs(['fault']) });
  });
  afterAll(() => t.close());

  it('runs a day on request and stores its gaps with their period and missing readings', async () => {
    const res = await recheck(plant.tree.plantId, companyUser.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ flags: number }>().flags).toBeGreaterThan(0);
    const answer = await plantQuality(plant.tree.plantId, companyUser.token);
    expect(answer.time_zone).toBe('Europe/Istanbul');
    const gap = midGap(answer);
    expect(gap).toMatchObject({
      reason: 'gap',
      device_id: plant.inverters[0],
      device_name: 'INV-01',
      signal_key: 'total_energy',
      informational: false,
      local_day: day,
      to: new Date(gapTo).toISOString(),
      readings: 0,
      missing: 5,
      accepted_at: null,
    });
    // INV-02 reported throughout the morning: its only gaps are the night before and the afternoon after.
    const inv2Gaps = answer.flags.filter(
      (f) => f.signal_id === plant.signals.totals[1] && f.reason === 'gap',
    );
    expect(inv2Gaps.map((f) => [f.from, f.to])).toEqual([
      [new Date(istanbulInstant(day, 0)).toISOString(), new Date(istanbulInstant(day, 600)).toISOString()],
      [new Date(istanbulInstant(day, 725)).toISOString(), new Date(istanbulInstant(day, 1440)).toISOString()],
    ]);
    // The summary: what the gaps miss, as a share of what the plant's signals owed over the day.
    expect(answer.expected_readings).toBeGreaterThan(0);
    const gaps = answer.by_reason.find((r) => r.reason === 'gap')!;
    expect(gaps.flags).toBe(answer.flags.filter((f) => f.reason === 'gap').length);
    const concerned = (flags: typeof answer.flags) => flags.reduce((n, f) => n + f.missing + f.readings, 0);
    expect(gaps.readings).toBe(concerned(answer.flags.filter((f) => f.reason === 'gap')));
    expect(gaps.share).toBeCloseTo(gaps.readings / answer.expected_readings, 10);
    // Problems: every flag but the informational ones (clipping); none is accepted yet.
    expect(answer.problem_readings).toBe(concerned(answer.flags.filter((f) => !f.informational)));
  });

  it("answers a device's flags only, over its plant's days", async () => {
    const res = await t.http.get(`/api/devices/${plant.inverters[1]}/data-quality`, {
      token: companyUser.token,
      query: { from: day, to: day },
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<DataQualityAnswer>();
    expect(answer.device_id).toBe(plant.inverters[1]);
    expect(answer.flags.length).toBeGreaterThan(0);
    expect(answer.flags.every((f) => f.device_id === plant.inverters[1])).toBe(true);
    // One counter every 5 minutes over the day: 288 readings owed.
    expect(answer.expected_readings).toBe(288);
  });

  it('refuses without a token (401), without the permission (403), and bad input (400)', async () => {
    const paths = [
      `/api/plants/${plant.tree.plantId}/data-quality`,
      `/api/devices/${plant.inverters[0]}/data-quality`,
      '/api/data-quality/problems',
    ];
    for (const path of paths) {
      expect((await t.http.get(path)).statusCode).toBe(401);
      expect((await t.http.get(path, { token: noRights.token })).statusCode).toBe(403);
    }
    expect((await recheck(plant.tree.plantId, viewer.token)).statusCode).toBe(403);
    expect(
      (await t.http.post('/api/data-quality/flags/1/accept', { note: 'x' }, { token: viewer.token }))
        .statusCode,
    ).toBe(403);
    for (const query of <Record<string, string>[]>[
      { from: day, to: '2000-01-01' },
      { from: 'yesterday' },
      { from: '2000-01-01', to: '2030-01-01' },
    ]) {
      const res = await t.http.get(`/api/plants/${plant.tree.plantId}/data-quality`, {
        token: companyUser.token,
        query,
      });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
    }
    expect((await recheck(plant.tree.plantId, companyUser.token, { day: '2099-01-01' })).statusCode).toBe(
      400,
    );
    expect((await recheck(plant.tree.plantId, companyUser.token, {})).statusCode).toBe(400);
    const problems = await t.http.get('/api/data-quality/problems', {
      token: companyUser.token,
      query: { reason: 'not_a_reason' },
    });
    expect(problems.statusCode).toBe(400);
  });

  it("answers 404 for another company's plant, device and flag, and unknown ones", async () => {
    const flag = midGap(await plantQuality(plant.tree.plantId, admin.token))!;
    const token = otherCompanyUser.token;
    for (const path of [
      `/api/plants/${plant.tree.plantId}/data-quality`,
      `/api/devices/${plant.inverters[0]}/data-quality`,
      '/api/plants/999999/data-quality',
      '/api/devices/999999/data-quality',
    ])
      expect((await t.http.get(path, { token })).statusCode, path).toBe(404);
    expect((await recheck(plant.tree.plantId, token)).statusCode).toBe(404);
    const accept = await t.http.post(
      `/api/data-quality/flags/${flag.id}/accept`,
      { note: 'mine' },
      { token },
    );
    expect(accept.statusCode).toBe(404);
    expect(
      (await t.http.post('/api/data-quality/flags/999999/accept', { note: 'x' }, { token: admin.token }))
        .statusCode,
    ).toBe(404);
  });

  it("lists the fleet's open problems newest first, each company its own", async () => {
    expect((await recheck(other.tree.plantId, admin.token)).statusCode).toBe(200);
    const mine = await t.http.get('/api/data-quality/problems', {
      token: companyUser.token,
      query: { pageSize: '200' },
    });
    expect(mine.statusCode, mine.body).toBe(200);
    const list = mine.json<DataQualityProblemList>();
    expect(list.total).toBe(list.items.length);
    expect(list.items.length).toBeGreaterThan(0);
    expect(new Set(list.items.map((p) => p.plant_id))).toEqual(new Set([plant.tree.plantId]));
    expect(list.items[0]).toMatchObject({ plant_name: 'Quality Plant', time_zone: 'Europe/Istanbul' });
    const starts = list.items.map((p) => Date.parse(p.from));
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    const theirs = (
      await t.http.get('/api/data-quality/problems', { token: otherCompanyUser.token })
    ).json<DataQualityProblemList>();
    expect(theirs.total).toBeGreaterThan(0);
    expect(theirs.items.every((p) => p.plant_id === other.tree.plantId)).toBe(true);
    // Paging: a page of 2 and the total of all.
    const page = (
      await t.http.get('/api/data-quality/problems', {
        token: companyUser.token,
        query: { pageSize: '2', page: '2' },
      })
    ).json<DataQualityProblemList>();
    expect(page.total).toBe(list.total);
    expect(page.items.map((p) => p.id)).toEqual(list.items.slice(2, 4).map((p) => p.id));
  });

  it('accepts a flag with a note, audited, once; a rerun of the day keeps it', async () => {
    const before = await plantQuality(plant.tree.plantId, companyUser.token);
    const flag = midGap(before)!;
    expect(
      (
        await t.http.post(
          `/api/data-quality/flags/${flag.id}/accept`,
          { note: ' ' },
          { token: companyUser.token },
        )
      ).statusCode,
    ).toBe(400);
    const res = await t.http.post(
      `/api/data-quality/flags/${flag.id}/accept`,
      { note: 'Logger restarted, the data is lost for good' },
      { token: companyUser.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    const accepted = res.json<DataQualityFlag>();
    expect(accepted.accepted_at).not.toBeNull();
    expect(accepted.accept_note).toBe('Logger restarted, the data is lost for good');
    expect(accepted.accepted_by).toMatch(/^Test /);
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'user_id', 'after'])
      .where('entity', '=', 'data_quality_flag')
      .where('entity_id', '=', flag.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'accept', user_id: companyUser.id });
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ reason: 'gap', accept_note: accepted.accept_note });
    const again = await t.http.post(
      `/api/data-quality/flags/${flag.id}/accept`,
      { note: 'again' },
      { token: companyUser.token },
    );
    expect(again.statusCode).toBe(409);

    // Accepted problems leave the open list; the summary no longer counts them as problems.
    const open = (
      await t.http.get('/api/data-quality/problems', { token: companyUser.token, query: { pageSize: '200' } })
    ).json<DataQualityProblemList>();
    expect(open.items.some((p) => p.id === flag.id)).toBe(false);

    expect((await recheck(plant.tree.plantId, companyUser.token)).statusCode).toBe(200);
    const after = await plantQuality(plant.tree.plantId, companyUser.token);
    const kept = after.flags.filter((f) => f.reason === 'gap' && Date.parse(f.from) === gapFrom);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ id: flag.id, accept_note: accepted.accept_note });
    expect(after.flags).toHaveLength(before.flags.length);
    expect(after.problem_readings).toBe(before.problem_readings - 5);
  });
});
