import { randomBytes } from 'node:crypto';
import { ALL_PERMISSIONS, languageIdOf, type Permission } from '@solar/shared';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { hashPassword } from '../lib/password';
import { seedOrganisation } from './organisation';

/** The demo accounts (docs/spec-differences.md, demo data; also used by the tests and the browser tests). */
export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@example.com', password: 'Solar!Admin1' },
  operator: { email: 'operator@example.com', password: 'Solar!Operator1' },
} as const;

export const ADMIN_ROLE_NAME = 'Yönetici';
export const OPERATOR_ROLE_NAME = 'Operatör';
export const TECHNICIAN_ROLE_NAME = 'Teknisyen';

/**
 * The operator sees the monitoring pages and works the alarm-to-fault path: acknowledges (approves or
 * rejects) alarms and opens and updates faults; nothing else changes (docs/spec-differences.md, demo data).
 */
export const OPERATOR_PERMISSIONS: readonly Permission[] = [
  ...(['map', 'plant', 'alarm', 'fault', 'report', 'dashboard'] as const).map((page) => ({
    page,
    method: 'view' as const,
  })),
  { page: 'alarm', method: 'update' },
  { page: 'fault', method: 'create' },
  { page: 'fault', method: 'update' },
];

export interface SeededAccounts {
  adminRoleId: number;
  operatorRoleId: number;
  adminId: number;
  operatorId: number;
}

/** Technicians follow alarms and work on faults in their company's plants. */
export const TECHNICIAN_PERMISSIONS: readonly Permission[] = [
  ...(['map', 'plant', 'dashboard'] as const).map((page) => ({ page, method: 'view' as const })),
  { page: 'alarm', method: 'view' },
  { page: 'alarm', method: 'update' },
  { page: 'fault', method: 'view' },
  { page: 'fault', method: 'create' },
  { page: 'fault', method: 'update' },
];

async function roleId(
  db: Db,
  name: string,
  description: string,
  isAdmin: boolean,
  now: number,
  permissions: readonly Permission[] = isAdmin ? ALL_PERMISSIONS : OPERATOR_PERMISSIONS,
) {
  const existing = await db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirst();
  if (existing) return existing.id;
  const { id } = await db
    .insertInto('roles')
    .values({ name, description, is_admin: isAdmin ? 1 : 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
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
    // The demo's addresses count as confirmed, as existing accounts do after migration 0025.
    const common = {
      language_id: 1,
      is_active: 1,
      tokens_valid_after: 0,
      email_confirmed_at: now,
      created_at: now,
      updated_at: now,
    };
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

/** The demo companies' field technicians, by company tax number (they sign in only after a reset). */
const TECHNICIANS: Record<
  string,
  {
    name: string;
    surname: string;
    username: string;
    email: string;
    telephone: string;
    locale: 'tr_TR' | 'mk_MK';
  }[]
> = {
  '0680421957': [
    {
      name: 'Mehmet',
      surname: 'Kaya',
      username: 'mkaya',
      email: 'mehmet.kaya@anadolugunes.example.com',
      telephone: '+90 532 555 11 21',
      locale: 'tr_TR',
    },
    {
      name: 'Zeynep',
      surname: 'Arslan',
      username: 'zarslan',
      email: 'zeynep.arslan@anadolugunes.example.com',
      telephone: '+90 532 555 11 22',
      locale: 'tr_TR',
    },
  ],
  '4030021548763': [
    {
      name: 'Никола',
      surname: 'Стојановски',
      username: 'nstojanovski',
      email: 'nikola.stojanovski@vardarsolar.example.com',
      telephone: '+389 70 384 121',
      locale: 'mk_MK',
    },
    {
      name: 'Ана',
      surname: 'Петровска',
      username: 'apetrovska',
      email: 'ana.petrovska@vardarsolar.example.com',
      telephone: '+389 70 384 122',
      locale: 'mk_MK',
    },
  ],
};

/**
 * Gives each demo company two technicians, so that faults have someone of the plant's company to be
 * assigned to. Only on a demo organisation without them (the technician role does not exist yet). Their
 * passwords are random and never shown: they are people in the story, not accounts to sign in with.
 */
export async function seedTechnicians(ctx: Pick<AppContext, 'db' | 'config' | 'now'>): Promise<void> {
  const { db } = ctx;
  if (await db.selectFrom('roles').select('id').where('name', '=', TECHNICIAN_ROLE_NAME).executeTakeFirst())
    return;
  const companies = await db.selectFrom('companies').select(['id', 'tax_number']).execute();
  const people = companies.flatMap((c) =>
    (TECHNICIANS[c.tax_number ?? ''] ?? []).map((p) => ({ ...p, companyId: c.id })),
  );
  if (!people.length) return;
  const hashes = await Promise.all(
    people.map(() => hashPassword(randomBytes(24).toString('base64url'), ctx.config.scryptLogN)),
  );
  await db.transaction().execute(async (trx) => {
    const now = ctx.now();
    const role = await roleId(
      trx,
      TECHNICIAN_ROLE_NAME,
      'Arıza kayıtlarında çalışır',
      false,
      now,
      TECHNICIAN_PERMISSIONS,
    );
    await trx
      .insertInto('users')
      .values(
        people.map(({ locale, companyId, ...person }, i) => ({
          ...person,
          password_hash: hashes[i]!,
          role_id: role,
          company_id: companyId,
          language_id: languageIdOf(locale),
          is_active: 1,
          tokens_valid_after: 0,
          email_confirmed_at: now,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  });
}

/**
 * Seeds the demo on an empty database (docs/spec-differences.md, demo data): the accounts, the organisation,
 * its technicians.
 */
export async function seedDemo(ctx: AppContext): Promise<void> {
  await seedAccounts(ctx);
  await seedOrganisation(ctx);
  await seedTechnicians(ctx);
}
