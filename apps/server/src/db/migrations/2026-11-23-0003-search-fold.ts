import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `search_fold(text)`: lower case without accents, the Turkish dotted/dotless i folded to a plain i, so that
 * "izmir" finds "İzmir" and "isik" finds "Işık" (same letters as searchFold in database.ts). On SQLite the
 * function is registered by openDatabase (its lower() knows only A-Z); on PostgreSQL it is a SQL function
 * in the schema. A migration is never edited: a change to the letters is a new migration.
 */
export const searchFold: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    if (dialect !== 'postgres') return;
    await sql`
      create or replace function search_fold(value text) returns text
      language sql immutable parallel safe
      as $$ select translate(lower(value), 'ıçğöşüâîûêäëïšžćčđáéíóúàèìòùñ' || chr(775), 'icgosuaiueaeiszccdaeiouaeioun') $$
    `.execute(db);
  },
};
