import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { FaultDetail } from '@solar/shared';
import { makeTree, makeUser, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { backfillFaultTitleCodes, parseOldFaultTitle } from './2026-11-28-0028-fault-title-codes';

describe(`migration 0028: fault titles written as Turkish text get their message code (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;

  beforeAll(async () => {
    t = await createTestApp({ demo: false });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Migrate');
  });
  afterAll(() => t.close());

  /** A fault row as the code before the migration wrote it: the alarm's message rendered in Turkish, no code. */
  const oldFault = async (alarmId: number | null, title: string) => {
    const now = Date.UTC(2026, 10, 20, 9, 0, 0);
    const { id } = await t.ctx.db
      .insertInto('faults')
      .values({
        alarm_id: alarmId,
        plant_id: tree.plantId,
        device_id: tree.deviceId,
        tag_id: null,
        title,
        description: title,
        priority_id: 3,
        status: 'open',
        assignee_user_id: null,
        root_cause: null,
        resolution: null,
        created_by: null,
        detected_at: now,
        created_at: now,
        acknowledged_at: null,
        resolved_at: null,
        closed_at: null,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  };
  const read = async (id: number) => {
    const res = await t.http.get(`/api/faults/${id}`, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<FaultDetail>();
  };

  it('parses the known Turkish texts into code and parameters, and leaves typed titles alone', async () => {
    const statusCode = await oldFault(9_001, 'Migrate INV-01: İnverter arıza durumunda (durum kodu 7)');
    const grid = await oldFault(9_002, 'Migrate INV-01: Şebeke bağlantısı kesildi');
    const noProduction = await oldFault(
      9_003,
      'Migrate Plant: Santral, ışınım 412.5 W/m² iken üretim yapmıyor',
    );
    // A custom rule keeps what its author typed (the rule's name) as a parameter.
    const custom = await oldFault(9_004, 'Migrate INV-01: Sıcak modül: değer 81.2 °C (> 70)');
    const typed = await oldFault(9_005, 'Kablo kanalında su birikmiş');
    const byHand = await oldFault(null, 'Migrate INV-01: Şebeke bağlantısı kesildi');

    expect(await backfillFaultTitleCodes(t.ctx.db as unknown as Kysely<unknown>)).toBe(4);

    expect(await read(statusCode)).toMatchObject({
      title: 'Migrate INV-01: İnverter arıza durumunda (durum kodu 7)',
      title_code: 'alarms.msg.inverterFault',
      title_params: { code: 7 },
    });
    expect(await read(grid)).toMatchObject({ title_code: 'alarms.msg.gridDisconnect', title_params: {} });
    expect(await read(noProduction)).toMatchObject({
      title_code: 'alarms.msg.plantNoProduction',
      title_params: { irradiance: 412.5 },
    });
    expect(await read(custom)).toMatchObject({
      title_code: 'alarms.msg.custom',
      title_params: { name: 'Sıcak modül', value: 81.2, unit: '°C', operant: '>', threshold: 70 },
    });
    expect(await read(typed)).toMatchObject({ title: 'Kablo kanalında su birikmiş', title_code: null });
    // Only faults made from an alarm were written from a message; a fault made by hand is a person's text.
    expect(await read(byHand)).toMatchObject({ title_code: null, title_params: null });
    // Running it again finds nothing left to do.
    expect(await backfillFaultTitleCodes(t.ctx.db as unknown as Kysely<unknown>)).toBe(0);
  });

  it('reads a title whose device name itself contains a colon', () => {
    expect(parseOldFaultTitle('Saha: INV-2: Aşırı sıcaklık')).toEqual({
      code: 'alarms.msg.overTemperature',
      params: {},
    });
    expect(parseOldFaultTitle('Aşırı sıcaklık')).toBeNull();
  });
});
