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
