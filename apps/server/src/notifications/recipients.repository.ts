import { sql, type SqlBool } from 'kysely';
import type { UserUnit } from '@solar/shared';
import type { Db } from '../db/database';

/** A user who may be mailed about the alarms of their company. */
export interface AlarmRecipient {
  id: number;
  email: string;
  name: string;
  surname: string;
  languageId: number;
  companyId: number;
  isAdmin: boolean;
  units: UserUnit[];
}

/**
 * Active users of the companies whose role holds ('alarm', 'view') or is an admin role, with their
 * units (user_units narrow which plants' alarms they get). Users without a company (the console admin)
 * are not company users and are not listed.
 */
export async function alarmRecipients(db: Db, companyIds: readonly number[]): Promise<AlarmRecipient[]> {
  if (!companyIds.length) return [];
  const rows = await db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .select([
      'users.id',
      'users.email',
      'users.name',
      'users.surname',
      'users.language_id',
      'users.company_id',
      'roles.is_admin',
    ])
    .where('users.company_id', 'in', [...companyIds])
    .where('users.is_active', '=', 1)
    .where((eb) =>
      eb.or([
        eb('roles.is_admin', '=', 1),
        eb.exists(
          eb
            .selectFrom('role_permissions')
            .select(sql<SqlBool>`1`.as('one'))
            .whereRef('role_permissions.role_id', '=', 'users.role_id')
            .where('role_permissions.page', '=', 'alarm')
            .where('role_permissions.method', '=', 'view'),
        ),
      ]),
    )
    .orderBy('users.id')
    .execute();
  if (!rows.length) return [];
  const units = await db
    .selectFrom('user_units')
    .select(['user_id', 'unit_type', 'unit_id'])
    .where(
      'user_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: r.name,
    surname: r.surname,
    languageId: r.language_id,
    companyId: r.company_id!,
    isAdmin: r.is_admin === 1,
    units: units
      .filter((u) => u.user_id === r.id)
      .map((u) => ({ unit_type: u.unit_type as UserUnit['unit_type'], unit_id: u.unit_id })),
  }));
}

/** Field and time zone of each plant. */
export async function plantsInfo(
  db: Db,
  plantIds: readonly number[],
): Promise<Map<number, { fieldId: number; timeZone: string }>> {
  if (!plantIds.length) return new Map();
  const rows = await db
    .selectFrom('plants')
    .select(['id', 'field_id', 'time_zone'])
    .where('id', 'in', [...plantIds])
    .execute();
  return new Map(rows.map((r) => [r.id, { fieldId: r.field_id, timeZone: r.time_zone }]));
}
