import { sql } from 'kysely';
import type { z } from 'zod';
import type { Plant, plantListQuery } from '@solar/shared';
import type { Db } from '../../db/database';
import { bool, iso, pageOf, searchAny } from '../../lib/listing';
import { reachable, type Scope } from '../../lib/scope';

export type PlantListFilter = z.output<typeof plantListQuery>;

export interface PlantValues {
  field_id: number;
  name: string;
  dc_capacity_kwp: number | null;
  ac_capacity_kw: number | null;
  latitude: number | null;
  longitude: number | null;
  time_zone: string;
  commissioning_date: string | null;
  subscriber_numbers: string[];
  tilt_deg: number | null;
  azimuth_deg: number | null;
  temperature_coefficient_per_k: number;
  system_loss_fraction: number;
  is_active: boolean;
}

const SORT_REFS: Record<PlantListFilter['sort']['column'], string> = {
  id: 'plants.id',
  name: 'plants.name',
  field_name: 'fields.name',
  company_name: 'companies.name',
  dc_capacity_kwp: 'plants.dc_capacity_kwp',
  ac_capacity_kw: 'plants.ac_capacity_kw',
  commissioning_date: 'plants.commissioning_date',
  is_active: 'plants.is_active',
  created_at: 'plants.created_at',
  updated_at: 'plants.updated_at',
};

function scoped(db: Db, scope: Scope) {
  const q = db
    .selectFrom('plants')
    .innerJoin('fields', 'fields.id', 'plants.field_id')
    .innerJoin('companies', 'companies.id', 'fields.company_id');
  return scope.all ? q : q.where('plants.id', 'in', reachable.plants(db, scope));
}

function selectPlant(q: ReturnType<typeof scoped>) {
  return q
    .selectAll('plants')
    .select([
      'fields.name as field_name',
      'fields.company_id as company_id',
      'companies.name as company_name',
    ]);
}

const num = (v: number | null) => (v === null ? null : Number(v));

function parseList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

type Row = Awaited<ReturnType<ReturnType<typeof selectPlant>['executeTakeFirstOrThrow']>>;
const toPlant = (r: Row): Plant => ({
  id: r.id,
  field_id: r.field_id,
  field_name: r.field_name,
  company_id: r.company_id,
  company_name: r.company_name,
  name: r.name,
  dc_capacity_kwp: num(r.dc_capacity_kwp),
  ac_capacity_kw: num(r.ac_capacity_kw),
  latitude: num(r.latitude),
  longitude: num(r.longitude),
  time_zone: r.time_zone,
  commissioning_date: r.commissioning_date,
  subscriber_numbers: parseList(r.subscriber_numbers),
  tilt_deg: num(r.tilt_deg),
  azimuth_deg: num(r.azimuth_deg),
  temperature_coefficient_per_k: Number(r.temperature_coefficient_per_k),
  system_loss_fraction: Number(r.system_loss_fraction),
  is_active: bool(r.is_active),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

/** One page of the plants the scope reaches, and how many there are. */
export async function listPlants(db: Db, scope: Scope, filter: PlantListFilter) {
  let q = scoped(db, scope);
  if (filter.is_active !== undefined) q = q.where('plants.is_active', '=', filter.is_active ? 1 : 0);
  if (filter.field_id !== undefined) q = q.where('plants.field_id', '=', filter.field_id);
  if (filter.company_id !== undefined) q = q.where('fields.company_id', '=', filter.company_id);
  if (filter.q) q = q.where(searchAny(['plants.name', 'fields.name', 'plants.subscriber_numbers'], filter.q));
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const direction = filter.sort.descending ? 'desc' : 'asc';
  const { limit, offset } = pageOf(filter);
  const rows = await selectPlant(q)
    .orderBy(sql.ref(SORT_REFS[filter.sort.column]), direction)
    .orderBy('plants.id', direction)
    .limit(limit)
    .offset(offset)
    .execute();
  return { items: rows.map(toPlant), total: Number(total) };
}

/** A plant the scope reaches, or undefined. */
export async function findPlant(db: Db, scope: Scope, id: number): Promise<Plant | undefined> {
  const row = await selectPlant(scoped(db, scope)).where('plants.id', '=', id).executeTakeFirst();
  return row && toPlant(row);
}

/** True when the scope reaches the field (a new plant's parent). */
export async function fieldReachable(db: Db, scope: Scope, fieldId: number): Promise<boolean> {
  let q = db.selectFrom('fields').select('fields.id').where('fields.id', '=', fieldId);
  if (!scope.all) q = q.where('fields.id', 'in', reachable.fields(db, scope));
  return !!(await q.executeTakeFirst());
}

const columns = (v: PlantValues) => ({
  ...v,
  subscriber_numbers: JSON.stringify(v.subscriber_numbers),
  is_active: v.is_active ? 1 : 0,
});

export async function insertPlant(db: Db, values: PlantValues, now: number): Promise<number> {
  const { id } = await db
    .insertInto('plants')
    .values({ ...columns(values), created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updatePlant(db: Db, id: number, values: PlantValues, now: number): Promise<void> {
  await db
    .updateTable('plants')
    .set({ ...columns(values), updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function countDevices(db: Db, plantId: number): Promise<number> {
  const { n } = await db
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('plant_id', '=', plantId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function deletePlant(db: Db, id: number): Promise<void> {
  await db.deleteFrom('plants').where('id', '=', id).execute();
}

/** Names of these plants by id (for answers that list devices of any plant, such as the collectors' health). */
export async function plantNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('plants')
    .select(['id', 'name'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}
