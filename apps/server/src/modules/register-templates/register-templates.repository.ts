import type { Db } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';

/** A device the scope reaches, with what reading its registers needs and its company, or undefined. */
export async function findDevice(db: Db, scope: Scope, id: number) {
  let q = db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .innerJoin('fields', 'fields.id', 'plants.field_id')
    .select([
      'devices.id',
      'devices.type',
      'devices.protocol',
      'devices.ip',
      'devices.port',
      'devices.slave_id',
      'devices.baud_rate',
      'devices.serial_path',
      'devices.rated_power_kw',
      'fields.company_id',
    ])
    .where('devices.id', '=', id);
  if (!scope.all) q = q.where('devices.plant_id', 'in', reachable.plants(db, scope));
  return q.executeTakeFirst();
}

const templateColumns = [
  'id',
  'company_id',
  'slug',
  'vendor',
  'label',
  'device_type',
  'template',
  'created_by',
  'updated_by',
  'created_at',
  'updated_at',
] as const;

/** The company templates a scope sees: the admin every company's, others their own company's. */
export function listTemplates(db: Db, scope: Scope) {
  let q = db.selectFrom('register_templates').select(templateColumns);
  if (!scope.all) q = q.where('company_id', '=', scope.companyId ?? -1);
  return q.orderBy('vendor').orderBy('label').orderBy('id').execute();
}

/** One company template the scope sees, or undefined. */
export function findTemplate(db: Db, scope: Scope, id: number) {
  let q = db.selectFrom('register_templates').select(templateColumns).where('id', '=', id);
  if (!scope.all) q = q.where('company_id', '=', scope.companyId ?? -1);
  return q.executeTakeFirst();
}
export type TemplateRow = NonNullable<Awaited<ReturnType<typeof findTemplate>>>;

/** Whether the company has another template with this slug. */
export async function slugTaken(db: Db, companyId: number, slug: string, exceptId: number) {
  const row = await db
    .selectFrom('register_templates')
    .select('id')
    .where('company_id', '=', companyId)
    .where('slug', '=', slug)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function companyExists(db: Db, companyId: number) {
  const row = await db.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst();
  return row !== undefined;
}

export interface TemplateValues {
  slug: string;
  vendor: string;
  label: string;
  device_type: string;
  template: string;
}

export async function insertTemplate(
  db: Db,
  companyId: number,
  values: TemplateValues,
  userId: number,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('register_templates')
    .values({
      company_id: companyId,
      ...values,
      created_by: userId,
      updated_by: userId,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTemplate(
  db: Db,
  id: number,
  values: TemplateValues,
  userId: number,
  now: number,
) {
  await db
    .updateTable('register_templates')
    .set({ ...values, updated_by: userId, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteTemplate(db: Db, id: number) {
  await db.deleteFrom('register_templates').where('id', '=', id).execute();
}
