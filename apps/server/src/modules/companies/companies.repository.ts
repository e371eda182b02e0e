import { sql, type Selectable } from 'kysely';
import type { z } from 'zod';
import type { Company, companyListQuery } from '@solar/shared';
import type { Db } from '../../db/database';
import type { CompaniesTable } from '../../db/schema';
import { bool, iso, pageOf, searchAny } from '../../lib/listing';
import { reachable, type Scope } from '../../lib/scope';

type Row = Selectable<CompaniesTable>;
export type CompanyListFilter = z.output<typeof companyListQuery>;

export interface CompanyValues {
  name: string;
  tax_number: string | null;
  tax_office: string | null;
  address: string | null;
  phone: string | null;
  email: string | null;
  is_active: boolean;
}

const toCompany = (r: Row): Company => ({
  id: r.id,
  name: r.name,
  tax_number: r.tax_number,
  tax_office: r.tax_office,
  address: r.address,
  phone: r.phone,
  email: r.email,
  is_active: bool(r.is_active),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

function scoped(db: Db, scope: Scope) {
  const q = db.selectFrom('companies');
  return scope.all ? q : q.where('companies.id', 'in', reachable.companies(db, scope));
}

/** One page of the companies the scope reaches, and how many there are. */
export async function listCompanies(db: Db, scope: Scope, filter: CompanyListFilter) {
  let q = scoped(db, scope);
  if (filter.is_active !== undefined) q = q.where('companies.is_active', '=', filter.is_active ? 1 : 0);
  if (filter.q) {
    q = q.where(
      searchAny(
        ['companies.name', 'companies.tax_number', 'companies.email', 'companies.tax_office'],
        filter.q,
      ),
    );
  }
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const direction = filter.sort.descending ? 'desc' : 'asc';
  const { limit, offset } = pageOf(filter);
  const rows = await q
    .selectAll('companies')
    .orderBy(sql.ref(`companies.${filter.sort.column}`), direction)
    .orderBy('companies.id', direction)
    .limit(limit)
    .offset(offset)
    .execute();
  return { items: rows.map(toCompany), total: Number(total) };
}

/** A company the scope reaches, or undefined. */
export async function findCompany(db: Db, scope: Scope, id: number): Promise<Company | undefined> {
  const row = await scoped(db, scope)
    .selectAll('companies')
    .where('companies.id', '=', id)
    .executeTakeFirst();
  return row && toCompany(row);
}

export async function insertCompany(db: Db, values: CompanyValues, now: number): Promise<number> {
  const { id } = await db
    .insertInto('companies')
    .values({ ...values, is_active: values.is_active ? 1 : 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateCompany(db: Db, id: number, values: CompanyValues, now: number): Promise<void> {
  await db
    .updateTable('companies')
    .set({ ...values, is_active: values.is_active ? 1 : 0, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Fields and users that still belong to the company. */
export async function companyChildren(db: Db, id: number): Promise<{ fields: number; users: number }> {
  const fields = await db
    .selectFrom('fields')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', id)
    .executeTakeFirstOrThrow();
  const users = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', id)
    .executeTakeFirstOrThrow();
  return { fields: Number(fields.n), users: Number(users.n) };
}

export async function deleteCompany(db: Db, id: number): Promise<void> {
  await db.deleteFrom('companies').where('id', '=', id).execute();
}
