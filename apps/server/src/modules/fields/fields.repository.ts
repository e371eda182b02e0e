import { sql } from 'kysely';
import type { z } from 'zod';
import type { Field, fieldListQuery } from '@solar/shared';
import type { Db } from '../../db/database';
import { bool, iso, pageOf, searchAny } from '../../lib/listing';
import { reachable, type Scope } from '../../lib/scope';

export type FieldListFilter = z.output<typeof fieldListQuery>;

export interface FieldValues {
  company_id: number;
  name: string;
  city: string | null;
  district: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  is_active: boolean;
}

const SORT_REFS: Record<FieldListFilter['sort']['column'], string> = {
  id: 'fields.id',
  name: 'fields.name',
  city: 'fields.city',
  district: 'fields.district',
  company_name: 'companies.name',
  is_active: 'fields.is_active',
  created_at: 'fields.created_at',
  updated_at: 'fields.updated_at',
};

function scoped(db: Db, scope: Scope) {
  const q = db.selectFrom('fields').innerJoin('companies', 'companies.id', 'fields.company_id');
  return scope.all ? q : q.where('fields.id', 'in', reachable.fields(db, scope));
}

function selectField(q: ReturnType<typeof scoped>) {
  return q.selectAll('fields').select('companies.name as company_name');
}

type Row = Awaited<ReturnType<ReturnType<typeof selectField>['executeTakeFirstOrThrow']>>;
const toField = (r: Row): Field => ({
  id: r.id,
  company_id: r.company_id,
  company_name: r.company_name,
  name: r.name,
  city: r.city,
  district: r.district,
  address: r.address,
  latitude: r.latitude === null ? null : Number(r.latitude),
  longitude: r.longitude === null ? null : Number(r.longitude),
  is_active: bool(r.is_active),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

/** One page of the fields the scope reaches, and how many there are. */
export async function listFields(db: Db, scope: Scope, filter: FieldListFilter) {
  let q = scoped(db, scope);
  if (filter.is_active !== undefined) q = q.where('fields.is_active', '=', filter.is_active ? 1 : 0);
  if (filter.company_id !== undefined) q = q.where('fields.company_id', '=', filter.company_id);
  if (filter.q)
    q = q.where(searchAny(['fields.name', 'fields.city', 'fields.district', 'companies.name'], filter.q));
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const direction = filter.sort.descending ? 'desc' : 'asc';
  const { limit, offset } = pageOf(filter);
  const rows = await selectField(q)
    .orderBy(sql.ref(SORT_REFS[filter.sort.column]), direction)
    .orderBy('fields.id', direction)
    .limit(limit)
    .offset(offset)
    .execute();
  return { items: rows.map(toField), total: Number(total) };
}

/** A field the scope reaches, or undefined. */
export async function findField(db: Db, scope: Scope, id: number): Promise<Field | undefined> {
  const row = await selectField(scoped(db, scope)).where('fields.id', '=', id).executeTakeFirst();
  return row && toField(row);
}

/** True when the company exists (the admin may put a field under any company). */
export async function companyExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('companies').select('id').where('id', '=', id).executeTakeFirst());
}

const columns = (v: FieldValues) => ({ ...v, is_active: v.is_active ? 1 : 0 });

export async function insertField(db: Db, values: FieldValues, now: number): Promise<number> {
  const { id } = await db
    .insertInto('fields')
    .values({ ...columns(values), created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateField(db: Db, id: number, values: FieldValues, now: number): Promise<void> {
  await db
    .updateTable('fields')
    .set({ ...columns(values), updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function countPlants(db: Db, fieldId: number): Promise<number> {
  const { n } = await db
    .selectFrom('plants')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('field_id', '=', fieldId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function deleteField(db: Db, id: number): Promise<void> {
  await db.deleteFrom('fields').where('id', '=', id).execute();
}
