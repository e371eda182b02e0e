import type { Db } from '../../db/database';

/** A stored setting: its key and its value as JSON text. */
export interface StoredSetting {
  key: string;
  value: string;
  updated_at: number;
}

/** Every stored setting. */
export async function readSettings(db: Db): Promise<StoredSetting[]> {
  return db.selectFrom('system_settings').select(['key', 'value', 'updated_at']).execute();
}

/** Writes the given settings (insert or replace, one statement per key: a handful of keys at most). */
export async function writeSettings(
  db: Db,
  values: Record<string, unknown>,
  userId: number | null,
  now: number,
): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const text = JSON.stringify(value);
    await db
      .insertInto('system_settings')
      .values({ key, value: text, updated_by: userId, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: text, updated_by: userId, updated_at: now }))
      .execute();
  }
}

/** The stored logo without its bytes: what the public settings and a revalidation need. */
export interface LogoMeta {
  content_type: string;
  size_bytes: number;
  etag: string;
  updated_at: number;
}

/** The one logo row's id. */
const LOGO_ID = 1;

/** The logo's description, or undefined when none is stored. */
export async function readLogoMeta(db: Db): Promise<LogoMeta | undefined> {
  const row = await db
    .selectFrom('site_logo')
    .select(['content_type', 'size_bytes', 'etag', 'updated_at'])
    .where('id', '=', LOGO_ID)
    .executeTakeFirst();
  return row && { ...row, size_bytes: Number(row.size_bytes), updated_at: Number(row.updated_at) };
}

/** The logo's bytes and type, or undefined when none is stored. */
export async function readLogo(db: Db): Promise<(LogoMeta & { data: Buffer }) | undefined> {
  const row = await db
    .selectFrom('site_logo')
    .select(['content_type', 'size_bytes', 'etag', 'updated_at', 'data'])
    .where('id', '=', LOGO_ID)
    .executeTakeFirst();
  return (
    row && {
      ...row,
      data: Buffer.from(row.data),
      size_bytes: Number(row.size_bytes),
      updated_at: Number(row.updated_at),
    }
  );
}

/** Stores the logo, replacing the one before. */
export async function writeLogo(
  db: Db,
  logo: { content_type: string; data: Buffer; etag: string },
  userId: number | null,
  now: number,
): Promise<void> {
  const values = {
    content_type: logo.content_type,
    data: logo.data,
    size_bytes: logo.data.length,
    etag: logo.etag,
    updated_by: userId,
    updated_at: now,
  };
  await db
    .insertInto('site_logo')
    .values({ id: LOGO_ID, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

export async function deleteLogo(db: Db): Promise<void> {
  await db.deleteFrom('site_logo').where('id', '=', LOGO_ID).execute();
}

/** An admin's grid emission factor for a country. */
export interface Co2OverrideRow {
  country: string;
  kg_per_kwh: number;
  year: number;
  source: string;
  updated_at: number;
}

/** Every stored override, by country. */
export async function readCo2Overrides(db: Db): Promise<Co2OverrideRow[]> {
  const rows = await db
    .selectFrom('co2_factor_overrides')
    .select(['country', 'kg_per_kwh', 'year', 'source', 'updated_at'])
    .orderBy('country')
    .execute();
  return rows.map((r) => ({
    ...r,
    kg_per_kwh: Number(r.kg_per_kwh),
    year: Number(r.year),
    updated_at: Number(r.updated_at),
  }));
}

export async function readCo2Override(db: Db, country: string): Promise<Co2OverrideRow | undefined> {
  const row = await db
    .selectFrom('co2_factor_overrides')
    .select(['country', 'kg_per_kwh', 'year', 'source', 'updated_at'])
    .where('country', '=', country)
    .executeTakeFirst();
  return (
    row && {
      ...row,
      kg_per_kwh: Number(row.kg_per_kwh),
      year: Number(row.year),
      updated_at: Number(row.updated_at),
    }
  );
}

/** Inserts or replaces a country's override. */
export async function writeCo2Override(
  db: Db,
  row: Omit<Co2OverrideRow, 'updated_at'>,
  userId: number | null,
  now: number,
): Promise<void> {
  const values = {
    kg_per_kwh: row.kg_per_kwh,
    year: row.year,
    source: row.source,
    updated_by: userId,
    updated_at: now,
  };
  await db
    .insertInto('co2_factor_overrides')
    .values({ country: row.country, ...values })
    .onConflict((oc) => oc.column('country').doUpdateSet(values))
    .execute();
}

export async function deleteCo2Override(db: Db, country: string): Promise<void> {
  await db.deleteFrom('co2_factor_overrides').where('country', '=', country).execute();
}
