import { ALL_PERMISSIONS, type Permission } from '@solar/shared';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { hashPassword } from '../lib/password';
import { seedOrganisation } from './organisation';

/** The demo accounts of NOTES.md (also used by the tests and the browser tests). */
export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@example.com', password: 'Solar!Admin1' },
  operator: { email: 'operator@example.com', password: 'Solar!Operator1' },
} as const;

export const ADMIN_ROLE_NAME = 'Yönetici';
export const OPERATOR_ROLE_NAME = 'Operatör';

/** The operator sees the monitoring pages and changes nothing (NOTES.md). */
export const OPERATOR_PERMISSIONS: readonly Permission[] = (
  ['map', 'plant', 'alarm', 'fault', 'report', 'dashboard'] as const
).map((page) => ({ page, method: 'view' }));

export interface SeededAccounts {
  adminRoleId: number;
  operatorRoleId: number;
  adminId: number;
  operatorId: number;
}

async function roleId(db: Db, name: string, description: string, isAdmin: boolean, now: number) {
  const existing = await db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirst();
  if (existing) return existing.id;
  const { id } = await db
    .insertInto('roles')
    .values({ name, description, is_admin: isAdmin ? 1 : 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const permissions = isAdmin ? ALL_PERMISSIONS : OPERATOR_PERMISSIONS;
  await db
    .insertInto('role_permissions')
    .values(permissions.map((p) => ({ role_id: id, page: p.page, method: p.method })))
    .execute();
  return id;
}

/**
 * Creates the two roles and the two demo accounts when there are no users yet; answers their ids, or
 * undefined when users already existed (a second start seeds nothing). `operatorCompanyId` places the
 * operator in a company (the admin belongs to none).
 */
export async function seedAccounts(
  ctx: Pick<AppContext, 'db' | 'config' | 'now'>,
  options: { operatorCompanyId?: number | null } = {},
): Promise<SeededAccounts | undefined> {
  const { db, config } = ctx;
  const { n } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) > 0) return undefined;

  const [adminHash, operatorHash] = await Promise.all([
    hashPassword(DEMO_ACCOUNTS.admin.password, config.scryptLogN),
    hashPassword(DEMO_ACCOUNTS.operator.password, config.scryptLogN),
  ]);
  return db.transaction().execute(async (trx) => {
    const now = ctx.now();
    const adminRoleId = await roleId(trx, ADMIN_ROLE_NAME, 'Tüm yetkiler', true, now);
    const operatorRoleId = await roleId(trx, OPERATOR_ROLE_NAME, 'İzleme sayfalarını görüntüler', false, now);
    const common = { language_id: 1, is_active: 1, tokens_valid_after: 0, created_at: now, updated_at: now };
    const admin = await trx
      .insertInto('users')
      .values({
        ...common,
        name: 'Ahmet',
        surname: 'Yılmaz',
        username: 'admin',
        telephone: '+90 532 555 01 01',
        email: DEMO_ACCOUNTS.admin.email,
        password_hash: adminHash,
        role_id: adminRoleId,
        company_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const operator = await trx
      .insertInto('users')
      .values({
        ...common,
        name: 'Elif',
        surname: 'Demir',
        username: 'operator',
        telephone: '+90 533 555 02 02',
        email: DEMO_ACCOUNTS.operator.email,
        password_hash: operatorHash,
        role_id: operatorRoleId,
        company_id: options.operatorCompanyId ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { adminRoleId, operatorRoleId, adminId: admin.id, operatorId: operator.id };
  });
}

/** Seeds the demo on an empty database (NOTES.md): the accounts, then the organisation. */
export async function seedDemo(ctx: AppContext): Promise<void> {
  await seedAccounts(ctx);
  await seedOrganisation(ctx);
}
