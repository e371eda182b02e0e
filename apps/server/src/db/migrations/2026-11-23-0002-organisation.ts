import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { withId, type DialectMigration } from './helpers';

/**
 * The organisation hierarchy (docs/spec-differences.md): companies → fields → plants → devices → signals, and
 * the company a user belongs to. Foreign keys restrict deletes: a parent with children cannot be deleted.
 */
export const organisation: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('companies'), dialect)
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('tax_number', 'varchar(50)')
      .addColumn('tax_office', 'varchar(100)')
      .addColumn('address', 'varchar(500)')
      .addColumn('phone', 'varchar(40)')
      .addColumn('email', 'varchar(254)')
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('fields'), dialect)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('city', 'varchar(100)')
      .addColumn('district', 'varchar(100)')
      .addColumn('address', 'varchar(500)')
      .addColumn('latitude', 'double precision')
      .addColumn('longitude', 'double precision')
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('fields_company_idx').on('fields').column('company_id').execute();

    await withId(db.schema.createTable('plants'), dialect)
      .addColumn('field_id', 'integer', (c) => c.notNull().references('fields.id'))
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('dc_capacity_kwp', 'double precision')
      .addColumn('ac_capacity_kw', 'double precision')
      .addColumn('latitude', 'double precision')
      .addColumn('longitude', 'double precision')
      .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
      .addColumn('commissioning_date', 'varchar(10)')
      // JSON array of strings.
      .addColumn('subscriber_numbers', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('tilt_deg', 'double precision')
      .addColumn('azimuth_deg', 'double precision')
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('plants_field_idx').on('plants').column('field_id').execute();

    await withId(db.schema.createTable('devices'), dialect)
      .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id'))
      .addColumn('parent_device_id', 'integer', (c) => c.references('devices.id'))
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('type', 'varchar(30)', (c) => c.notNull())
      .addColumn('brand', 'varchar(100)')
      .addColumn('model', 'varchar(100)')
      .addColumn('serial_number', 'varchar(100)')
      .addColumn('rated_power_kw', 'double precision')
      .addColumn('protocol', 'varchar(20)', (c) => c.notNull())
      .addColumn('ip', 'varchar(45)')
      .addColumn('port', 'integer')
      .addColumn('slave_id', 'integer')
      .addColumn('baud_rate', 'integer')
      .addColumn('mqtt_topic', 'varchar(500)')
      .addColumn('poll_interval_s', 'integer', (c) => c.notNull().defaultTo(60))
      .addColumn('snapshot_url', 'varchar(1000)')
      .addColumn('stream_url', 'varchar(1000)')
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('devices_plant_idx').on('devices').column('plant_id').execute();
    await db.schema.createIndex('devices_parent_idx').on('devices').column('parent_device_id').execute();

    await withId(db.schema.createTable('signals'), dialect)
      .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id'))
      .addColumn('key', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('unit', 'varchar(20)')
      .addColumn('data_type', 'varchar(20)', (c) => c.notNull())
      .addColumn('register_type', 'varchar(20)')
      .addColumn('address', 'integer')
      .addColumn('word_order', 'varchar(10)')
      .addColumn('scale', 'double precision', (c) => c.notNull().defaultTo(1))
      .addColumn('is_counter', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('signals_device_key_uq', ['device_id', 'key'])
      .execute();
    // The unique (device_id, key) index also serves lookups by device_id.

    // Null only for the admin, who belongs to no company and sees all of them (enforced by the users module).
    await db.schema
      .alterTable('users')
      .addColumn('company_id', 'integer', (c) => c.references('companies.id'))
      .execute();
    await db.schema.createIndex('users_company_idx').on('users').column('company_id').execute();
  },
};
