import type { Db } from '../../db/database';

/** When nothing names a zone: no plant to read one from. */
const NO_ZONE = 'UTC';

/**
 * The zone a company lives on: the product keeps a time zone per plant only, so a company's is the zone most
 * of its active plants share (the lowest plant id's on a tie); the console's (all active plants) for
 * `null`, the administrator's company-less reach; UTC without a plant.
 */
async function companyZone(db: Db, companyId: number | null): Promise<string> {
  let query = db
    .selectFrom('plants')
    .innerJoin('fields', 'fields.id', 'plants.field_id')
    .select([
      'plants.time_zone',
      (eb) => eb.fn.countAll<number>().as('plants'),
      (eb) => eb.fn.min('plants.id').as('first'),
    ])
    .where('plants.is_active', '=', 1)
    .groupBy('plants.time_zone')
    .orderBy('plants', 'desc')
    .orderBy('first', 'asc')
    .limit(1);
  if (companyId !== null) query = query.where('fields.company_id', '=', companyId);
  const row = await query.executeTakeFirst();
  return row?.time_zone ?? NO_ZONE;
}

/**
 * The time zone a mail recipient's day is read in (docs/security.md, "Mails per recipient and local day"):
 * a user's company's zone for a user's address, a company's own zone for its contact address, and the
 * console's zone for any other address (the administrator's test mail to an outside address). `address`
 * is lower case, as the mail budget keeps it.
 */
export async function recipientTimeZone(db: Db, address: string): Promise<string> {
  const user = await db
    .selectFrom('users')
    .select('company_id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', address))
    .orderBy('is_active', 'desc')
    .orderBy('id', 'asc')
    .executeTakeFirst();
  if (user) return companyZone(db, user.company_id);
  const company = await db
    .selectFrom('companies')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', address))
    .orderBy('id', 'asc')
    .executeTakeFirst();
  return companyZone(db, company?.id ?? null);
}
